"""Saying a time relatively ("next Friday") must not mark a message as evidence: the
clock starts before any dated evidence or hard negative, not only before the evidence."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import numpy as np

from memsim.qa import Draft, FactRef, make_context
from memsim.sampling import ProfileSampler
from memsim.schema import load_schema
from memsim.trajectory import build_trajectory
from memsim.verify import relative_days_in

ROOT = Path(__file__).parents[2]
EVENTS = ("work_event[0]", "work_event[1]", "leisure_event[0]", "leisure_event[1]")


def test_evidence_is_said_relatively_as_often_as_hard_negatives() -> None:
    ctx = make_context(load_schema(ROOT / "schemas" / "daily_life.en.yaml"), 0)
    said = {"evidence": [0, 0], "negative": [0, 0]}
    rng = np.random.default_rng(0)
    for profile in ProfileSampler(ctx.net).profiles(9, 0, 200):
        draft = Draft(
            kind="simple",
            scenario="events",
            question="",
            answer="",
            options=("a", "b", "c", "d"),
            evidence=(FactRef(EVENTS[0], "time"),),
            negatives=tuple(FactRef(e, "time") for e in EVENTS[1:]),
        )
        messages, _ = build_trajectory(ctx, profile, draft, rng)
        for m in messages:
            if m.role in said:
                when = dt.datetime.fromisoformat(m.time)
                said[m.role][0] += bool(relative_days_in(m.text, when, ctx.loc))
                said[m.role][1] += 1
    evidence = said["evidence"][0] / said["evidence"][1]
    negative = said["negative"][0] / said["negative"][1]
    assert said["evidence"][1] == 200 and said["negative"][1] == 600
    # before the fix the clock anchored on the evidence only: about 3x the negatives' rate
    assert abs(evidence - negative) < 0.08, (evidence, negative)
