"""Numeric answers flattened against what the question reveals.

A digit sum clusters in the middle, an age gap between a father and a son does not: a
reader who picks the option nearest the mode beats chance unless answers are kept in
inverse proportion to their probability. :func:`flat_options` does that over the
answer's support (values at least ``TRIM`` x as likely as the most likely one) and
spreads the options inside it, so the kept answers are uniform over it.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Callable
from functools import lru_cache

import numpy as np

from memsim.profile import Entity
from memsim.qa._choices import numeric_options, rank_room
from memsim.qa._context import QAContext
from memsim.qa._pool import TRIM


def flat_options(
    answer: int, share: dict[int, float] | None, rng: np.random.Generator
) -> list[int] | None:
    """Keep a numeric answer with probability p_min / p(answer) over its support (the
    values at least TRIM x as likely as the most likely one) and spread the options
    inside that support: answers are uniform over it, so no option's prior probability
    tells the answer (sums of digits cluster in the middle; an age gap between a father
    and a son does not)."""
    if not share:
        return None
    low, high, weight, least = _flattened(share)
    if answer not in weight or len(weight) < 4:
        return None
    if rng.random() >= least / weight[answer]:
        return None
    return numeric_options(answer, rng, low, high)


def _flattened(share: dict[int, float]) -> tuple[int, int, dict[int, float], float]:
    """The support of ``share`` (its values at least TRIM x as likely as the most likely
    one) as (lowest, highest, weight of each value, least weight), each value weighted
    by the ranks that fit too (answers stay uniform once infeasible ranks are redrawn).

    Remembered per share (by identity, the share kept alive beside it): every share
    comes from a memo (the pool's, ``digit_sum_share``'s), and a question kind asks the
    same few of them thousands of times."""
    hit = _FLATTENED.get(id(share))
    if hit is not None and hit[0] is share:
        return hit[1]
    top = max(share.values())
    support = {v: p for v, p in share.items() if p >= TRIM * top}
    low, high = min(support), max(support)
    weight = {v: p * rank_room(v, low, high) for v, p in support.items()}
    found = (low, high, weight, min(weight.values()))
    if len(_FLATTENED) >= 4096:
        _FLATTENED.clear()
    _FLATTENED[id(share)] = (share, found)
    return found


_FLATTENED: dict[int, tuple[dict[int, float], tuple[int, int, dict[int, float], float]]] = {}


@lru_cache(maxsize=16)
def digit_sum_share(k: int) -> dict[int, float]:
    """P(sum of k uniform random digits) (identifiers end in random digits)."""
    pmf = np.ones(1)
    for _ in range(k):
        pmf = np.convolve(pmf, np.full(10, 0.1))
    return {i: float(p) for i, p in enumerate(pmf)}


def pool_share(
    ctx: QAContext, members: list[tuple[Entity, str]], gap: Callable[[object, object], int]
) -> dict[int, float] | None:
    """P(gap) between two facts of entities named like these ones, in the pool."""
    spec = []
    for e, attr in members:
        given = ctx.revealed(e, ctx.naming(e), attr)
        if given is None:
            return None
        spec.append((e.kind, given, attr))

    def compute() -> dict[int, float] | None:
        pairs = ctx.pool.joint(spec)
        if pairs is None:
            return None
        counts = Counter(gap(x, y) for x, y in pairs)
        if unseen_mass(counts) > UNSEEN:
            return smoothed(counts)
        return {v: c / len(pairs) for v, c in counts.items()}

    return ctx.pool.remember(("gap", gap.__name__, tuple(spec)), compute)


UNSEEN = 0.1
"""Above this estimated share of gaps the pool never drew, a gap's probability is read
from a histogram (:func:`smoothed`), not from its own count."""
PER_BIN = 20
"""Pool gaps per bin of the histogram, on average."""


def unseen_mass(counts: Counter[int]) -> float:
    """Good-Turing's estimate of the probability of a gap the pool never drew: the
    share of gaps drawn once. Near 0 for an age gap over thousands of pairs; near 1 for
    the gap of two rents of 800-12,000 over a thousand, where most profiles' own gap is
    unseen (its exact share is 0, so :func:`flat_options` rejected every draw)."""
    total = sum(counts.values())
    return sum(1 for c in counts.values() if c == 1) / total if total else 0.0


def smoothed(counts: Counter[int]) -> dict[int, float]:
    """P(gap) for every integer from the least gap to the greatest, each the mass of its
    bin (of about PER_BIN pool gaps) spread evenly over the bin's integers."""
    total = sum(counts.values())
    low, high = min(counts), max(counts)
    width = max(1, -(-(high - low + 1) * PER_BIN // total))
    mass = Counter((v - low) // width for v in counts.elements())
    share = {}
    for v in range(low, high + 1):
        b = (v - low) // width
        size = min(width, high + 1 - (low + b * width))
        share[v] = mass[b] / total / size
    return share


def age_gap(x: object, y: object) -> int:
    return abs(int(str(x)) - int(str(y)))


def day_gap(x: object, y: object) -> int:
    days = [dt.date.fromisoformat(str(v)[:10]) for v in (x, y)]
    return abs((days[0] - days[1]).days)


__all__ = [
    "age_gap",
    "day_gap",
    "digit_sum_share",
    "flat_options",
    "pool_share",
    "smoothed",
    "unseen_mass",
]
