"""Histories exported through the formats registry (LongMemEval, LoCoMo) with their filler
expanded from sessions.jsonl, and read back by memsim's own readers: the same turns, the
same evidence, the same session dates, the gold sessions named as each format names them;
and the assistant_said kind, whose evidence the assistant says, in every locale."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from histories import PSEUDO, generate, memsim

from memsim.formats import FORMATS
from memsim.formats._dates import sessions_by_day
from memsim.formats._export import export_dataset
from memsim.history import read_histories
from memsim.records import ASSISTANT, USER, Record


def _said(record: Record) -> list[tuple[str, str]]:
    return [(t.speaker, t.text) for t in record.turns]


def _evidence(record: Record) -> list[tuple[str, str]]:
    return [(t.speaker, t.text) for t in record.turns if t.id in record.qa.evidence]


@pytest.fixture(scope="module")
def assistant_histories(tmp_path_factory: pytest.TempPathFactory, pseudo_profiles: Path) -> Path:
    out = tmp_path_factory.mktemp("assistant") / "d"
    return generate(PSEUDO, pseudo_profiles, out, "--types", "simple,assistant_said")


def test_longmemeval_export_reads_back_whole(pseudo_histories: Path, tmp_path: Path) -> None:
    result = export_dataset(pseudo_histories, "longmemeval", tmp_path / "lme")
    originals = list(read_histories(pseudo_histories))
    back = list(FORMATS.get("longmemeval").read(tmp_path / "lme"))
    raw = json.loads((tmp_path / "lme" / "longmemeval.json").read_text())
    assert result.source_format == "native"
    assert result.records == len(back) == len(raw) == len(originals) == 24
    for ours, theirs, instance in zip(originals, back, raw, strict=True):
        assert len(ours.sessions) == len(ours.extra["history"]["sessions"])  # filler expanded
        assert _said(theirs) == _said(ours)
        assert _evidence(theirs) == _evidence(ours)
        days = sessions_by_day(ours.sessions)
        assert [s.start for s in theirs.sessions] == [s.start for s in days]
        gold = {s.id for s in days if {t.id for t in s.turns} & set(ours.qa.evidence)}
        assert {a.removeprefix("answer_") for a in instance["answer_session_ids"]} == gold
        assert all(a in instance["haystack_session_ids"] for a in instance["answer_session_ids"])
        assert (theirs.qa.question, theirs.qa.answer) == (ours.qa.question, ours.qa.answer)
        assert theirs.qa.time == ours.qa.time


def test_locomo_export_has_user_and_assistant_speakers(
    pseudo_histories: Path, pseudo_profiles: Path, tmp_path: Path
) -> None:
    export_dataset(pseudo_histories, "locomo", tmp_path / "locomo", profiles=pseudo_profiles)
    originals = list(read_histories(pseudo_histories))
    back = list(FORMATS.get("locomo").read(tmp_path / "locomo"))
    assert len(back) == len(originals)
    for ours, theirs in zip(originals, back, strict=True):
        assert _said(theirs) == _said(ours)
        assert _evidence(theirs) == _evidence(ours)
        speakers = theirs.extra["speakers"]
        assert speakers[1] == "Assistant" and speakers[0] != "Assistant"
        assert {t.speaker for t in theirs.turns} == {USER, ASSISTANT}


def test_assistant_said_evidence_is_the_assistants(
    assistant_histories: Path, pseudo_profiles: Path, tmp_path: Path
) -> None:
    records = [r for r in read_histories(assistant_histories) if r.type == "assistant_said"]
    assert len(records) == 4
    for record in records:
        turns = {t.id: t for t in record.turns}
        (evidence,) = [turns[e] for e in record.qa.evidence]
        assert evidence.speaker == ASSISTANT and evidence.facts
        assert record.qa.answer in evidence.text
        request = turns[evidence.id - 1]
        assert request.speaker == USER and not request.facts
        assert record.qa.answer not in request.text and record.qa.answer not in record.qa.question
    export_dataset(assistant_histories, "longmemeval", tmp_path / "lme")
    raw = json.loads((tmp_path / "lme" / "longmemeval.json").read_text())
    kinds = {x["question_type"] for x in raw}
    assert kinds == {"single-session-user", "single-session-assistant"}
    for instance in raw:
        if instance["question_type"] == "single-session-assistant":
            gold = [t for s in instance["haystack_sessions"] for t in s if t["has_answer"]]
            assert [t["role"] for t in gold] == ["assistant"]
    proc = memsim(
        "audit", str(assistant_histories), "--profiles", str(pseudo_profiles),
        "--schema", str(PSEUDO), "--report", str(tmp_path / "audit"), "--no-progress",
    )  # fmt: skip
    assert proc.returncode == 0, proc.stdout + proc.stderr
    report = json.loads((tmp_path / "audit" / "report.json").read_text())
    assert report["checks"]["assistant_turns"]["counts"]["assistant turns"] > 0
    assert report["checks"]["answer_rederived"]["counts"]["transform identity"] >= 8


def test_assistant_said_needs_histories(pseudo_profiles: Path, tmp_path: Path) -> None:
    proc = memsim(
        "generate", "--schema", str(PSEUDO), "--profiles", str(pseudo_profiles),
        "--out", str(tmp_path / "d"), "--per-type", "2", "--types", "assistant_said",
    )  # fmt: skip
    assert proc.returncode == 2
    assert "--history-tokens" in proc.stderr
    assert not (tmp_path / "d").exists()
