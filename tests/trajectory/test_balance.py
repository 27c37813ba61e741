"""What a message is about does not say whether it is evidence: over real generation from
the bundled English schema, every (entity kind, attribute) asked often is said in
non-evidence messages (filler, hard negatives, noise) about as often per evidence
message as any other. Filler makes up what the hard negatives and noise leave short:
drawn by how often an attribute is evidence alone (the table before issue 15's last
fix), the user's birthday and degree (asked with no look-alike as a hard negative) were
evidence in 0.28-0.29 of the messages that said them, a relative's hobby in 0.19 and a
colleague's hometown in 0.09, and the audit's text classifier read that."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from memsim.dataset import make_context
from memsim.dataset._generate import make_record
from memsim.qa import ASSISTANT_KINDS, QA_KINDS, planned_scenarios
from memsim.records import record_to_json
from memsim.sampling import ProfileSampler
from memsim.schema import load_schema
from memsim.trajectory._rates import _expected

ROOT = Path(__file__).parents[2]
PER_KIND = 120
"""Questions per kind, split evenly over the scenarios it asks, as the plan splits them."""
MIN_EVIDENCE = 25


def _kind_attribute(fact_id: str) -> tuple[str, str]:
    entity, attribute = fact_id.split(":")[-1].rsplit(".", 1)
    return re.sub(r"\[\d+\]$", "", entity), attribute


@pytest.fixture(scope="module")
def records() -> list[dict[str, Any]]:
    """``PER_KIND`` questions of every kind the user asks, over the scenarios in turn."""
    ctx = make_context(load_schema(ROOT / "schemas" / "daily_life.en.yaml"), 0)
    profiles = list(ProfileSampler(ctx.net).profiles(0, 0, PER_KIND))
    out = []
    for name in (n for n in QA_KINDS.names() if n not in ASSISTANT_KINDS):
        scenarios = planned_scenarios(ctx.schema, name)
        for i, profile in enumerate(profiles):
            scenario = scenarios[i % len(scenarios)]
            out.append(record_to_json(make_record(ctx, profile, name, scenario, len(out), 0)))
    return out


def test_every_kind_of_fact_is_evidence_in_the_same_share(records: list[dict[str, Any]]) -> None:
    evidence: Counter[tuple[str, str]] = Counter()
    other: Counter[tuple[str, str]] = Counter()
    for record in records:
        asked = set(record["QA"]["target_step_id"])
        for m in record["message_list"]:
            for f in m["facts"]:
                (evidence if m["mid"] in asked else other)[_kind_attribute(f)] += 1
    often = [k for k, n in evidence.items() if n >= MIN_EVIDENCE]
    assert len(often) >= 20
    share = {k: evidence[k] / (evidence[k] + other[k]) for k in often}
    overall = sum(evidence[k] for k in often) / sum(evidence[k] + other[k] for k in often)
    worst = max(share, key=lambda k: abs(share[k] / overall - 1))
    # here the table before issue 15's last fix gave 0.74 (a relative's hobby) to 1.33 (a
    # place's opinion) of the overall share. The table's own drafts move both ends: with
    # the fix, over RATE_SEED 0-3 and both ways of drawing them (one stream, then a stream
    # per kind and scenario), 0.71-0.78 (a relative's hobby) and 1.23-1.32 (mostly a
    # relative's age); one stream at seed 0 gave 0.75 and 1.25, per block 0.71 and 1.24.
    # Bounds inside that spread fail on a redraw of the table, not on a worse one
    assert 0.70 < share[worst] / overall < 1.33, (worst, share[worst], overall)


def test_filler_speaks_of_what_the_question_asks(records: list[dict[str, Any]]) -> None:
    """Within a trajectory, filler states the attributes the question asks (of the
    other people, events, the user) more often than their rates alone would: 0.088 of
    filler messages before the same-attribute weight, 0.151 with it (120 per kind)."""
    same = total = 0
    for record in records:
        asked = set(record["QA"]["target_step_id"])
        attributes = {
            _kind_attribute(f)[1]
            for m in record["message_list"]
            if m["mid"] in asked
            for f in m["facts"]
        }
        for m in record["message_list"]:
            if m["role"] == "filler":
                same += any(_kind_attribute(f)[1] in attributes for f in m["facts"])
                total += 1
    assert total > 3000
    assert same / total > 0.12, same / total


def test_a_count_hears_its_attribute_of_its_group_only(records: list[dict[str, Any]]) -> None:
    """A counting question's evidence is every member's value of one attribute; no
    other message states that attribute of anyone of the group's kinds, not even the
    other life's people as noise (a reader would count "my uncle is 60" with "my
    relatives"). valid5's topic noise did, in 491 of 500 aggregative trajectories of
    make dataset en; the audit's ``group_closed`` check reads the same rule."""
    told = total = 0
    for record in (r for r in records if r["type"] == "aggregative"):
        evidence = set(record["QA"]["target_step_id"])
        group = {
            _kind_attribute(f)
            for m in record["message_list"]
            if m["mid"] in evidence
            for f in m["facts"]
        }
        total += 1
        for m in record["message_list"]:
            if m["mid"] not in evidence:
                told += sum(_kind_attribute(f) in group for f in m["facts"])
    assert total > 30
    assert told == 0


def test_a_draft_draws_a_fact_at_most_once() -> None:
    """The expected draws of a fact whose rate dwarfs the others' saturate at the facts
    spare, and the draws of a draft add up to its messages."""
    rate = np.array([1000.0, 1.0, 1.0])
    spare = np.array([[1.0, 4.0, 4.0], [2.0, 0.0, 6.0]])
    got = _expected(rate, np.array([3.0, 5.0]), spare)
    assert np.all(got <= spare.sum(axis=0) + 1e-9)
    assert abs(got.sum() - 8.0) < 1e-3
    assert got[0] > 2.99  # both drafts draw the dominant facts first
