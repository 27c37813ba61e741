"""The README's Slurm recipe, run as Slurm would run it (its ``#SBATCH`` lines are
comments to bash): three array tasks, then ``memsim merge``, which must give the
folders one machine makes."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.merge.test_merge import files_of

ROOT = Path(__file__).parents[2]
SCRIPT = ROOT / "scripts" / "memsim-shard.sbatch"
SCHEMA = ROOT / "schemas" / "daily_life.en.yaml"


def test_three_array_tasks_merge_into_one_machines_dataset(tmp_path: Path) -> None:
    memsim = tmp_path / "memsim"  # this interpreter's memsim, as the tasks' MEMSIM
    memsim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m memsim "$@"\n')
    memsim.chmod(0o755)
    env = {**os.environ, "MEMSIM": str(memsim), "SCHEMA": str(SCHEMA), "SEED": "4",
           "PER_TYPE": "6", "TYPES": "simple,post_processing", "OUT": str(tmp_path / "out"),
           "SLURM_ARRAY_TASK_COUNT": "3", "SLURM_CPUS_PER_TASK": "1"}  # fmt: skip
    for task in range(3):
        done = subprocess.run(
            ["bash", str(SCRIPT)], env={**env, "SLURM_ARRAY_TASK_ID": str(task)},
            cwd=ROOT, capture_output=True, text=True, timeout=600,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
    shards = tmp_path / "out"
    run = [str(memsim)]
    for what in ("profiles", "dataset"):
        parts = [str(shards / f"shard-{i}" / what) for i in range(3)]
        merged = subprocess.run([*run, "merge", *parts, "--out", str(tmp_path / what)],
                                capture_output=True, text=True, timeout=300)  # fmt: skip
        assert merged.returncode == 0, merged.stderr
    whole = tmp_path / "whole"
    for args in (
        ["profiles", "--schema", SCHEMA, "--n", "12", "--seed", "4", "--out", whole / "p"],
        ["generate", "--schema", SCHEMA, "--profiles", whole / "p", "--out", whole / "d",
         "--seed", "4", "--per-type", "6", "--types", "simple,post_processing"],
    ):  # fmt: skip
        made = subprocess.run([*run, *map(str, args), "--no-progress"], capture_output=True,
                              text=True, timeout=300)  # fmt: skip
        assert made.returncode == 0, made.stderr
    assert files_of(tmp_path / "profiles") == files_of(whole / "p")
    assert files_of(tmp_path / "dataset") == files_of(whole / "d")
