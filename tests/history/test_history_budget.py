"""Histories to a token budget, generated through the CLI: the budget, the depth, no
session twice, no filler about what the question asks, byte-identical reruns, and an
audit that is clean on them and catches tampering."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from histories import BUDGET, PSEUDO, generate, memsim

from memsim.history import SessionStore, depth_bucket, expand, fact_key, read_histories
from memsim.records import record_from_json


def _lines(folder: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (folder / "dataset.jsonl").read_text().splitlines()]


def test_histories_meet_their_budget_and_depth(pseudo_histories: Path) -> None:
    records = list(read_histories(pseudo_histories))
    assert len(records) == 24
    depths = [0.0, 0.5, 1.0]
    for record in records:
        history = record.extra["history"]
        assert abs(history["tokens"] - BUDGET) <= 0.02 * BUDGET
        assert history["depth"] == depths[record.tid % 3]
        if not history["depth_forced"]:
            assert abs(history["evidence_depth"] - history["depth"]) < 0.1
        ids = [s.id for s in record.sessions]
        assert len(ids) == len(set(ids)) == len(history["sessions"])
        starts = [s.start for s in record.sessions]
        assert starts == sorted(set(starts))
        turn_ids = [t.id for t in record.turns]
        assert len(turn_ids) == len(set(turn_ids))
        evidence_sessions = {
            s.id for s in record.sessions if {t.id for t in s.turns} & set(record.qa.evidence)
        }
        assert evidence_sessions == set(history["evidence_sessions"])
        prov = record.qa.provenance
        assert prov is not None
        asked = {fact_key(f) for f in (*prov.fact_ids, *prov.withheld)}
        for turn in record.turns:
            if turn.purpose == "filler" and any(":" in f for f in turn.facts):
                assert not {fact_key(f) for f in turn.facts} & asked


def test_store_holds_each_filler_session_once(pseudo_histories: Path) -> None:
    with SessionStore(pseudo_histories / "sessions.jsonl") as store:
        assert len(store) == len(set(store.ids()))
        used: set[str] = set()
        for line in _lines(pseudo_histories):
            record = record_from_json(line)
            own = {s.id for s in record.sessions}
            refs = [r["id"] for r in line["history"]["sessions"] if r["id"] not in own]
            assert all(r in store for r in refs)
            used.update(refs)
            assert expand(record, store).sessions[0].id == line["history"]["sessions"][0]["id"]
        assert used  # filler is shared, not copied: the records hold references only
    manifest = json.loads((pseudo_histories / "manifest.json").read_text())
    assert manifest["history"]["tokens"] == BUDGET
    assert "sessions.jsonl" in manifest["files"]


def test_same_options_give_identical_bytes(
    pseudo_histories: Path, pseudo_profiles: Path, tmp_path: Path
) -> None:
    again = generate(PSEUDO, pseudo_profiles, tmp_path / "again", "--workers", "2")
    for name in ("dataset.jsonl", "sessions.jsonl", "manifest.json", "data_card.md"):
        assert (again / name).read_bytes() == (pseudo_histories / name).read_bytes(), name


def _audit(folder: Path, profiles: Path, report: Path) -> dict[str, Any]:
    proc = memsim(
        "audit", str(folder), "--profiles", str(profiles), "--schema", str(PSEUDO),
        "--report", str(report), "--no-progress",
        "--check", "history_structure", "--check", "history_session_classifier",
        "--check", "assistant_turns", "--check", "timestamps_increasing",
        "--check", "answer_rederived",
    )  # fmt: skip
    assert proc.returncode in (0, 1), proc.stderr
    data: dict[str, Any] = json.loads((report / "report.json").read_text())
    return data


def _errors(report: dict[str, Any], check: str) -> list[str]:
    assert check in report["checks"], check
    return [
        f["message"] for f in report["findings"] if f["check"] == check and f["severity"] == "error"
    ]


def test_audit_is_clean_on_histories(
    pseudo_histories: Path, pseudo_profiles: Path, tmp_path: Path
) -> None:
    report = _audit(pseudo_histories, pseudo_profiles, tmp_path / "audit")
    for check in ("history_structure", "history_session_classifier", "assistant_turns"):
        assert _errors(report, check) == [], check
    # the history checks ran on the histories (not "no sessions.jsonl: nothing to check")
    for check in ("history_structure", "history_session_classifier"):
        assert not any("not a history dataset" in n for n in report["checks"][check]["notes"])
    assert report["checks"]["history_session_classifier"]["scores"]


def test_audit_catches_a_repeat_and_a_wrong_depth(
    pseudo_histories: Path, pseudo_profiles: Path, tmp_path: Path
) -> None:
    broken = tmp_path / "broken"
    shutil.copytree(pseudo_histories, broken)
    lines = _lines(broken)
    refs = lines[0]["history"]["sessions"]
    refs.insert(1, dict(refs[0]))  # the same session twice
    lines[1]["history"]["evidence_depth"] = 0.123
    (broken / "dataset.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))
    errors = _errors(_audit(broken, pseudo_profiles, tmp_path / "audit"), "history_structure")
    assert any(e.startswith("repeat") for e in errors)
    assert any(e.startswith("depth") for e in errors)


def test_bad_evidence_depth_is_a_clear_error(pseudo_profiles: Path, tmp_path: Path) -> None:
    proc = memsim(
        "generate", "--schema", str(PSEUDO), "--profiles", str(pseudo_profiles),
        "--out", str(tmp_path / "d"), "--history-tokens", "5000", "--evidence-depth", "0,2",
    )  # fmt: skip
    assert proc.returncode == 2
    assert "--evidence-depth" in proc.stderr
    for extra in (["--evidence-depth", "0.5"], ["--assistant", "openai"]):
        proc = memsim(
            "generate", "--schema", str(PSEUDO), "--profiles", str(pseudo_profiles),
            "--out", str(tmp_path / "e"), *extra,
        )  # fmt: skip
        assert proc.returncode == 2 and "--history-tokens" in proc.stderr, proc.stderr


@pytest.mark.parametrize(
    ("depth", "bucket"), [(0.0, "0.00-0.25"), (0.5, "0.50-0.75"), (1.0, "0.75-1.00")]
)
def test_depth_buckets(depth: float, bucket: str) -> None:
    assert depth_bucket(depth) == bucket


def test_retrieval_scores_follow_longmemeval() -> None:
    from memsim.bench._history import retrieval_scores, sessions_ranked

    scores = retrieval_scores([3, 1, 2], {1, 7}, 2)
    assert scores["recall_any"] == 1.0 and scores["recall_all"] == 0.0
    assert scores["ndcg"] == pytest.approx((1 / 1.5849625) / (1 + 1 / 1.5849625))
    # turns 4, 5 (session 2) then 0 (session 0): sessions ranked 2, 0
    assert sessions_ranked([4, 5, 0], [0, 0, 1, 1, 2, 2]) == [2, 0]


def test_bench_reports_by_depth_and_cuts_full_context(
    pseudo_histories: Path, tmp_path: Path
) -> None:
    proc = memsim(
        "bench", str(pseudo_histories), "--out", str(tmp_path / "b"), "--no-progress",
        "--mechanisms", "full_context,bm25,oracle", "--window", "2000", "--no-timings",
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    results = json.loads((tmp_path / "b" / "results.json").read_text())
    oracle = results["mechanisms"]["oracle"]
    assert oracle["all"]["session_recall_any"] == 1.0
    assert set(oracle["by_depth"]) <= {"0.00-0.25", "0.25-0.50", "0.50-0.75", "0.75-1.00"}
    assert sum(v["n"] for v in oracle["by_depth"].values()) == 24
    cut = results["mechanisms"]["full_context"]["all"]["cut"]
    assert cut["items_cut"] == 24 and cut["tokens_cut_mean"] > 0


def test_history_tokens_take_a_number_or_a_preset(pseudo_profiles: Path, tmp_path: Path) -> None:
    from memsim.cli._main import _budget
    from memsim.history import HISTORY_PRESETS

    assert _budget("longmemeval_s") == HISTORY_PRESETS["longmemeval_s"] == 115_000
    assert _budget("longmemeval_m") == 1_500_000
    assert _budget("128,000") == _budget("128000") == 128_000
    for bad in ("lots", "500"):
        proc = memsim(
            "generate", "--schema", str(PSEUDO), "--profiles", str(pseudo_profiles),
            "--out", str(tmp_path / "d"), "--history-tokens", bad,
        )  # fmt: skip
        assert proc.returncode == 2
        assert "--history-tokens" in proc.stderr and "longmemeval_s" in proc.stderr
        assert not (tmp_path / "d").exists()
