"""Count predicates are drawn before the profile is looked at, and counts are flattened
against the pool's distribution under the predicate."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from memsim.qa import QAContext, make_context
from memsim.qa.aggregative import count_options, eligible
from memsim.sampling import ProfileSampler
from memsim.schema import load_schema

ROOT = Path(__file__).parents[2]


@pytest.fixture(scope="module")
def ctx() -> QAContext:
    return make_context(load_schema(ROOT / "schemas" / "daily_life.en.yaml"), 0)


def test_count_predicates_leave_at_least_four_counts(ctx: QAContext) -> None:
    profile = next(iter(ProfileSampler(ctx.net).profiles(4, 0, 1)))
    group = ctx.group(profile, "roles")
    found = eligible(ctx, group, "age")
    assert found
    rng = np.random.default_rng(3)
    for _, _, share in found:
        possible = set(np.flatnonzero(share > 0).tolist())
        assert len(possible) >= 4
        for target in possible:
            options = count_options(int(target), share, rng)
            assert options is None or set(options) <= possible
