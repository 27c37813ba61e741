"""The assistant_said kind in every locale: the assistant's lookup reply is the evidence and
states the fact, the user's request states none, and the assistant check stays clean on
real records and catches a reply that says more than its note."""

from __future__ import annotations

import datetime as dt
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from histories import DATA, ENGLISH, PSEUDO

from memsim.dataset import make_record
from memsim.history import assistant_problems, into_sessions, turn_problems
from memsim.qa import QA_KINDS, make_context
from memsim.records import ASSISTANT, USER
from memsim.sampling import ProfileSampler
from memsim.schema import load_schema
from memsim.verbalize import value_at
from memsim.verify import StatedFact, fact_stated

ZH = Path(__file__).resolve().parents[2] / "schemas" / "daily_life.zh.yaml"


@pytest.mark.parametrize("schema_path", [ENGLISH, ZH, PSEUDO], ids=["en", "zh", "xx"])
def test_the_assistant_states_the_evidence(
    schema_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MEMSIM_LOCALE_PATH", str(DATA / "locales"))
    ctx = make_context(load_schema(str(schema_path)), 0)
    scenarios = QA_KINDS.get("assistant_said").all_scenarios
    assert "hybrid" not in scenarios and "user" not in scenarios
    for i, profile in enumerate(ProfileSampler(ctx.net).profiles(0, 0, 8)):
        raw = make_record(ctx, profile, "assistant_said", scenarios[i % len(scenarios)], i, 0)
        made = into_sessions(raw, ctx.loc, np.random.default_rng(i), "t")
        prov = made.qa.provenance
        assert prov is not None and prov.params["said_by"] == ASSISTANT
        turns = {t.id: t for t in made.turns}
        (evidence,) = (turns[e] for e in made.qa.evidence)
        assert evidence.speaker == ASSISTANT and evidence.facts == prov.fact_ids
        entity = profile.entity(str(prov.params["entity"]))
        fact = entity.facts[str(prov.params["attribute"])]
        when = dt.datetime.fromisoformat(evidence.time)
        stated = StatedFact(entity, fact, value_at(fact, when), when)
        assert fact_stated(evidence.text, stated, ctx.loc)
        request = turns[evidence.id - 1]
        assert request.speaker == USER and not request.facts
        assert not fact_stated(request.text, stated, ctx.loc)
        assert not fact_stated(made.qa.question, stated, ctx.loc)
        # no user turn states the asked fact: only the assistant does
        assert not [t for t in made.turns if t.speaker == USER and fact.id in t.facts]
        assert assistant_problems(made, profile, ctx.loc) == []
        # a reply that says another value beside its note is caught
        other = next(f for e in profile.entities for f in e.facts.values() if f.id != fact.id)
        extra = f"{evidence.text} {value_at(other, when)}"
        broken = [
            replace(t, text=extra) if t.id == evidence.id else t
            for s in made.sessions
            for t in s.turns
        ]
        rows = [(str(t.id), t.speaker, t.text, t.time, t.facts) for t in broken]
        problems = turn_problems(rows, made.qa.answer, profile, ctx.loc)
        assert any(other.id in p for p in problems) or str(value_at(other, when)) in evidence.text


def test_the_answer_i_is_not_the_assistant_saying_i() -> None:
    ctx = make_context(load_schema(str(ENGLISH)), 0)
    profile = next(iter(ProfileSampler(ctx.net).profiles(0, 0, 1)))
    rows = [("1", ASSISTANT, "I see. Thanks for sharing that.", "2024-03-01T10:00", ())]
    assert turn_problems(rows, "I", profile, ctx.loc)  # "I" read as the answer...
    assert turn_problems(rows, "I", profile, ctx.loc, own_words=("I",)) == []  # ...not when own
