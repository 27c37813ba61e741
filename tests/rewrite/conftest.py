"""A small dataset generated in-process, with and without an LLM pass against the
fake chat server (a real HTTP server on 127.0.0.1)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from memsim.cli import main
from memsim.dataset import GenerateOptions, generate_dataset
from memsim.rewrite import RewriteOptions
from memsim.schema import load_schema

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = ROOT / "schemas" / "daily_life.en.yaml"
PER_TYPE = 4
"""6 types x 4 = 24 trajectories, about 270 messages."""


@pytest.fixture(scope="session")
def profiles_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("rewrite") / "profiles"
    args = ["profiles", "--schema", str(SCHEMA), "--n", str(6 * PER_TYPE), "--out", str(out)]
    result = CliRunner().invoke(main, [*args, "--no-progress"])
    assert result.exit_code == 0, result.output
    return out


def generate(
    profiles: Path,
    out: Path,
    rewrite: RewriteOptions | None = None,
    per_type: int = PER_TYPE,
    schema: Path = SCHEMA,
) -> dict[str, Any]:
    return generate_dataset(
        load_schema(schema),
        schema,
        profiles,
        out,
        GenerateOptions(per_type=per_type, verbalizer=rewrite.backend if rewrite else "template"),
        rewrite=rewrite,
    )


def read_records(folder: Path) -> list[dict[str, Any]]:
    lines = (folder / "dataset.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines]


@pytest.fixture(scope="session")
def template_records(
    tmp_path_factory: pytest.TempPathFactory, profiles_dir: Path
) -> list[dict[str, Any]]:
    out = tmp_path_factory.mktemp("rewrite") / "dataset"
    generate(profiles_dir, out)
    return read_records(out)
