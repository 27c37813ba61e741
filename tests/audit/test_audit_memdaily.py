"""The audit on the real MemDaily release: it finds the defects its README lists."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memsim.audit import AuditReport, load_context, open_source, run_audit


@pytest.fixture(scope="module")
def report(memdaily_dir: Path) -> AuditReport:
    source = open_source(memdaily_dir, "memdaily")
    assert source.graphs is not None  # found beside the files
    return run_audit(load_context(source))


def test_it_reads_the_release(report: AuditReport) -> None:
    assert report.items == 3000 and report.messages == 26531
    assert report.results["error_markers"].stats.counts["items flagged"] == 46
    assert report.exit_status == 1


def test_about_six_percent_of_trajectories_go_back_in_time(report: AuditReport) -> None:
    backwards = report.results["timestamps_increasing"].stats.counts["trajectories not increasing"]
    assert 0.05 <= backwards / report.items <= 0.075, backwards


def test_questions_asked_before_the_last_message(report: AuditReport) -> None:
    counts = report.results["question_after_messages"].stats.counts
    assert counts["asked before the last message"] == 20


def test_api_error_placeholders_and_leaked_prompts(report: AuditReport) -> None:
    counts = report.results["message_garbage"].stats.counts
    assert counts["placeholder"] == 2
    assert counts["prompt leakage or meta text"] > 30


def test_the_first_five_messages_hold_the_evidence(report: AuditReport) -> None:
    scores = report.results["shortcut_position"].stats.scores
    for kind in ("simple", "conditional", "noisy", "aggregative"):
        assert scores[kind]["first5"] > scores[kind]["random5"] + 0.15, (kind, scores[kind])
    # external data: reported, as warnings, not errors
    severities = {f.severity for f in report.results["shortcut_position"].findings}
    assert severities == {"warning"}


def test_the_centroid_option_is_the_answer(report: AuditReport) -> None:
    scores = report.results["shortcut_centroid"].stats.scores
    assert scores["simple"]["accuracy"] > 0.6
    assert scores["conditional"]["accuracy"] > 0.6 and scores["noisy"]["accuracy"] > 0.6


def test_hybrid_dates_resolved_against_the_question(report: AuditReport) -> None:
    result = report.results["answer_dates_resolved"]
    hybrid = result.stats.scores["hybrid"]
    assert hybrid["wrong"] >= 10 and hybrid["share of dated answers wrong"] > 0.15
    assert result.stats.counts["resolved against the question's time"] == hybrid["wrong"]
    assert result.stats.scores["events"]["wrong"] == 0


def test_simple_and_conditional_answers_rederived_from_graphs(report: AuditReport) -> None:
    scores = report.results["memdaily_answers"].stats.scores["all"]
    assert scores["derived"] > 1000
    assert scores.get("wrong", 0) == 0
    assert scores["ambiguous"] > 0  # conditions that fit two entities


def test_a_wrong_ground_truth_would_be_caught(memdaily_dir: Path, tmp_path: Path) -> None:
    data = json.loads((memdaily_dir / "01_simple_roles.json").read_text(encoding="utf-8"))
    qa = data[0]["question_list"][0]  # 上司 education: 高中 (profile 0)
    wrong = next(k for k, v in qa["choices"].items() if v != qa["answer"])
    qa["answer"], qa["ground_truth"] = qa["choices"][wrong], wrong
    (tmp_path / "01_simple_roles.json").write_text(
        json.dumps(data, ensure_ascii=False), encoding="utf-8"
    )
    (tmp_path / "graphs.json").write_bytes((memdaily_dir / "graphs.json").read_bytes())
    found = run_audit(load_context(open_source(tmp_path)), ["memdaily_answers"])
    errors = [
        f.message for f in found.results["memdaily_answers"].findings if f.severity == "error"
    ]
    assert errors == [f"profile 0 gives '高中', the answer is {qa['answer']!r}"]
