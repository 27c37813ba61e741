"""The kinds over value histories and times, end to end through the CLI: every kind and
scenario is generated, the audit (re-derivation, messages in force, never-told facts
unsaid, temporal answers read back from the text) finds no error, and "never told" is
no shortcut. Records are read as JSON; nothing here calls memsim's answer code."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = ROOT / "schemas" / "daily_life.en.yaml"
PER_TYPE = 60
"""As in conftest.py: questions per kind."""

KINDS = {
    "knowledge_update": {"user", "roles"},
    "temporal": {"user", "roles", "events"},
    "abstention": {"user", "roles", "items", "places"},
}


@pytest.fixture(scope="module")
def evolving(generated: dict[str, Path]) -> list[dict[str, Any]]:
    lines = (generated["evolving"] / "dataset.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def test_every_kind_and_scenario(evolving: list[dict[str, Any]]) -> None:
    counts = Counter(r["type"] for r in evolving)
    assert counts == {k: PER_TYPE for k in KINDS}
    for kind, scenarios in KINDS.items():
        assert {r["scenario"] for r in evolving if r["type"] == kind} == scenarios


def test_changes_are_told_explicitly_and_implicitly(evolving: list[dict[str, Any]]) -> None:
    """Some evidence messages say a change explicitly (with its day), others just use the
    new value: the explicit ones are the ones that name a day."""
    updates = [r for r in evolving if r["type"] == "knowledge_update"]
    marks = ("That changed with", "things are different", "An update after")
    explicit = sum(
        any(
            m["role"] == "evidence" and any(k in m["message"] for k in marks)
            for m in r["message_list"]
        )
        for r in updates
    )
    assert 0 < explicit < len(updates)


def test_never_told_is_gold_in_about_a_quarter(evolving: list[dict[str, Any]]) -> None:
    abstain = [r for r in evolving if r["type"] == "abstention"]
    gold = [r["QA"]["choices"][r["QA"]["ground_truth"]] for r in abstain]
    never = sum(g.startswith("You never told me") for g in gold)
    carried = sum(
        any(c.startswith("You never told me") for c in r["QA"]["choices"].values()) for r in abstain
    )
    assert carried == len(abstain)
    assert 0.1 < never / len(abstain) < 0.4


def test_the_audit_is_clean(generated: dict[str, Path], profiles_dir: Path, tmp_path: Path) -> None:
    cmd = [
        sys.executable, "-m", "memsim", "audit", str(generated["evolving"]),
        "--profiles", str(profiles_dir), "--schema", str(SCHEMA),
        "--report", str(tmp_path / "audit"), "--no-progress",
    ]  # fmt: skip
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=600)
    report = json.loads((tmp_path / "audit" / "report.json").read_text())
    errors = [f for f in report["findings"] if f["severity"] == "error"]
    assert proc.returncode == 0 and not errors, (proc.stdout, errors[:5])
    checks = report["checks"]
    for name in ("values_in_force", "never_told_unsaid", "temporal_from_text"):
        assert checks[name]["items"] > 0, name
