"""Session fixtures for the end-to-end dataset tests.

The dataset is produced exactly as a user would produce it: ``memsim profiles`` then
``memsim generate``, both run as subprocesses of the current interpreter. Nothing here
imports memsim's answer-computing code (qa, trajectory, dataset, templates): the tests
re-derive everything from the profile JSON, the schema YAML and the locale data.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = ROOT / "schemas" / "daily_life.en.yaml"

PER_TYPE = 60
"""Trajectories per question type (MemDaily's 6 types in the main datasets)."""
CLASSIC = "simple,conditional,comparative,aggregative,post_processing,noisy"
"""The main datasets hold MemDaily's six types; ``evolving`` holds the other three."""
EVOLVING = "knowledge_update,temporal,abstention"
AGGREGATIVE_PER_TYPE = 500
"""A larger aggregative-only dataset, for the statistics of numeric options."""
N_PROFILES = max(6 * PER_TYPE, AGGREGATIVE_PER_TYPE)
"""One profile per trajectory."""
PROFILE_SEED = 0
SEED = 0
OTHER_SEED = 1


def _memsim_cmd(*args: str) -> list[str]:
    return [sys.executable, "-m", "memsim", *args]


def _check(
    proc: subprocess.CompletedProcess[str] | subprocess.Popen[str],
    cmd: list[str],
    out: str,
    err: str,
) -> None:
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed ({proc.returncode}):\n{out}\n{err}")


def run_memsim(*args: str, timeout: float = 300) -> None:
    cmd = _memsim_cmd(*args)
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=timeout)
    _check(proc, cmd, proc.stdout, proc.stderr)


def generate_args(
    profiles: Path, out: Path, seed: int, per_type: int = PER_TYPE, types: str | None = None
) -> list[str]:
    args = [
        "generate",
        "--schema",
        str(SCHEMA),
        "--profiles",
        str(profiles),
        "--out",
        str(out),
        "--seed",
        str(seed),
        "--per-type",
        str(per_type),
        "--no-progress",
    ]
    return args + (["--types", types] if types else [])


@pytest.fixture(scope="session")
def profiles_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("integration") / "profiles"
    run_memsim(
        "profiles",
        "--schema",
        str(SCHEMA),
        "--n",
        str(N_PROFILES),
        "--seed",
        str(PROFILE_SEED),
        "--out",
        str(out),
        "--no-progress",
    )
    return out


@pytest.fixture(scope="session")
def generated(tmp_path_factory: pytest.TempPathFactory, profiles_dir: Path) -> dict[str, Path]:
    """Datasets from the same profiles, generated concurrently: ``main`` (SEED),
    ``same`` (SEED again, another folder), ``other`` (OTHER_SEED), ``evolving`` (the
    kinds over histories and times) and ``aggregative`` (aggregative questions only,
    AGGREGATIVE_PER_TYPE of them)."""
    base = tmp_path_factory.mktemp("integration")
    runs: dict[str, dict[str, Any]] = {
        "main": {"seed": SEED, "types": CLASSIC},
        "same": {"seed": SEED, "types": CLASSIC},
        "other": {"seed": OTHER_SEED, "types": CLASSIC},
        "evolving": {"seed": SEED, "types": EVOLVING},
        "aggregative": {"seed": SEED, "per_type": AGGREGATIVE_PER_TYPE, "types": "aggregative"},
    }
    jobs = []
    for name, kwargs in runs.items():
        cmd = _memsim_cmd(*generate_args(profiles_dir, base / f"dataset_{name}", **kwargs))
        jobs.append(
            (
                cmd,
                subprocess.Popen(
                    cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
                ),
            )
        )
    try:
        for cmd, proc in jobs:
            out_text, err_text = proc.communicate(timeout=300)
            _check(proc, cmd, out_text, err_text)
    finally:
        for _, proc in jobs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    return {name: base / f"dataset_{name}" for name in runs}


@pytest.fixture(scope="session")
def dataset_dir(generated: dict[str, Path]) -> Path:
    return generated["main"]


@pytest.fixture(scope="session")
def rerun_dirs(generated: dict[str, Path]) -> tuple[Path, Path]:
    """(the same seed again, another seed)."""
    return generated["same"], generated["other"]


@pytest.fixture(scope="session")
def aggregative_records(generated: dict[str, Path]) -> list[dict[str, Any]]:
    lines = (generated["aggregative"] / "dataset.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


@pytest.fixture(scope="session")
def records(dataset_dir: Path) -> list[dict[str, Any]]:
    lines = (dataset_dir / "dataset.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


@pytest.fixture(scope="session")
def profiles(profiles_dir: Path, records: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Profile JSON of every record, by profile id (read straight from disk)."""
    out: dict[str, dict[str, Any]] = {}
    for rec in records:
        pid = rec["profile_id"]
        if pid not in out:
            out[pid] = json.loads((profiles_dir / f"{pid}.json").read_text(encoding="utf-8"))
    return out


@pytest.fixture(scope="session")
def schema_raw() -> dict[str, Any]:
    raw: dict[str, Any] = yaml.safe_load(SCHEMA.read_text(encoding="utf-8"))
    return raw


@pytest.fixture(scope="session")
def locale() -> Any:
    """The dataset's locale data: English, with the schema's overlay (its attributes'
    own question wording) merged over it."""
    from memsim.schema import load_schema
    from memsim.verbalize import schema_locale

    return schema_locale(load_schema(SCHEMA))
