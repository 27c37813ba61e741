"""Outcome weights that make a comparison scenario's outcomes even over the pool.

A comparison's keep weights K(o) (:mod:`memsim.qa.comparative`) have the same
expectation for every outcome, but a profile's question ends on o with chance K(o) / S
(or K(o) / Z plus an even share), and the expectation of that ratio is even only when
most profiles can realise every outcome. Where many cannot, the ones left fall to the
outcomes that are easy to realise: a held-out landlord, older than all of their tenants
in most profiles, asked "my tenant or me: who is older?" could answer only "me" or
"never told" there, and comparative/user read first 0.16, second 0.35, the same 0.14,
never told 0.35 in expectation. Nothing a single trajectory does can fix that: its
profile has what it has. Across profiles it can be fixed, by asking the rare outcomes
more often where they can be asked: each outcome's K is scaled by a weight w(o), fitted
on profiles of the pool's network (not the dataset's;
:func:`memsim.qa.comparative.outcome_weights` says which) so that the expected share of
every outcome is a quarter (iterative proportional scaling, as a contingency table's
margins are fitted). The weights depend on the schema, the seed and the scenario alone,
and a reader without memory still sees each outcome a quarter of the time, whoever the
question names.

A scenario whose shares are even within the estimate's noise keeps weights of 1 (its
draws unchanged): ``NOISE_Z`` standard errors of the mean over the profiles.

Where too many profiles can realise only some outcomes (more than half of them only
"second" or "never told"), no weights make the shares even; the scaling then ends
where the outcomes that are easy to realise are asked as rarely as the profiles allow
(the held-out landlord's user, 0.361 "second" in expectation over 300 profiles,
came to 0.341; its hybrid parts are dealt evenly, :mod:`memsim.qa._strata`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

NOISE_Z = 3.0
"""Shares within this many standard errors of a quarter are left as they are."""
ROUNDS = 200
"""Scaling rounds at most (they stop once every share is within ``TOLERANCE``)."""
TOLERANCE = 1e-4
FLOOR = 1e-3
"""The least weight: every outcome a profile can realise keeps some chance."""


def chances(
    kept: np.ndarray, expected: np.ndarray, weights: np.ndarray, slack: float
) -> np.ndarray:
    """Each profile's outcome chances (rows), given its kept weights K (profiles x 4),
    the sum E[S] its K is expected to come to, and the outcome weights, as
    :func:`memsim.qa.comparative._kept` deals them: K'(o) = w(o) K(o), S' their sum,
    Z = max(S', slack E[S'])  with E[S'] = E[S] mean(w) (Z = S' and L = 0 where some
    outcome cannot be realised), L = 1 - S' / Z, chance L / 4 + K'(o) / Z."""
    scaled = kept * weights
    total = scaled.sum(axis=1)
    full = (scaled > 0).all(axis=1)
    norm = np.where(full, np.maximum(total, slack * expected * weights.mean()), total)
    safe = np.where(norm > 0, norm, 1.0)
    short = np.where(full, 1 - total / safe, 0.0)
    out = short[:, None] / kept.shape[1] + scaled / safe[:, None]
    return np.where((total > 0)[:, None], out, 0.0)


def fit_weights(
    kept: Sequence[Sequence[float]], expected: Sequence[float], slack: float
) -> tuple[float, ...]:
    """Outcome weights (the largest 1) under which the mean of :func:`chances` over the
    profiles is even; all 1 when it already is within ``NOISE_Z`` standard errors, or
    there are too few profiles to say."""
    k = np.asarray(kept, dtype=float).reshape(-1, 4)
    e = np.asarray(expected, dtype=float)
    live = k.sum(axis=1) > 0
    k, e = k[live], e[live]
    ones = np.ones(k.shape[1])
    if len(k) < 30:
        return tuple(float(x) for x in ones)
    base = chances(k, e, ones, slack)
    even = 1 / k.shape[1]
    se = base.std(axis=0, ddof=1) / np.sqrt(len(k))
    if (np.abs(base.mean(axis=0) - even) <= NOISE_Z * np.maximum(se, 1e-9)).all():
        return tuple(float(x) for x in ones)
    w = ones.copy()
    for _ in range(ROUNDS):
        mean = chances(k, e, w, slack).mean(axis=0)
        if (np.abs(mean - even) < TOLERANCE).all():
            break
        w = w * even / np.maximum(mean, 1e-9)
        w = np.maximum(w / w.max(), FLOOR)
    return tuple(float(x) for x in w)


__all__ = ["FLOOR", "NOISE_Z", "chances", "fit_weights"]
