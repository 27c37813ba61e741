"""Drafting as generation drafts, for the tests of dealt answers: a held-out schema's
context and profiles, and each trajectory's first kept draft, drawn inside its deck's
stratum (dealt) or with no deck at all."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from memsim.profile import Profile
from memsim.qa import QAContext, make_context
from memsim.qa._registry import QA_KINDS
from memsim.qa._strata import stratum
from memsim.qa._types import Draft
from memsim.sampling import ProfileSampler
from memsim.schema import load_schema

DATA = Path(__file__).resolve().parents[1] / "data"


def held_out(schema: str, seed: int, n: int) -> tuple[QAContext, list[Profile]]:
    """``tests/data/<schema>``'s context and its first ``n`` profiles at ``seed``."""
    ctx = make_context(load_schema(DATA / schema), seed)
    return ctx, list(ProfileSampler(ctx.net).profiles(seed, 0, n))


def first_drafts(
    ctx: QAContext,
    profiles: list[Profile],
    kind: str,
    scenario: str,
    *,
    dealt: bool,
    seed: int,
    attempts: int,
) -> list[Draft]:
    """One kept draft per profile (trajectory ``tid`` = its index), each trajectory's
    random stream seeded by its ``tid``; every profile must give one."""
    make = QA_KINDS.get(kind).make
    out = []
    for tid, profile in enumerate(profiles):
        rng = np.random.default_rng(tid)
        for attempt in range(attempts):
            if dealt:
                with stratum(seed, tid, attempt):
                    draft = make(ctx, profile, scenario, rng)
            else:
                draft = make(ctx, profile, scenario, rng)
            if draft is not None:
                out.append(draft)
                break
    assert len(out) == len(profiles)
    return out
