"""What generation remembers about a profile lives on the profile: once a question is
made, nothing keeps the profile alive (memory stays flat however many questions), and
a context with another value pool never reads what one context remembered."""

from __future__ import annotations

import dataclasses
import gc
import weakref
from pathlib import Path

import pytest

from memsim.dataset import make_record
from memsim.qa import QAContext, make_context
from memsim.sampling import ProfileSampler
from memsim.schema import load_schema

ROOT = Path(__file__).parents[2]
KINDS = ("simple", "comparative", "noisy")


@pytest.fixture(scope="module")
def ctx() -> QAContext:
    return make_context(load_schema(ROOT / "schemas" / "daily_life.en.yaml"), 0, KINDS)


def test_a_profile_is_not_kept_once_its_question_is_made(ctx: QAContext) -> None:
    for tid, kind in enumerate(KINDS):
        profile = next(iter(ProfileSampler(ctx.net).profiles(0, tid, tid + 1)))
        record = make_record(ctx, profile, kind, "roles", tid, 0)
        assert record.turns and profile.memo  # made, and something was remembered on it
        gone = weakref.ref(profile)
        del profile
        gc.collect()
        assert gone() is None, kind


def test_a_context_with_another_pool_does_not_read_what_one_remembered(ctx: QAContext) -> None:
    profile = next(iter(ProfileSampler(ctx.net).profiles(0, 0, 1)))
    mother = profile.of_kind("relative")[0]
    said = ctx.who(mother)
    assert mother.memo[("who", None)] == (ctx.pool, said)
    # a context that shares the pool shares what is remembered (as the pool's memo did)
    assert dataclasses.replace(ctx, kinds=("simple",)).who(mother) == said
    other = dataclasses.replace(ctx, pool=dataclasses.replace(ctx.pool))
    mother.memo[("who", None)] = (ctx.pool, "not what who() says")
    assert other.who(mother) == said  # computed again, for its own pool
    assert mother.memo[("who", None)] == (other.pool, said)
