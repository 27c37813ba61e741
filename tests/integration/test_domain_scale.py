"""Another domain at a moderate scale: the campus schema (a student's semester) at 60
questions per kind (540 trajectories) generates and audits with no error, and the
memory-free shortcut the other domains used to fail, picking the option the
conversation mentions, is at most the audit's bound (0.50) on every kind that asks one
fact (the student's own attributes and the single textbook have no look-alikes: their
distractors are said to be someone else's). The full MemDaily scale (500 per kind) is
measured in the README's "A new domain"."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = ROOT / "schemas" / "campus.en.yaml"
PER_TYPE = 60
KINDS = 9
ONE_FACT = ("simple", "conditional", "noisy", "abstention")


def _memsim(*args: str) -> None:
    cmd = [sys.executable, "-m", "memsim", *args]
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, f"{' '.join(cmd)}\n{proc.stdout}\n{proc.stderr}"


@pytest.mark.slow
def test_campus_at_moderate_scale_audits_with_no_error(tmp_path: Path) -> None:
    profiles, data, audit = tmp_path / "p", tmp_path / "d", tmp_path / "a"
    _memsim(
        "profiles", "--schema", str(SCHEMA), "--n", str(KINDS * PER_TYPE), "--out", str(profiles)
    )
    _memsim(
        "generate", "--schema", str(SCHEMA), "--profiles", str(profiles), "--out", str(data),
        "--per-type", str(PER_TYPE), "--no-progress",
    )  # fmt: skip
    _memsim(
        "audit", str(data), "--profiles", str(profiles), "--schema", str(SCHEMA),
        "--report", str(audit), "--no-progress",
    )  # fmt: skip
    report = json.loads((audit / "report.json").read_text(encoding="utf-8"))
    errors = [f for f in report["findings"] if f["severity"] == "error"]
    assert report["verdict"]["errors"] == 0, errors[:5]
    mentioned = report["checks"]["shortcut_mentioned_option"]["scores"]
    for kind in ONE_FACT:
        assert mentioned[kind]["n"] == PER_TYPE
        assert mentioned[kind]["accuracy"] <= 0.5, (kind, mentioned[kind])
