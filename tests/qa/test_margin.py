"""Values that almost never tie are compared with a stated margin, so "the same" can be
the answer as often as the other outcomes; the audit re-derives the outcome with it."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from memsim.audit._sample import _compare_value
from memsim.qa import make_context
from memsim.qa._margin import STEPS, TIE_SHARE, comparison_margin
from memsim.qa.comparative import _balanced, comparative, compare, margin, order_share
from memsim.sampling import ProfileSampler
from memsim.schema import load_schema, value_distance, within_margin

ROOT = Path(__file__).parents[2]
SHOPPING = ROOT / "tests" / "data" / "shopping.en.yaml"


@pytest.mark.parametrize(
    ("kind", "x", "y", "gap"),
    [
        ("integer", 120, 75, 45.0),
        ("month_day", "02-28", "03-01", 2.0),  # through 02-29: any month-day has a day
        ("date", "2025-06-01", "2025-05-25", 7.0),
        ("datetime", "2025-06-01T18:00", "2025-06-01T06:00", 0.5),
    ],
)
def test_distance_is_in_the_unit_or_in_days(kind: str, x: object, y: object, gap: float) -> None:
    assert value_distance(kind, x, y) == gap == value_distance(kind, y, x)
    assert within_margin(kind, x, y, gap) and not within_margin(kind, x, y, gap / 2)


def test_a_margin_is_stated_only_where_exact_ties_are_rare() -> None:
    ctx = make_context(load_schema(SHOPPING), 0)
    profile = next(iter(ProfileSampler(ctx.net).profiles(0, 0, 1)))
    a, b = profile.entity("recipient[0]"), profile.entity("recipient[1]")
    step = margin(ctx, a, b, "gift_budget")  # 20-200 dollars, uniform: ties ~0.6%
    assert step in STEPS["integer"]
    exact = order_share(ctx, a, b, "gift_budget")
    assert exact is not None and exact[2] < TIE_SHARE  # budgets almost never tie
    share = order_share(ctx, a, b, "gift_budget", step)
    assert share is not None and min(share) > 0.25  # each outcome has about a third
    # the step is the best of the ladder: no other gives a larger least share
    pairs = ctx.pool.joint([(a.kind, (), "gift_budget"), (b.kind, (), "gift_budget")])
    assert pairs is not None

    gaps = [int(str(x)) - int(str(y)) for x, y in pairs]

    def least(s: int) -> float:
        same = sum(abs(g) <= s for g in gaps) / len(gaps)
        up = sum(g > s for g in gaps) / len(gaps)
        return min(same, up, 1 - same - up)

    assert all(least(step) >= least(s) for s in STEPS["integer"])
    # categorical values compare exactly, margin or not
    daily = make_context(load_schema(ROOT / "schemas" / "daily_life.en.yaml"), 0)
    p = next(iter(ProfileSampler(daily.net).profiles(0, 0, 1)))
    r0, r1 = p.entity("relative[0]"), p.entity("relative[1]")
    assert margin(daily, r0, r1, "education") == 0


def test_the_same_is_asked_about_numbers_that_never_tie_and_rederived() -> None:
    """Shopping's gift budgets, order totals and delivery times never tie in a profile:
    with the margin, "the same" is an answer about as often as the others, and the
    audit's derivation gives the outcome the question was drawn for."""
    ctx = make_context(load_schema(SHOPPING), 0)
    rng = np.random.default_rng(1)
    outcomes: list[str] = []
    for profile in ProfileSampler(ctx.net).profiles(7, 0, 240):
        draft = comparative(ctx, profile, "events", rng)
        if draft is None:
            continue
        params = draft.params
        assert params["margin"] > 0
        assert str(params["margin"]) in draft.question  # the question states it
        a, b = profile.entity(params["first"]), profile.entity(params["second"])
        if params["outcome"] != "unknown":
            step = int(params["margin"])
            assert compare(ctx, a, b, params["attribute"], step) == params["outcome"]
            assert _rederived(ctx, profile, params) == params["outcome"]
        outcomes.append(params["outcome"])
    assert len(outcomes) >= 150
    shares = {o: outcomes.count(o) / len(outcomes) for o in ("first", "second", "same", "unknown")}
    assert all(0.15 < s < 0.35 for s in shares.values()), shares


def _rederived(ctx: object, profile: object, params: dict[str, object]) -> str:
    """The audit sample's shortcut derivation of a comparison (margin from params)."""

    class _Keys:
        def key(self, entity: object, fact: object, value: object) -> object:
            kind = fact.type  # type: ignore[attr-defined]
            return int(value) if kind == "integer" else str(value)  # type: ignore[call-overload]

    return str(_compare_value(_Keys(), profile, params))  # type: ignore[arg-type]


def test_a_profile_with_a_common_enough_exact_comparison_states_no_margin() -> None:
    """Daily life's relatives tie on education often: their comparisons stay exact (and
    the same draws as before margins), heights and birthdays are not asked beside them."""
    ctx = make_context(load_schema(ROOT / "schemas" / "daily_life.en.yaml"), 0)
    rng = np.random.default_rng(2)
    stated = exact = 0
    for profile in ProfileSampler(ctx.net).profiles(9, 0, 120):
        draft = comparative(ctx, profile, "roles", rng)
        if draft is None:
            continue
        if "margin" in draft.params:
            stated += 1
        else:
            exact += 1
    assert exact > 4 * stated


def test_comparison_margin_is_memoised_per_kinds_and_attribute() -> None:
    ctx = make_context(load_schema(SHOPPING), 0)
    profile = next(iter(ProfileSampler(ctx.net).profiles(0, 0, 1)))
    a, b = profile.entity("order[0]"), profile.entity("order[1]")
    first = comparison_margin(ctx.pool, a, b, "total", "integer", int)
    assert ctx.pool.memo[("margin", "order", "order", "total")] == first > 0


def test_within_a_margin_every_pair_is_kept_as_often_whatever_its_outcome() -> None:
    """Kept with m / P(o) when its own outcome o is wanted and 4m - m / P(o) when "never
    told" is, every pair is kept 4m in all, so the draws that end on a profile's pairs
    give each outcome a quarter of the time on average ("unknown" kept with m over the
    pairs that differ lost to "the same": 0.30 against 0.21 in shopping)."""
    ctx = make_context(load_schema(SHOPPING), 0)
    rng = np.random.default_rng(4)
    seen = set()
    for profile in ProfileSampler(ctx.net).profiles(5, 0, 40):
        a, b = profile.entity("recipient[0]"), profile.entity("recipient[1]")
        step = margin(ctx, a, b, "gift_budget")
        share = order_share(ctx, a, b, "gift_budget", step)
        assert share is not None
        own = compare(ctx, a, b, "gift_budget", step)
        if own in seen or a.facts["gift_budget"].value == b.facts["gift_budget"].value:
            continue
        seen.add(own)
        kept = 0.0
        for wanted in (own, "unknown"):
            hits = sum(
                _balanced(ctx, a, b, "gift_budget", wanted, rng, 0.0, step) for _ in range(4000)
            )
            kept += hits / 4000
        assert abs(kept - 4 * min(share)) < 0.05, (own, kept, share)
    assert seen == {"first", "second", "same"}
