"""What the rewrite tests share: the schema, the size, and in-process generation."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from memsim.cli import main
from memsim.dataset import GenerateOptions, generate_dataset
from memsim.rewrite import RewriteOptions
from memsim.schema import load_schema

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = ROOT / "schemas" / "daily_life.en.yaml"
PER_TYPE = 4
"""6 types x 4 = 24 trajectories, about 270 messages."""


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


def audit_findings(dataset: Path, profiles: Path, report: Path, schema: Path = SCHEMA) -> list[str]:
    """`memsim audit` on a dataset with its profiles and schema, as a user runs it:
    the messages of its error findings (it exits 1 on an error, 0 when clean)."""
    args = ["audit", str(dataset), "--profiles", str(profiles), "--schema", str(schema)]
    result = CliRunner().invoke(main, [*args, "--report", str(report)])
    assert result.exit_code in (0, 1), result.output
    found = json.loads((report / "report.json").read_text(encoding="utf-8"))["findings"]
    errors = [f"{f['check']}: {f['message']}" for f in found if f["severity"] == "error"]
    assert (result.exit_code == 1) == bool(errors), result.output
    return errors
