"""A held-out domain run end to end through the CLI, as a new user runs it: validate,
sample, generate and audit; asserts that every kind is asked in every scenario the plan
gives and that the audit finds no error. Shared by test_held_out_domain.py and
test_new_domains.py."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

from memsim.qa import KIND_ORDER, default_kinds, planned_scenarios
from memsim.schema import Schema, load_schema

ROOT = Path(__file__).resolve().parents[2]

# Words of daily life a held-out domain's data should not say.
DAILY_EN = re.compile(r"\b(coworker|colleague|relative|father|mother|boss|commute)\b", re.I)
DAILY_ZH = ("同事", "亲戚", "父亲", "母亲", "上班")


def memsim(*args: str) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, "-m", "memsim", *args]
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, f"{' '.join(cmd)}\n{proc.stdout}\n{proc.stderr}"
    return proc


def run_domain(
    schema_path: Path, tmp_path: Path, per_type: int
) -> tuple[Schema, list[dict[str, Any]]]:
    """The schema and the dataset's records, after the checks above passed."""
    memsim("schema", "validate", str(schema_path))
    n = len(KIND_ORDER) * per_type
    memsim("profiles", "--schema", str(schema_path), "--n", str(n), "--out", str(tmp_path / "p"))
    memsim(
        "generate", "--schema", str(schema_path), "--profiles", str(tmp_path / "p"),
        "--out", str(tmp_path / "d"), "--per-type", str(per_type), "--no-progress",
    )  # fmt: skip
    memsim(
        "audit", str(tmp_path / "d"), "--profiles", str(tmp_path / "p"), "--schema",
        str(schema_path), "--report", str(tmp_path / "a"), "--no-progress",
    )  # fmt: skip
    schema = load_schema(schema_path)
    assert default_kinds(schema) == KIND_ORDER
    lines = (tmp_path / "d" / "dataset.jsonl").read_text(encoding="utf-8").splitlines()
    records = [json.loads(line) for line in lines]
    made = {(r["type"], r["scenario"]) for r in records}
    assert made == {(k, s) for k in KIND_ORDER for s in planned_scenarios(schema, k)}
    report = json.loads((tmp_path / "a" / "report.json").read_text(encoding="utf-8"))
    errors = [f for f in report["findings"] if f["severity"] == "error"]
    assert report["verdict"]["errors"] == 0, errors[:5]
    return schema, records


def said(records: list[dict[str, Any]]) -> list[str]:
    """Every text a dataset says: questions, options and messages."""
    out: list[str] = []
    for r in records:
        out += [r["QA"]["question"], *r["QA"]["choices"].values()]
        out += [m["message"] for m in r["message_list"]]
    return out
