"""Balanced draws: an outcome dealt from a shuffled deck, not drawn independently.

A QA kind that draws its answer's outcome uniformly (the form of a temporal question,
the count it asks for) is fair in expectation, but at a few dozen questions per kind
and scenario an independent draw strays: 21 of 47 counting questions answered "2" is a
3-sigma excess that the audit's ``outcome_shares`` rightly reports. Dealt from decks,
each outcome comes out in equal shares (within one per deck) in every run of
consecutive trajectories, and the trajectories of one kind and scenario are
consecutive (``memsim.dataset.plan``).

The deck is a permutation drawn from its own stream, ``SeedSequence(seed,
spawn_key=(STRATA_STREAM, salt, deck))``, and a card is the trajectory's place in it,
so the output stays a function of (seed, trajectory id), whatever the number of
workers or shards. Only the first attempt at a trajectory is dealt to: a draft that
is not kept is drawn again from the trajectory's own stream (a card that cannot be
realised would otherwise be dealt again and again).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

import numpy as np

STRATA_STREAM = 16
"""Spawn-key head of the decks (see :mod:`memsim.sampling` for the other streams)."""


@dataclass(frozen=True)
class _Stratum:
    seed: int
    tid: int
    attempt: int


_CURRENT: ContextVar[_Stratum | None] = ContextVar("memsim_stratum", default=None)


@contextmanager
def stratum(seed: int, tid: int, attempt: int) -> Iterator[None]:
    """Deal balanced draws to attempt ``attempt`` at trajectory ``tid`` (generation
    sets it around each draft)."""
    token = _CURRENT.set(_Stratum(seed, tid, attempt))
    try:
        yield
    finally:
        _CURRENT.reset(token)


@contextmanager
def unstratified() -> Iterator[None]:
    """Draw from the trajectory's own stream inside (the second part of a hybrid
    question: dealt the first part's card, both parts would give the same count)."""
    token = _CURRENT.set(None)
    try:
        yield
    finally:
        _CURRENT.reset(token)


def balanced(rng: np.random.Generator, n: int, salt: int, every: int = 1) -> int:
    """One of ``0..n-1``: the card of this trajectory in a shuffled deck of ``n`` (the
    trajectories ``every`` apart share a deck: a draw made only when another balanced
    draw of ``every`` cards came out one way is dealt over those trajectories); from
    ``rng`` outside generation or on a second attempt."""
    now = _CURRENT.get()
    if now is None or now.attempt:
        return int(rng.integers(n))
    place = now.tid // every
    deck = np.random.default_rng(
        np.random.SeedSequence(now.seed, spawn_key=(STRATA_STREAM, salt, place // n))
    ).permutation(n)
    return int(deck[place % n])


__all__ = ["balanced", "stratum", "unstratified"]
