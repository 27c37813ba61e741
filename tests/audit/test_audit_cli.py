"""`memsim audit` as a user runs it: exit codes, bad input, the report folder."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
GOOD = ["2024-05-01T08:00", "2024-05-01T09:30", "2024-05-01T12:00"]


def memsim(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "memsim", "audit", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )


def test_clean_data_exits_0_and_writes_the_report(clean_native: Path, tmp_path: Path) -> None:
    out = tmp_path / "report"
    result = memsim(str(clean_native), "--report", str(out), "--allow-skip")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "timestamps_increasing" in result.stdout and "0 error(s)" in result.stdout
    assert sorted(p.name for p in out.iterdir()) == ["manifest.json", "report.json", "report.md"]
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert report["verdict"]["exit_status"] == 0 and report["input"]["items"] == 3
    assert report["input"]["format"] == "native" and report["input"]["own_data"] is True
    # correctness checks need profiles and a schema: skipped, with the reason
    assert "needs --profiles" in report["skipped"]["answer_rederived"]
    # a second run replaces its own earlier report; without --allow-skip, the
    # correctness checks that could not run make the audit fail
    again = memsim(str(clean_native), "--report", str(out))
    assert again.returncode == 1 and "not proven: answer_rederived" in again.stderr


def test_an_error_exits_1(native: Callable[[str, list[list[str]]], Path]) -> None:
    backwards = ["2024-05-01T08:00", "2024-05-01T07:00", "2024-05-01T12:00"]
    folder = native("bad", [GOOD, backwards])
    result = memsim(str(folder))
    assert result.returncode == 1, result.stdout + result.stderr
    assert "timestamps_increasing" in result.stdout and "1 error(s)" in result.stdout


def test_bad_input_exits_2_naming_the_place(
    tmp_path: Path,
    native: Callable[[str, list[list[str]]], Path],
    raw_native: Callable[[str, list[dict[str, Any]]], Path],
) -> None:
    missing = memsim(str(tmp_path / "nope"))
    assert missing.returncode == 2 and "does not exist" in missing.stderr
    folder = native("broken", [GOOD])
    with open(folder / "dataset.jsonl", "a", encoding="utf-8") as f:
        f.write("{not json\n")
    broken = memsim(str(folder))
    assert broken.returncode == 2, broken.stderr
    assert f"{folder / 'dataset.jsonl'}:2: not valid JSON" in broken.stderr
    assert "Traceback" not in broken.stderr
    shape = raw_native("shape", [{"tid": 0}])
    result = memsim(str(shape))
    assert result.returncode == 2 and "dataset.jsonl:1: message_list: missing" in result.stderr
    unknown = memsim(str(shape), "--check", "no_such_check")
    assert unknown.returncode == 2 and "unknown check" in unknown.stderr
    native = memsim(str(tmp_path), "--format", "native")
    assert native.returncode == 2 and "no dataset.jsonl" in native.stderr


def test_a_foreign_report_folder_is_never_replaced(clean_native: Path, tmp_path: Path) -> None:
    mine = tmp_path / "notes"
    mine.mkdir()
    (mine / "todo.txt").write_text("keep me", encoding="utf-8")
    result = memsim(str(clean_native), "--report", str(mine))
    assert result.returncode == 2 and "not a memsim audit_report output" in result.stderr
    assert [p.name for p in mine.iterdir()] == ["todo.txt"]
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".notes")]  # no staging left


def test_memdaily_per_type_files_are_detected(tmp_path: Path) -> None:
    folder = tmp_path / "md"
    folder.mkdir()
    trajectory = {
        "tid": 0,
        "message_list": [
            {
                "mid": 0,
                "message": "我表哥今年35岁。",
                "time": "2024年04月03日 周三 07:53",
                "place": "北京",
            },
            {
                "mid": 1,
                "message": "[无效输出]",
                "time": "2024年04月03日 周三 07:50",
                "place": "北京",
            },
        ],
        "question_list": [
            {
                "qid": 0,
                "question": "我表哥多大了？",
                "answer": "35岁",
                "target_step_id": [0],
                "choices": {"A": "35岁", "B": "36岁", "C": "2月30日", "D": "34岁"},
                "ground_truth": "A",
                "time": "2024年04月03日 周三 09:00",
            }
        ],
    }
    (folder / "01_simple_roles.json").write_text(
        json.dumps([trajectory], ensure_ascii=False), encoding="utf-8"
    )
    out = tmp_path / "report"
    result = memsim(str(folder), "--report", str(out))
    assert result.returncode == 1
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert report["input"]["format"] == "memdaily" and report["input"]["own_data"] is False
    checks = report["checks"]
    assert checks["timestamps_increasing"]["status"] == "error"
    assert checks["message_garbage"]["counts"]["placeholder"] == 1
    assert checks["option_dates_valid"]["counts"]["impossible days"] == 1
