"""Dealt knowledge updates (memsim.qa._deal_change): the changed attribute asked, a
categorical answer's value and a number's rank come from decks over consecutive
trajectories, so their shares are even in a few dozen questions, where independent
draws strayed (kitchen zh, seed 1: the shift "晚班" the answer to 17 of 33)."""

from __future__ import annotations

from collections import Counter
from functools import cache
from typing import Any

import numpy as np

from memsim.profile import Profile
from memsim.qa import QAContext
from memsim.qa._deal import HOLD
from memsim.qa._deal_change import CARDS, _layout, _types, deal_change
from memsim.qa._history import told_rates
from memsim.qa._strata import balanced_at, dealt_run, stratum
from memsim.qa._types import Draft
from tests.qa._drafting import first_drafts, held_out

N = 160


@cache
def kitchen() -> tuple[QAContext, list[Profile]]:
    return held_out("kitchen.zh.yaml", 1, N)


@cache
def _drafts(scenario: str, dealt: bool) -> list[Draft]:
    """One kept knowledge update per trajectory, drawn as generation draws them (dealt)
    or with no deck at all."""
    ctx, profiles = kitchen()
    return first_drafts(
        ctx, profiles, "knowledge_update", scenario, dealt=dealt, seed=1, attempts=100
    )


def _spread(counts: Counter[Any]) -> float:
    """The chi-square of the counts against equal shares."""
    values = np.array(list(counts.values()), dtype=float)
    return float(((values - values.mean()) ** 2 / values.mean()).sum())


def test_a_categorical_answer_comes_out_even() -> None:
    # the cooks' shift (4 values, each cook's history of two): drawn and flattened,
    # its answers strayed as far as a half on one value in 33 questions
    dealt = Counter(d.answer for d in _drafts("roles", True))
    drawn = Counter(d.answer for d in _drafts("roles", False))
    assert len(dealt) == 4
    # one card in eight or so finds no cook with the value and is drawn: a few stray
    assert max(dealt.values()) - min(dealt.values()) <= 8, dealt
    assert _spread(dealt) < _spread(drawn), (dealt, drawn)


def test_a_numbers_rank_comes_out_even() -> None:
    # the dishes' weekly sales: every dish history realises any rank
    def rank(d: Draft) -> int:
        numbers = sorted(int(o.rstrip("份")) for o in d.options)
        return numbers.index(int(d.answer.rstrip("份")))

    ranks = Counter(rank(d) for d in _drafts("items", True))
    assert set(ranks) == {0, 1, 2, 3}
    assert max(ranks.values()) - min(ranks.values()) <= 2, ranks


def test_the_type_deck_weighs_types_by_the_values_they_tell() -> None:
    ctx, _ = kitchen()
    # the chef's title always changes (at least once), the salary half the time (twice):
    # each has cards in proportion to one over the values it tells, so each is evidence
    # in about as many messages
    types = _types(ctx, "user")
    assert types == [("chef", "salary"), ("chef", "title")]
    told = told_rates(ctx)
    weights = np.array([1 / told[t] for t in types])
    cards = Counter(_layout(ctx, "user"))
    assert told[types[1]] > told[types[0]] and cards[0] > cards[1] >= 1
    for i, w in enumerate(weights / weights.sum()):
        assert abs(cards[i] / CARDS - w) <= 0.5 / CARDS
    asked = Counter(d.params["attribute"] for d in _drafts("user", True))
    assert asked["salary"] > 0 and asked["title"] > 0, asked


def test_each_outcomes_occurrences_are_numbered_in_turn() -> None:
    layout = (0, 0, 0, 1, 1, 2)
    seen: dict[int, list[int]] = {}
    for tid in range(6 * 20):
        with stratum(5, tid, 0):
            outcome, place = dealt_run(np.random.default_rng(tid), layout, 99)
        assert place is not None
        seen.setdefault(outcome, []).append(place)
    # every outcome as often as its cards, and its occurrences 0, 1, 2, ... in order
    assert {k: len(v) for k, v in seen.items()} == {0: 60, 1: 40, 2: 20}
    assert all(v == list(range(len(v))) for v in seen.values())
    # a draw dealt over one outcome's occurrences comes out even
    with stratum(5, 0, 0):
        drawn = Counter(balanced_at(np.random.default_rng(0), 4, 7, p) for p in seen[0])
    assert sorted(drawn.values()) == [15, 15, 15, 15]


def test_no_deck_outside_generation_nor_after_the_held_attempts() -> None:
    ctx, profiles = kitchen()
    group = ctx.group(profiles[2], "roles")
    assert deal_change(ctx, group, "roles", np.random.default_rng(0)) is None
    with stratum(1, 2, HOLD):
        assert deal_change(ctx, group, "roles", np.random.default_rng(0)) is None
    with stratum(1, 2, 0):
        outcome, place = dealt_run(np.random.default_rng(0), (0,), 3, hold=HOLD)
    assert place == 2 and outcome == 0
