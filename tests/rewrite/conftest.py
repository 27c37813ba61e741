"""A small dataset generated in-process, with and without an LLM pass against the
fake chat server (a real HTTP server on 127.0.0.1)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from rewrite_run import PER_TYPE, SCHEMA, generate, read_records

from memsim.cli import main


@pytest.fixture(scope="session")
def profiles_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("rewrite") / "profiles"
    args = ["profiles", "--schema", str(SCHEMA), "--n", str(9 * PER_TYPE), "--out", str(out)]
    result = CliRunner().invoke(main, [*args, "--no-progress"])
    assert result.exit_code == 0, result.output
    return out


@pytest.fixture(scope="session")
def template_records(
    tmp_path_factory: pytest.TempPathFactory, profiles_dir: Path
) -> list[dict[str, Any]]:
    out = tmp_path_factory.mktemp("rewrite") / "dataset"
    generate(profiles_dir, out)
    return read_records(out)
