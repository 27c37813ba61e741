"""A small dataset made as a user makes one (``memsim profiles`` + ``memsim generate``),
shared by the format tests."""

from __future__ import annotations

from pathlib import Path

import pytest
from formats_run import PER_TYPE, SCHEMA, run

from memsim.qa import KIND_ORDER


@pytest.fixture(scope="session")
def made(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding ``profiles/`` and ``dataset/`` (60 trajectories)."""
    base = tmp_path_factory.mktemp("formats")
    run("profiles", "--schema", SCHEMA, "--n", len(KIND_ORDER) * PER_TYPE, "--out", base / "profiles",
        "--no-progress")  # fmt: skip
    run("generate", "--schema", SCHEMA, "--profiles", base / "profiles", "--out",
        base / "dataset", "--per-type", PER_TYPE, "--no-progress",
        "--types", "simple,conditional,comparative,aggregative,post_processing,noisy")  # fmt: skip
    return base
