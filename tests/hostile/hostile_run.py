"""Helpers of the hostile-input tests. Hostile inputs are run as a user runs them: the ``memsim`` command in a subprocess, on
real files. Every bad input must end in a clear message and exit status 2 (or an
audit finding and exit status 1), never a traceback, and leave no half-written output.

``build`` makes a small dataset (60 profiles, 10 questions per kind).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = ROOT / "schemas" / "daily_life.en.yaml"
SCHEMA_ZH = ROOT / "schemas" / "daily_life.zh.yaml"
N_PROFILES = 90
PER_TYPE = 10


def memsim(
    *args: str | Path,
    env: dict[str, str] | None = None,
    timeout: float = 300,
    prefix: Sequence[str] = (),
) -> subprocess.CompletedProcess[str]:
    """Run ``python -m memsim ARGS`` from the repository root (after ``prefix``)."""
    cmd = [*prefix, sys.executable, "-m", "memsim", *map(str, args)]
    return subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=timeout, env=env)


def assert_refused(proc: subprocess.CompletedProcess[str], *needles: str, code: int = 2) -> None:
    """Exit ``code``, no traceback, and every needle in the output."""
    out = proc.stdout + proc.stderr
    assert proc.returncode == code, f"exit {proc.returncode}, wanted {code}:\n{out}"
    assert "Traceback" not in out, out
    for needle in needles:
        assert needle in out, f"{needle!r} not in:\n{out}"


def build(folder: Path, schema: Path, seed: int = 0) -> Path:
    """profiles + generate into ``folder``; return it."""
    profiles, dataset = folder / "profiles", folder / "dataset"
    proc = memsim(
        "profiles", "--schema", schema, "--n", N_PROFILES, "--seed", seed, "--out", profiles
    )
    assert proc.returncode == 0, proc.stderr
    proc = memsim(
        "generate",
        "--schema",
        schema,
        "--profiles",
        profiles,
        "--out",
        dataset,
        "--seed",
        seed,
        "--per-type",
        PER_TYPE,
        "--no-progress",
    )
    assert proc.returncode == 0, proc.stderr
    return folder


def audit_args(folder: Path, schema: Path = SCHEMA) -> list[str | Path]:
    return [
        "audit",
        folder / "dataset",
        "--profiles",
        folder / "profiles",
        "--schema",
        schema,
        "--no-progress",
    ]


def as_unprivileged() -> list[str]:
    """A command prefix under which file permissions hold: as root, the capabilities
    that override them are dropped (setpriv); as anyone else, nothing."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        import pytest

        pytest.skip("running as root without setpriv: permissions cannot be tested")
    return [setpriv, "--bounding-set=-dac_override,-dac_read_search,-fowner,-chown"]
