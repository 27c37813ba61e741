"""Dealt one-fact questions (memsim.qa._deal): the attribute asked, a number's rank and a
categorical answer's value come from decks over consecutive trajectories, so their
shares are even in a few dozen questions, where independent draws stray."""

from __future__ import annotations

from collections import Counter
from functools import cache
from typing import Any

import numpy as np
import pytest

from memsim.profile import Profile
from memsim.qa import QAContext
from memsim.qa._deal import HOLD, deal_fact, dealt_types, fact_types
from memsim.qa._strata import stratum
from memsim.qa._types import Draft
from tests.qa._drafting import first_drafts, held_out

N = 240


@cache
def shopping() -> tuple[QAContext, list[Profile]]:
    return held_out("shopping.en.yaml", 0, N)


def _drafts(kind: str, scenario: str, dealt: bool) -> list[Draft]:
    """One kept draft per trajectory, drawn as generation draws them (dealt) or with no
    deck at all."""
    ctx, profiles = shopping()
    return first_drafts(ctx, profiles, kind, scenario, dealt=dealt, seed=0, attempts=100)


def _rank(draft: Draft) -> int:
    numbers = sorted(int(o.split()[0]) for o in draft.options)
    return numbers.index(int(draft.answer.split()[0]))


def _spread(counts: Counter[Any]) -> float:
    """The chi-square of the counts against equal shares."""
    values = np.array(list(counts.values()), dtype=float)
    return float(((values - values.mean()) ** 2 / values.mean()).sum())


@pytest.mark.parametrize("kind", ["simple", "conditional"])
def test_ranks_and_values_come_out_even(kind: str) -> None:
    # shopping's orders: three per profile, a number (the total) and categoricals
    # (carrier, category) of 4-6 values; "DHL" was the answer to 9 of 18 carrier
    # questions in one scenario of make dataset
    dealt, drawn = _drafts(kind, "events", True), _drafts(kind, "events", False)

    def shares(drafts: list[Draft]) -> tuple[Counter[Any], Counter[Any]]:
        ranks: Counter[Any] = Counter()
        values: Counter[Any] = Counter()
        for d in drafts:
            attr = d.params["attribute"]
            if attr == "total":
                ranks[_rank(d)] += 1
            elif attr in ("carrier", "category"):
                values[(attr, d.answer)] += 1
        return ranks, values

    (ranks, values), (ranks0, values0) = shares(dealt), shares(drawn)
    assert set(ranks) == {0, 1, 2, 3}
    # each rank once per deck of four totals: only the totals drawn without a card (a
    # card no entity realised, a condition no value of which names one order) stray
    assert max(ranks.values()) - min(ranks.values()) <= 4, ranks
    assert _spread(ranks) < _spread(ranks0), (ranks, ranks0)
    assert _spread(values) < _spread(values0), (values, values0)


def test_each_dealt_attribute_is_asked_about_as_often() -> None:
    ctx, _ = shopping()
    types = dealt_types(ctx, "events", "simple")
    counts = Counter(d.params["attribute"] for d in _drafts("simple", "events", True))
    share = N / len(types)
    assert all(abs(counts[a] - share) < 0.35 * share for _, a in types), counts


def test_types_no_profile_realises_are_not_dealt() -> None:
    ctx, _ = shopping()
    every = {a for _, a in fact_types(ctx, "events", "simple")}
    dealt = {a for _, a in dealt_types(ctx, "events", "simple")}
    # an order number is a text no pool holds (never kept by the flattening)
    assert "order_number" in every - dealt
    assert {"carrier", "category", "total"} <= dealt


def test_a_card_is_held_over_attempts_then_drawn() -> None:
    ctx, profiles = shopping()
    group = ctx.group(profiles[3], "events")

    def fact(attempt: int, seed: int) -> tuple[str, str, int | None] | None:
        with stratum(0, 3, attempt):
            d = deal_fact(ctx, group, "events", "simple", np.random.default_rng(seed))
        return None if d is None else (d.entity.id, d.attr, d.rank)

    held = {fact(attempt, seed) for attempt in range(HOLD) for seed in range(3)}
    assert len(held) == 1 and None not in held  # the same fact, whatever the stream
    after = {fact(HOLD, seed) for seed in range(20)}
    assert len(after) > 1  # then drawn from the trajectory's stream
