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
workers or shards. Only the first ``hold`` attempts at a trajectory are dealt to (one,
by default): a draft that is not kept after them is drawn again from the trajectory's
own stream (a card that cannot be realised would otherwise be dealt again and again).
A card held over several attempts survives draws redone for reasons that have nothing
to do with it (a message that would say a withheld value); choices that must not be
redrawn while it is held (which entity realises it, whether the flattening keeps it)
come from :func:`card_rng`, the same on every such attempt.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Literal

import numpy as np

from memsim._streams import stream

STRATA_STREAM = 16
"""Spawn-key head of the decks (see :mod:`memsim.sampling` for the other streams)."""


Parts = Literal["none", "first", "both"]
"""Which parts of a hybrid question a draw is dealt in: ``none`` (a part's scenario is
drawn per attempt, so a scenario's own decks mean nothing there), ``first`` (the
second part draws from the trajectory's stream: dealt the first part's card, both
parts would give the same count) or ``both`` (the second part's card is the first's
shifted by a number dealt once per deck of the first part's, :func:`balanced`: each
part's cards are even in every deck, and every pair of cards comes up)."""


@dataclass(frozen=True)
class _Stratum:
    seed: int
    tid: int
    attempt: int
    part: int = 0
    """0, or which part (1, 2) of a hybrid question is being drawn."""


_CURRENT: ContextVar[_Stratum | None] = ContextVar("memsim_stratum", default=None)
OWN = 2**31
"""Third spawn-key entry of :func:`card_rng`'s streams (above any deck number)."""
SECOND = 2**30
"""Added to a deck's salt for the shifts of the second part of a hybrid question (``both``)."""


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
    """Draw from the trajectory's own stream inside."""
    token = _CURRENT.set(None)
    try:
        yield
    finally:
        _CURRENT.reset(token)


@contextmanager
def hybrid_part(part: int) -> Iterator[None]:
    """Draw part ``part`` (1 or 2) of a hybrid question inside (see :data:`Parts`)."""
    now = _CURRENT.get()
    token = _CURRENT.set(None if now is None else replace(now, part=part))
    try:
        yield
    finally:
        _CURRENT.reset(token)


def dealing(hold: int = 1, parts: Parts = "first") -> bool:
    """Whether a draw now is dealt from a deck: during generation, on one of the first
    ``hold`` attempts at the trajectory, in the hybrid parts ``parts`` says."""
    now = _CURRENT.get()
    if now is None or now.attempt >= hold:
        return False
    return now.part in _ALLOWED[parts]


_ALLOWED: dict[str, tuple[int, ...]] = {"none": (0,), "first": (0, 1), "both": (0, 1, 2)}
"""The hybrid parts each :data:`Parts` deals in (0: a question of one part)."""


def balanced(
    rng: np.random.Generator,
    n: int,
    salt: int,
    every: int = 1,
    hold: int = 1,
    parts: Parts = "first",
) -> int:
    """One of ``0..n-1``: the card of this trajectory in a shuffled deck of ``n`` (the
    trajectories ``every`` apart share a deck: a draw made only when another balanced
    draw of ``every`` cards came out one way is dealt over those trajectories); from
    ``rng`` when not :func:`dealing` (outside generation, after ``hold`` attempts, or in
    a hybrid part ``parts`` leaves out). In a second part (``both``) the card is the
    first part's plus a shift (mod ``n``) dealt from a deck of its own salt, one shift
    per deck of the first part's: within a deck of the first part's, the second part's
    cards are then a permutation too, and over ``n`` such decks every pair of cards
    comes up once. (A deck of the second part's own that turned once per ``n``
    trajectories held each card for ``n`` of them: 20 hybrids saw 5 cards, and a
    held-out landlord's comparisons read "second" in 8 of 20 second parts, the hybrid
    0.475 of 40.)"""
    now = _CURRENT.get()
    if now is None or not dealing(hold, parts):
        return int(rng.integers(n))
    place = now.tid // every
    card = deck(now.seed, salt, place // n, n)[place % n]
    if now.part == 2:
        number = place // n  # the first part's deck
        card = (card + deck(now.seed, salt + SECOND, number // n, n)[number % n]) % n
    return card


def dealt_run(
    rng: np.random.Generator, layout: Sequence[int], salt: int, hold: int = 1
) -> tuple[int, int | None]:
    """(outcome, occurrence): the outcome on this trajectory's card in a shuffled deck
    of ``len(layout)`` cards, card ``i`` showing ``layout[i]`` (an outcome on several
    cards comes up that much more often), and how many cards showing that outcome the
    trajectories before this one were dealt, over every deck; (a card drawn from
    ``rng``, None) when not :func:`dealing`. The occurrence numbers an outcome's own
    run of trajectories, so a draw made only when that outcome comes up is dealt over
    them by :func:`balanced_at`. Dealt in questions of one part only (``parts``
    ``none``)."""
    now = _CURRENT.get()
    if now is None or not dealing(hold, "none"):
        return layout[int(rng.integers(len(layout)))], None
    number, at = divmod(now.tid, len(layout))
    cards = deck(now.seed, salt, number, len(layout))
    outcome = layout[cards[at]]
    before = sum(layout[c] == outcome for c in cards[:at])
    return outcome, number * layout.count(outcome) + before


def balanced_at(rng: np.random.Generator, n: int, salt: int, place: int | None) -> int:
    """One of ``0..n-1``: card ``place`` of the run of shuffled decks of ``n`` for
    ``salt`` (``place`` an occurrence :func:`dealt_run` gave: each outcome in equal
    shares, within one per deck, over the trajectories that outcome came up on), or
    from ``rng`` when ``place`` is None or not :func:`dealing`."""
    now = _CURRENT.get()
    if place is None or now is None:
        return int(rng.integers(n))
    return deck(now.seed, salt, place // n, n)[place % n]


@lru_cache(maxsize=8192)
def deck(seed: int, salt: int, number: int, n: int) -> tuple[int, ...]:
    """Deck ``number`` of ``n`` cards for ``salt``: a permutation drawn from its own
    stream, so a pure function of its arguments, kept once made (the ``n`` trajectories
    a deck deals to are consecutive, so a worker making them in turn shuffles it once,
    not once per trajectory and draw)."""
    return tuple(int(i) for i in stream(seed, (STRATA_STREAM, salt, number)).permutation(n))


def card_rng(
    rng: np.random.Generator, salt: int, hold: int = 1, parts: Parts = "first"
) -> np.random.Generator:
    """The stream of choices that go with a held card: the same on every attempt at the
    trajectory while :func:`dealing` (seeded by the seed, the trajectory, the part and
    ``salt``), else ``rng`` itself."""
    now = _CURRENT.get()
    if now is None or not dealing(hold, parts):
        return rng
    return stream(now.seed, (STRATA_STREAM, salt, OWN + now.part, now.tid))


__all__ = [
    "Parts",
    "balanced",
    "balanced_at",
    "card_rng",
    "dealing",
    "dealt_run",
    "deck",
    "hybrid_part",
    "stratum",
    "unstratified",
]
