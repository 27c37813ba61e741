"""Which count an aggregative question asks for: dealt, then realised by a predicate.

Drawing a predicate and keeping it with probability min / P(count | predicate) makes
the count uniform given the predicate *over the pool*, but a trajectory's profile is
fixed and is asked exactly one question: a profile whose three values are spread out
gives 1 or 2 under every threshold the pool allows, and is asked about 1 or 2 however
rarely each draw is kept (shopping: '1' was the answer 0.38 of the counting
questions). Here the count is dealt first, from a deck whose shares are solved over
the pool so that the counts come out uniform *after* the profiles that cannot give the
dealt count fall back to one they can; the predicate is then drawn among those that
give the dealt count for this profile, each in proportion to its draw weight over
P(count | predicate), as the kept draws were, so the predicate still says as little
about the count as before. That alone still leaned the draw towards predicates under
which the count asked is the likeliest one (each group's draw is normalised over the
predicates that give its count, and that number varies with its values), which the
option prior reads; the draw strengths are therefore refitted over the pool
(:func:`fit_strengths`) so that the count asked is the predicate's likeliest, second,
third or fourth count equally often, and whether it is the likeliest is dealt
(:func:`deal_top`, at the share :func:`top_share` solves for), so that comes out a
quarter of the time in every run of questions, not only in expectation.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from memsim.qa._choices import rank_room
from memsim.qa._pool import COMPARISONS
from memsim.qa._strata import balanced

DECK = 3
"""Salt of the count deck (memsim.qa._strata; temporal uses 1 and 2)."""
TOP_DECK = 11
"""Salt of the deck of "the likeliest" (:func:`deal_top`)."""
TOP_CARDS = 20
"""Cards of the deck of "the likeliest": its share is rounded to twentieths."""
TOP = 0.25
"""How often the count asked is its predicate's likeliest: one option in four."""
CARDS = 60
"""Cards of the count deck: the dealt shares are rounded to sixtieths."""
SOLVE_STEPS = 300
"""Multiplicative updates of the dealt shares (they settle within a few dozen)."""
FIT_STEPS = 200
"""Rescalings of the strength table (:func:`fit_strengths`; a handful of factors)."""
FIT_CHUNK = 1000
"""Pool groups per block when the fit sums its classes (bounds its memory)."""
FIT_BOUND = 10.0
"""No class is drawn more than this many times more or less often than at the start."""

Candidate = tuple[str, str, object, NDArray[np.float64]]
"""(attribute, operator, threshold, P(count | predicate) with impossible counts 0)."""


def selection(
    weights: NDArray[np.float64], kept: list[NDArray[np.float64]], counts: NDArray[np.int_]
) -> NDArray[np.float64]:
    """How strongly each candidate is drawn when its count is the one wanted: its draw
    weight times min / kept(count) (0 where the count is impossible for it); ``counts``
    holds each candidate's count, one column per candidate (any leading shape)."""
    out = np.zeros(counts.shape)
    for j, weight in enumerate(kept):
        least = weight[weight > 0].min()
        at = weight[counts[..., j]]
        out[..., j] = np.where(at > 0, weights[j] * least / np.where(at > 0, at, 1.0), 0.0)
    return out


def dealt_plan(
    pool_keys: dict[str, NDArray[np.float64]],
    found: list[Candidate],
    weights: NDArray[np.float64],
    kept: list[NDArray[np.float64]],
    key_of: dict[str, Any],
    size: int,
) -> tuple[NDArray[np.float64], NDArray[np.float64], float]:
    """Shares to deal each count 0..size with, so that over the pool's groups the count
    asked comes out uniform once a group that cannot give the dealt count is asked one
    it can (uniformly among them); the strength table (candidate x count) to draw the
    predicate with once the count is known (:func:`fit_strengths`); and the share of
    trajectories to deal "the likeliest" to (:func:`top_share`)."""
    groups = len(next(iter(pool_keys.values()))) if pool_keys else 0
    # candidate x pool group, in bytes (a count is at most the group's size): a workshop's
    # prices give thousands of candidates over the pool's 6,000 groups
    by_candidate = np.empty((len(found), groups), dtype=np.int8 if size < 128 else np.int_)
    for j, (attr, op, t, _) in enumerate(found):
        by_candidate[j] = COMPARISONS[op](pool_keys[attr], key_of[attr](t)).sum(axis=1)
    table = strength_table(weights, kept, size)
    able = np.zeros((groups, size + 1), dtype=bool)
    for c in range(size + 1):
        able[:, c] = (by_candidate[table[:, c] > 0] == c).any(axis=0)
    held = able.any(axis=1)
    able, counts = able[held], by_candidate[:, held].T  # pool group x candidate
    if not len(able):
        return np.full(size + 1, 1.0 / (size + 1)), table, TOP
    fallback = able / able.sum(axis=1, keepdims=True)
    # kernel[c, c']: P(asked c' | dealt c), over the pool's groups
    kernel = np.stack(
        [(able[:, c, None] * np.eye(size + 1)[c] + ~able[:, c, None] * fallback).mean(axis=0)
         for c in range(size + 1)]
    )  # fmt: skip
    # the goal is what the kept draws aimed at: each possible count alike when there are
    # four (the options are those four), else in proportion to the ranks its spread
    # options can take (a count at a bound has only the extreme rank)
    possible = able.any(axis=0)
    room = [rank_room(c, 0, size) if possible.sum() > 4 else 1.0 for c in range(size + 1)]
    goal = possible * np.array(room)
    goal = goal / goal.sum()
    shares = goal.copy()
    for _ in range(SOLVE_STEPS):
        asked = shares @ kernel
        shares = shares * np.where(asked > 0, goal / np.where(asked > 0, asked, 1.0), 0.0)
        shares = shares / shares.sum()
    # per group, P(asked c): the dealt count when it can give it, else its fallback
    per_group = able * shares[None, :] + fallback * (~able * shares[None, :]).sum(
        axis=1, keepdims=True
    )
    families = [attr for attr, *_ in found]
    ranked = [share for *_, share in found]
    fitted = fit_strengths(counts, table, per_group, ranked, families)
    return shares, fitted, top_share(counts, fitted, per_group, share_ranks(fitted, ranked))


def top_share(
    counts: NDArray[np.int_],
    table: NDArray[np.float64],
    asked: NDArray[np.float64],
    rank: NDArray[np.int_],
) -> float:
    """The share u of trajectories to deal "the likeliest" to (the count asked is its
    predicate's likeliest by pool share, the option prior's pick), the others "not the
    likeliest", so that over the pool's groups the count asked is the likeliest TOP of
    the time once a group that cannot realise its card realises the other one: a group
    asked count c is the likeliest with chance u a + (1 - u)(1 - b), a (b) whether some
    predicate gives it c at rank 0 (above 0), linear in u. ``counts``: pool group x
    candidate; ``asked``: pool group x count; ``rank``: :func:`share_ranks`."""
    size = table.shape[1]
    a = np.zeros(asked.shape)
    b = np.zeros(asked.shape)
    for c in range(size):
        gives = (counts == c) & (table[:, c] > 0)[None, :]
        a[:, c] = (gives & (rank[:, c] == 0)[None, :]).any(axis=1)
        b[:, c] = (gives & (rank[:, c] > 0)[None, :]).any(axis=1)
    total = asked.sum()
    high, low = (asked * a).sum() / total, (asked * (1 - b)).sum() / total
    if high - low <= 1e-9:
        return TOP
    return float(np.clip((TOP - low) / (high - low), 0.0, 1.0))


def strength_table(
    weights: NDArray[np.float64], kept: list[NDArray[np.float64]], size: int
) -> NDArray[np.float64]:
    """:func:`selection` as a table, candidate x count (the fit's starting point)."""
    counts = np.tile(np.arange(size + 1)[:, None], (1, len(kept)))
    return selection(weights, kept, counts).T


def fit_strengths(
    counts: NDArray[np.int_],
    table: NDArray[np.float64],
    asked: NDArray[np.float64],
    shares: list[NDArray[np.float64]],
    families: list[str],
) -> NDArray[np.float64]:
    """The strength table reweighted so that, over the pool's groups, the count asked is
    as often its predicate's likeliest count as its second, third or fourth (per family
    of predicates: one attribute's): the option prior, which picks the likeliest count
    under the predicate shown, then scores chance.

    Drawing by :func:`selection` alone gets this only when every group offers the same
    rivals for a count; a profile is asked once, so how many predicates give its count
    (the draw's normaliser) varies with its values and leaned the draw towards
    predicates whose likeliest count it is (tour's bandmates' ages: the prior read 0.36
    over 344 questions, chance 0.25). One factor per (family, rank) is fitted, not one
    per predicate: an attribute with thousands of thresholds has fewer pool groups than
    predicates to fit them on.

    ``counts``: pool group x candidate; ``table``: candidate x count, the strengths to
    start from; ``asked``: pool group x count, P(the group is asked that count);
    ``shares``: each candidate's P(count) (its ranks); ``families``: each candidate's."""
    names = sorted(set(families))
    family = np.array([names.index(f) for f in families])
    size = table.shape[1]
    rank = share_ranks(table, shares)
    ranks = max(int(rank.max()) + 1, 1)
    # base[g, c, k]: the starting strength of the candidates in class k (family, rank)
    # that give group g count c; the fit rescales classes, so their sums are enough
    cls = family[:, None] * ranks + np.maximum(rank, 0)
    base = np.zeros((counts.shape[0], size, len(names) * ranks))
    for c in range(size):
        onehot = np.zeros((len(family), len(names) * ranks))
        onehot[np.arange(len(family)), cls[:, c]] = table[:, c]
        for lo in range(0, counts.shape[0], FIT_CHUNK):
            hit = (counts[lo : lo + FIT_CHUNK] == c).astype(np.float64)
            base[lo : lo + FIT_CHUNK, c] = hit @ onehot
    factor = np.ones(len(names) * ranks)
    for _ in range(FIT_STEPS):
        weighted = base * factor
        norm = weighted.sum(axis=2)
        share = np.where(norm > 0, asked / np.where(norm > 0, norm, 1.0), 0.0)
        drawn = np.einsum("gc,gck->k", share, weighted).reshape(len(names), ranks)
        level = drawn.sum(axis=1, keepdims=True) / ranks
        step = np.where(drawn > 0, level / np.where(drawn > 0, drawn, 1.0), 1.0)
        factor = np.clip(factor * step.ravel(), FIT_BOUND**-1, FIT_BOUND)
    fitted: NDArray[np.float64] = table * factor[cls]
    return fitted


def share_ranks(table: NDArray[np.float64], shares: list[NDArray[np.float64]]) -> NDArray[np.int_]:
    """Candidate x count: where each count stands among the candidate's possible ones
    (``table`` > 0) by its P(count | predicate), 0 the likeliest (ties by count), -1
    where impossible: the option prior picks the count at 0."""
    rank = np.full(table.shape, -1)
    for j, share in enumerate(shares):
        live = np.flatnonzero(table[j] > 0)
        order = live[np.argsort(-share[live], kind="stable")]
        rank[j, order] = np.arange(len(order))
    return rank


def deal(shares: NDArray[np.float64], rng: np.random.Generator) -> int:
    """A count dealt from a deck of CARDS cards laid out by ``shares``."""
    card = balanced(rng, CARDS, DECK)
    edges = np.cumsum(shares) * CARDS
    at = int(np.searchsorted(edges, card + 0.5))
    return min(at, len(shares) - 1)


def deal_top(top: float, rng: np.random.Generator) -> bool:
    """Whether the count asked is to be its predicate's likeliest: dealt from a deck of
    ``TOP_CARDS`` over consecutive trajectories, ``top`` of them (rounded) "the
    likeliest" (drawn from ``rng`` where :func:`balanced` draws). Drawn per question
    from the fitted strengths alone, it was the likeliest a quarter of the time over
    the pool only, and less evenly (tour, seed 1: 0.28 over the pool's roles, and 17 of
    34 roles questions of one dataset, the option prior 0.40 over 100)."""
    return balanced(rng, TOP_CARDS, TOP_DECK) < round(top * TOP_CARDS)


__all__ = [
    "CARDS",
    "DECK",
    "TOP",
    "Candidate",
    "deal",
    "deal_top",
    "dealt_plan",
    "fit_strengths",
    "selection",
    "share_ranks",
    "strength_table",
    "top_share",
]
