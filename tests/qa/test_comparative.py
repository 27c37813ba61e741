"""Comparisons are not asked in their predictable direction more often than in the
reverse one: which of the two named entities is higher is a coin flip given the names."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from memsim.qa import make_context
from memsim.qa.comparative import _balanced, order_share
from memsim.sampling import ProfileSampler
from memsim.schema import load_schema

ROOT = Path(__file__).parents[2]


def test_the_predictable_direction_is_kept_only_as_often_as_the_reverse() -> None:
    ctx = make_context(load_schema(ROOT / "schemas" / "daily_life.en.yaml"), 0)
    profiles = ProfileSampler(ctx.net).profiles(11, 0, 400)
    profile = next(
        p
        for p in profiles
        if {
            p.entity("relative[0]").facts["relation"].value,
            p.entity("relative[1]").facts["relation"].value,
        }
        == {"grandmother", "younger sister"}
    )
    old, young = sorted(
        (profile.entity("relative[0]"), profile.entity("relative[1]")),
        key=lambda e: e.facts["relation"].value != "grandmother",
    )
    share = order_share(ctx, old, young, "age")
    assert share is not None and share[0] > 0.99  # a grandmother is older: always
    rng = np.random.default_rng(0)
    # the pair is never asked about age, in either direction (the reverse never happens)
    assert not any(_balanced(ctx, old, young, "age", wanted, rng) for wanted in ("first", "second"))
    # a pair that can go either way is kept in proportion to how unlikely the outcome is
    mother = next(
        p.entity("relative[0]")
        for p in ProfileSampler(ctx.net).profiles(12, 0, 400)
        if p.entity("relative[0]").facts["relation"].value == "mother"
        and p.entity("colleague[0]").facts["relation"].value == "boss"
    )
    boss = next(
        p.entity("colleague[0]")
        for p in ProfileSampler(ctx.net).profiles(12, 0, 400)
        if p.entity("colleague[0]").facts["relation"].value == "boss"
    )
    share = order_share(ctx, mother, boss, "height")
    assert share is not None and min(share) > 0.1
    for wanted, p in (("first", share[0]), ("second", share[1])):
        kept = sum(_balanced(ctx, mother, boss, "height", wanted, rng) for _ in range(4000)) / 4000
        assert abs(kept - min(share) / p) < 0.03, (wanted, kept, share)
