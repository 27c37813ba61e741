"""Session fixtures for the benchmark tests: a small dataset generated exactly as a
user would (``memsim profiles`` + ``memsim generate`` as subprocesses)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = ROOT / "schemas" / "daily_life.en.yaml"
PER_TYPE = 8
"""Questions per QA kind: 48 trajectories."""


def run(*args: str) -> None:
    cmd = [sys.executable, "-m", "memsim", *args]
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed:\n{proc.stdout}\n{proc.stderr}")


@pytest.fixture(scope="session")
def dataset_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("bench")
    n = 9 * PER_TYPE
    run(
        "profiles",
        "--schema",
        str(SCHEMA),
        "--n",
        str(n),
        "--seed",
        "0",
        "--out",
        str(base / "profiles"),
        "--no-progress",
    )
    run(
        "generate",
        "--schema",
        str(SCHEMA),
        "--profiles",
        str(base / "profiles"),
        "--out",
        str(base / "dataset"),
        "--per-type",
        str(PER_TYPE),
        "--no-progress",
    )
    return base / "dataset"


@pytest.fixture(scope="session")
def en_pool():  # type: ignore[no-untyped-def]
    from memsim.bench import NoisePool
    from memsim.schema import load_schema

    return NoisePool(load_schema(SCHEMA), seed=0)
