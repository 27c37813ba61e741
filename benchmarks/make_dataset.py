"""Wall time of each step of `make dataset`, run as the Makefile runs it.

The steps are the Makefile's recipe for `make dataset` (schema validate, profiles,
generate, audit), with its defaults (3,000 profiles, seed 0, 500 questions per kind,
2 workers), each a `memsim` process of this interpreter, into a temporary folder that
is removed afterwards. The total is what `make dataset` takes once `.venv` exists.

    python benchmarks/make_dataset.py
    python benchmarks/make_dataset.py --locale zh
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _machine import machine

ROOT = Path(__file__).resolve().parents[1]
TARGET_S = 10.0
"""Issue 17: `make dataset` at MemDaily scale, audit included, on 2 cores."""


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--locale", default="en")
    parser.add_argument("--profiles", type=int, default=3000)
    parser.add_argument("--per-type", type=int, default=500)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    schema = str(ROOT / "schemas" / f"daily_life.{args.locale}.yaml")
    out = Path(tempfile.mkdtemp(prefix="memsim-make-dataset-"))
    steps = {
        "schema validate": ["schema", "validate", schema],
        "profiles": [
            "profiles", "--schema", schema, "--n", str(args.profiles), "--seed", "0",
            "--out", str(out / "profiles"), "--no-progress",
        ],
        "generate": [
            "generate", "--schema", schema, "--profiles", str(out / "profiles"),
            "--out", str(out / "dataset"), "--seed", "0", "--per-type", str(args.per_type),
            "--workers", str(args.workers), "--no-progress",
        ],
        "audit": [
            "audit", str(out / "dataset"), "--profiles", str(out / "profiles"),
            "--schema", schema, "--report", str(out / "audit"), "--no-progress",
            "--workers", str(args.workers),
        ],
    }  # fmt: skip
    print(machine("numpy", "memsim"))
    print(f"make dataset LOCALE={args.locale}: {args.profiles} profiles, {args.per_type}/kind\n")
    total = 0.0
    cpu_total = 0.0
    print(
        f"{'step':<16} {'wall s':>7} {'CPU s':>7}   (CPU: this step's processes, children included)"
    )
    try:
        for name, cmd in steps.items():
            start, before = time.perf_counter(), os.times()
            subprocess.run(
                [sys.executable, "-m", "memsim", *cmd], cwd=ROOT, check=True, capture_output=True
            )
            seconds = time.perf_counter() - start
            after = os.times()
            cpu = (after.children_user - before.children_user) + (
                after.children_system - before.children_system
            )
            total += seconds
            cpu_total += cpu
            extra = ""
            if name == "audit":
                per = cpu / (args.per_type * 6) * 1000
                extra = f"   {per:.1f} CPU s per 1,000 questions (target <= 2 on one core)"
            print(f"{name:<16} {seconds:>7.1f} {cpu:>7.1f}{extra}")
        met = "met" if total <= TARGET_S else "NOT met"
        print(
            f"{'total':<16} {total:>7.1f} {cpu_total:>7.1f}   target <= {TARGET_S:g} s wall: {met}"
        )
        print(f"load at the end: {' / '.join(f'{x:.2f}' for x in os.getloadavg())}")
    finally:
        shutil.rmtree(out, ignore_errors=True)


if __name__ == "__main__":
    main()
