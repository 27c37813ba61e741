"""Small hand-written datasets for the audit's own tests (the generated ones are in
tests/integration/test_audit.py)."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from memsim.audit import load_context, open_source, run_audit

ROOT = Path(__file__).resolve().parents[2]
MEMDAILY_CANDIDATES = (ROOT.parent / "shared" / "memdaily", ROOT.parents[1] / "shared" / "memdaily")


def generate(
    base: Path, schema: Path, n: int, per_type: int, types: str = "", timeout: float = 300
) -> Path:
    """``memsim profiles`` (``n``, seed 0) into ``base/p``, then ``memsim generate`` (seed
    0, ``per_type`` of ``types``, every kind when empty) into ``base/d``, through the CLI
    as a user runs them; ``base``."""
    profiles, dataset = str(base / "p"), str(base / "d")
    kinds = ["--types", types] if types else []
    for step in (
        ["profiles", "--schema", str(schema), "--n", str(n), "--seed", "0", "--out", profiles],
        ["generate", "--schema", str(schema), "--profiles", profiles, "--out", dataset,
         "--seed", "0", "--per-type", str(per_type), *kinds],
    ):  # fmt: skip
        cmd = [sys.executable, "-m", "memsim", *step, "--no-progress"]
        subprocess.run(cmd, cwd=ROOT, check=True, capture_output=True, timeout=timeout)
    return base


def generated_records(base: Path) -> list[dict[str, Any]]:
    """The records of the dataset :func:`generate` wrote into ``base/d``."""
    lines = (base / "d" / "dataset.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines]


def tampered(base: Path, records: list[dict[str, Any]]) -> Path:
    """``base/tampered``: ``records`` beside the generated dataset's manifest."""
    out = base / "tampered"
    out.mkdir(exist_ok=True)
    (out / "manifest.json").write_text((base / "d" / "manifest.json").read_text())
    (out / "dataset.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    return out


def audit_check(
    dataset: Path, base: Path, schema: Path, check: str
) -> tuple[dict[str, int], list[str]]:
    """One audit check of ``dataset`` against the profiles :func:`generate` wrote into
    ``base/p``: its counts and its findings' messages."""
    ctx = load_context(open_source(dataset), profiles=base / "p", schema=schema)
    result = run_audit(ctx, [check]).results[check]
    return dict(result.stats.counts), [f.message for f in result.findings]


def record(tid: int, times: list[str], **qa: Any) -> dict[str, Any]:
    """A native record with one message per time; the question asked after them."""
    messages = [
        {
            "mid": i,
            "message": f"My cousin's age is {30 + i}.",
            "time": t,
            "place": "home",
            "role": "evidence" if i == 0 else "filler",
            "facts": [],
        }
        for i, t in enumerate(times)
    ]
    base = {
        "question": "How old is my cousin?",
        "answer": "30 years",
        "choices": {"A": "30 years", "B": "31 years", "C": "32 years", "D": "33 years"},
        "ground_truth": "A",
        "target_step_id": [0],
        "time": "2024-05-01T20:00",
    }
    return {
        "format_version": 1,
        "tid": tid,
        "type": "simple",
        "scenario": "roles",
        "profile_id": f"p{tid:06d}",
        "locale": "en",
        "message_list": messages,
        "QA": {**base, **qa},
    }


def write_native(folder: Path, records: list[dict[str, Any]]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / "dataset.jsonl", "w", encoding="utf-8") as f:
        f.writelines(json.dumps(r) + "\n" for r in records)
    manifest = {
        "kind": "dataset",
        "options": {"seed": 0},
        "schema": {"name": "daily_life", "locale": "en"},
    }
    (folder / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    return folder


GOOD_TIMES = ["2024-05-01T08:00", "2024-05-01T09:30", "2024-05-01T12:00"]


@pytest.fixture
def clean_native(tmp_path: Path) -> Path:
    return write_native(tmp_path / "clean", [record(i, GOOD_TIMES) for i in range(3)])


@pytest.fixture
def native(tmp_path: Path) -> Callable[[str, list[list[str]]], Path]:
    """native(name, [times of trajectory 0, times of trajectory 1, ...]) -> a dataset folder."""

    def make(name: str, trajectories: list[list[str]]) -> Path:
        return write_native(tmp_path / name, [record(i, t) for i, t in enumerate(trajectories)])

    return make


@pytest.fixture
def raw_native(tmp_path: Path) -> Callable[[str, list[dict[str, Any]]], Path]:
    """raw_native(name, records) -> a dataset folder holding exactly these records."""
    return lambda name, records: write_native(tmp_path / name, records)


@pytest.fixture(scope="session")
def memdaily_dir() -> Path:
    for folder in MEMDAILY_CANDIDATES:
        if (folder / "01_simple_roles.json").is_file():
            return folder
    pytest.skip(
        "the MemDaily reference data is not at ../shared/memdaily (it is only on the "
        "project's machines)"
    )
