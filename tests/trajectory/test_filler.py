"""Filler is drawn in proportion to how often each kind of fact is evidence in the
dataset's own QA kinds, and a message's place never shows a fact the question
withholds."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import numpy as np

from memsim.qa import QA_KINDS, make_context
from memsim.sampling import ProfileSampler
from memsim.schema import load_schema, workplace_attribute
from memsim.trajectory import build_trajectory
from memsim.trajectory._rates import (
    RATE_FLOOR,
    draft_block,
    evidence_rates,
    rate_blocks,
    rates_from,
)

ROOT = Path(__file__).parents[2]
SCHEMA = ROOT / "schemas" / "daily_life.en.yaml"


def test_evidence_rates_are_drafted_on_the_datasets_own_kinds() -> None:
    """A changing fact (the user's weight) is asked only by the kinds over histories: a
    dataset of simple questions gives it the floor rate, one of all kinds does not."""
    schema = load_schema(SCHEMA)
    only_simple = evidence_rates(make_context(schema, 0, ("simple",)))
    every_kind = evidence_rates(make_context(schema, 0))
    assert only_simple[("user", "weight")] == RATE_FLOOR
    assert every_kind[("user", "weight")] > 10 * RATE_FLOOR
    assert sum(v > RATE_FLOOR for v in only_simple.values()) >= 10  # simple asks many


def test_the_table_is_the_same_however_its_blocks_are_shared_out() -> None:
    """Each (kind, scenario) block is drafted from its own stream: drafted in reverse
    order on another context (as a worker drafts the blocks it is sent, on caches other
    blocks filled), the blocks add up to the very table one process makes in order."""
    schema = load_schema(SCHEMA)
    kinds = ("simple", "conditional")
    whole = evidence_rates(make_context(schema, 0, kinds))
    blocks = rate_blocks(schema, kinds)
    assert len(blocks) > 4 and {name for name, _ in blocks} == set(kinds)
    ctx = make_context(schema, 0, kinds)
    tallies = {block: draft_block(ctx, block) for block in reversed(blocks)}
    assert rates_from(tallies[b] for b in blocks) == whole
    # a block's drafts are its own: the same block drafted again is the same tally
    assert draft_block(ctx, blocks[1]) == tallies[blocks[1]]


def test_a_withheld_fact_is_never_the_place() -> None:
    """Abstention questions about the user never ask where they are or where they work
    (a message's place says both: in weekday office hours it is the employer, whose name
    can say a withheld occupation, "... Accounting Firm"), and no withheld fact's value
    is ever a message's place."""
    ctx = make_context(load_schema(SCHEMA), 0)
    kind = QA_KINDS.get("abstention")
    rng = np.random.default_rng(3)
    office_hours = checked = 0
    for profile in ProfileSampler(ctx.net).profiles(12, 0, 60):
        user = profile.entity("user")
        work = workplace_attribute(ctx.schema, user.kind)
        assert work is not None
        for _ in range(12):
            draft = kind.make(ctx, profile, "user", rng)
            if draft is None:
                continue
            assert draft.params.get("attribute") != work
            if not draft.withheld:
                continue
            messages, _ = build_trajectory(ctx, profile, draft, rng)
            checked += 1
            for m in messages:
                when = dt.datetime.fromisoformat(m.time)
                office_hours += when.weekday() < 5 and 9 <= when.hour < 18
                for ref in draft.withheld:
                    value = str(profile.fact(ref.id).value)
                    assert value not in m.place, (m.place, value)
    assert checked >= 5 and office_hours >= 10
