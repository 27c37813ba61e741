"""Session datasets for the hostile-input tests (built once, copied by the tests that
break them)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from hostile_run import SCHEMA, SCHEMA_ZH, build


@pytest.fixture(scope="session")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build(tmp_path_factory.mktemp("hostile") / "en", SCHEMA)


@pytest.fixture(scope="session")
def built_zh(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build(tmp_path_factory.mktemp("hostile") / "zh", SCHEMA_ZH)


@pytest.fixture
def small(built: Path, tmp_path: Path) -> Path:
    """A fresh copy of the session's dataset folder (profiles/, dataset/) to break."""
    return Path(shutil.copytree(built, tmp_path / "en"))
