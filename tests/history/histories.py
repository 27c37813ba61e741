"""Helpers of the history tests: run the CLI as a user does."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"
PSEUDO = DATA / "pseudo.yaml"
ENGLISH = ROOT / "schemas" / "daily_life.en.yaml"
PER_TYPE = 4
BUDGET = 6000
DEPTHS = "0,0.5,1"


def memsim(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "MEMSIM_LOCALE_PATH": str(DATA / "locales")}
    cmd = [sys.executable, "-m", "memsim", *args]
    return subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=600, env=env)


def ok(*args: str) -> None:
    proc = memsim(*args)
    assert proc.returncode == 0, f"{' '.join(args)}\n{proc.stdout}\n{proc.stderr}"


CLASSIC = "simple,conditional,comparative,aggregative,post_processing,noisy"
"""MemDaily's six kinds: what these tests count on (the history kinds have their own)."""


def generate(schema: Path, profiles: Path, out: Path, *extra: str) -> Path:
    ok(
        "generate", "--schema", str(schema), "--profiles", str(profiles), "--out", str(out),
        "--per-type", str(PER_TYPE), "--history-tokens", str(BUDGET),
        "--evidence-depth", DEPTHS, "--no-progress", "--types", CLASSIC, *extra,
    )  # fmt: skip
    return out
