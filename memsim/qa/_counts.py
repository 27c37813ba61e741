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
about the count as before.
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
CARDS = 60
"""Cards of the count deck: the dealt shares are rounded to sixtieths."""
SOLVE_STEPS = 300
"""Multiplicative updates of the dealt shares (they settle within a few dozen)."""

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


def dealt_shares(
    pool_keys: dict[str, NDArray[np.float64]],
    found: list[Candidate],
    weights: NDArray[np.float64],
    kept: list[NDArray[np.float64]],
    key_of: dict[str, Any],
    size: int,
) -> NDArray[np.float64]:
    """Shares to deal each count 0..size with, so that over the pool's groups the count
    asked comes out uniform once a group that cannot give the dealt count is asked one
    it can (uniformly among them)."""
    columns = [
        COMPARISONS[op](pool_keys[attr], key_of[attr](t)).sum(axis=1) for attr, op, t, _ in found
    ]
    counts = np.stack(columns, axis=1)  # pool group x candidate
    strength = selection(weights, kept, counts)
    able = np.zeros((counts.shape[0], size + 1), dtype=bool)
    for c in range(size + 1):
        able[:, c] = ((counts == c) & (strength > 0)).any(axis=1)
    able = able[able.any(axis=1)]
    if not len(able):
        return np.full(size + 1, 1.0 / (size + 1))
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
    return shares  # type: ignore[no-any-return]


def deal(shares: NDArray[np.float64], rng: np.random.Generator) -> int:
    """A count dealt from a deck of CARDS cards laid out by ``shares``."""
    card = balanced(rng, CARDS, DECK)
    edges = np.cumsum(shares) * CARDS
    at = int(np.searchsorted(edges, card + 0.5))
    return min(at, len(shares) - 1)


__all__ = ["CARDS", "DECK", "Candidate", "deal", "dealt_shares", "selection"]
