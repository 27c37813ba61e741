"""Helpers of the format tests (a module of its own name: ``conftest`` can resolve to
another folder's)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = ROOT / "schemas" / "daily_life.en.yaml"
PER_TYPE = 10


def memsim(*args: str | Path) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, "-m", "memsim", *map(str, args)]
    return subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=600)


def run(*args: str | Path) -> None:
    proc = memsim(*args)
    if proc.returncode != 0:
        raise RuntimeError(f"memsim {args} failed:\n{proc.stdout}\n{proc.stderr}")
