"""Sessions made from real trajectories keep every user turn, order time, put assistant
turns after user turns, and the assistant never states a fact (all three locales)."""

from __future__ import annotations

import datetime as dt
import itertools
from pathlib import Path

import numpy as np
import pytest
from histories import DATA, ENGLISH, PSEUDO

from memsim.dataset import make_record
from memsim.history import assistant_problems, into_sessions
from memsim.qa import KIND_ORDER, make_context, planned_scenarios
from memsim.records import ASSISTANT, USER
from memsim.sampling import ProfileSampler
from memsim.schema import load_schema

ZH = Path(__file__).resolve().parents[2] / "schemas" / "daily_life.zh.yaml"


def _records(schema_path: Path, n: int):  # type: ignore[no-untyped-def]
    ctx = make_context(load_schema(str(schema_path)), 0)
    for i, profile in enumerate(ProfileSampler(ctx.net).profiles(0, 0, n)):
        kind = KIND_ORDER[i % len(KIND_ORDER)]
        scenarios = planned_scenarios(ctx.schema, kind)
        raw = make_record(ctx, profile, kind, scenarios[i % len(scenarios)], i, 0)
        yield ctx, profile, raw


@pytest.mark.parametrize("schema_path", [ENGLISH, ZH, PSEUDO], ids=["en", "zh", "xx"])
def test_sessions_keep_turns_and_time(schema_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMSIM_LOCALE_PATH", str(DATA / "locales"))
    first_is_evidence = sessions = 0
    for ctx, profile, record in _records(schema_path, 24):
        made = into_sessions(record, ctx.loc, np.random.default_rng(record.tid), "t")
        # every user turn kept, in order, with its text and time
        kept = [
            (t.text, t.time, t.facts) for t in made.turns if t.purpose != "chit_chat" or t.facts
        ]
        wanted = [(t.text, t.time, t.facts) for t in record.turns if t.purpose != "chit_chat"]
        assert [k for k in kept if k in wanted] == wanted
        # evidence ids point at the same texts
        old = {t.id: t.text for t in record.turns}
        new = {t.id: t.text for t in made.turns}
        assert [new[e] for e in made.qa.evidence] == [old[e] for e in record.qa.evidence]
        # times strictly increase, sessions too, the question comes last
        times = [dt.datetime.fromisoformat(t.time) for t in made.turns]
        assert all(a < b for a, b in itertools.pairwise(times))
        starts = [s.start for s in made.sessions]
        assert starts == sorted(set(starts))
        assert times[-1] < dt.datetime.fromisoformat(made.qa.time)
        # an assistant turn follows every user turn that states a fact; every session
        # states a fact
        for session in made.sessions:
            speakers = [t.speaker for t in session.turns]
            assert speakers[::2] == [USER] * len(speakers[::2])
            assert speakers[1::2] == [ASSISTANT] * len(speakers[1::2])
            assert any(t.facts for t in session.turns)
            sessions += 1
            first_is_evidence += session.turns[0].purpose == "evidence"
        assert assistant_problems(made, profile, ctx.loc) == []
    assert first_is_evidence < sessions / 2


def test_assistant_problems_catch_a_fact_and_the_answer() -> None:
    ctx, profile, record = next(_records(ENGLISH, 1))
    made = into_sessions(record, ctx.loc, np.random.default_rng(0), "t")
    fact = profile.fact(record.qa.provenance.fact_ids[0])  # type: ignore[union-attr]
    from dataclasses import replace

    first = made.sessions[0]
    turns = list(first.turns)
    k = next(i for i, t in enumerate(turns) if t.speaker == ASSISTANT)
    turns[k] = replace(turns[k], text=f"Noted: {fact.value}. The answer is {record.qa.answer}.")
    broken = replace(made, sessions=(replace(first, turns=tuple(turns)), *made.sessions[1:]))
    problems = assistant_problems(broken, profile, ctx.loc)
    assert any("early" in p for p in problems)
