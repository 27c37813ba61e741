"""Wall and CPU time of each step of `make dataset`, run as the Makefile runs it.

The steps are the Makefile's recipe for `make dataset`: memsim's bytecode (which its
install step, run before every target, refreshes), schema validate, profiles, generate
and audit, with its defaults (PROFILES, PER_TYPE and WORKERS read from the Makefile:
4,500 profiles, seed 0, 500 questions per kind, 2 workers), each a process of this
interpreter, into a temporary folder that is removed afterwards. The total is what
`make dataset` takes once `.venv` exists (the audit exits 1 when it finds an error;
that is reported, not fatal here). Then, outside the total, the audit again on one
worker: its CPU seconds per 1,000 questions beside issue 17's target (2 s on one core),
and whether its report is the same as the 2-worker one (bar the seconds).

    python benchmarks/make_dataset.py
    python benchmarks/make_dataset.py --locale zh
"""

from __future__ import annotations

import argparse
import json
import os
import re
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
AUDIT_TARGET = 2.0
"""Issue 17: audit CPU seconds per 1,000 questions on one core."""


def makefile_default(name: str, fallback: int) -> int:
    found = re.search(rf"^{name}\s*\?=\s*(\d+)", (ROOT / "Makefile").read_text(), re.MULTILINE)
    return int(found.group(1)) if found else fallback


def timed(cmd: list[str]) -> tuple[float, float, int]:
    """Wall seconds, CPU seconds (the process and its children) and exit status of
    ``memsim CMD`` (of ``python CMD`` when CMD starts with ``-m``)."""
    start, before = time.perf_counter(), os.times()
    args = cmd if cmd[0] == "-m" else ["-m", "memsim", *cmd]
    proc = subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True)
    seconds = time.perf_counter() - start
    after = os.times()
    cpu = (after.children_user - before.children_user) + (
        after.children_system - before.children_system
    )
    if proc.returncode not in (0, 1) or (proc.returncode == 1 and cmd[0] != "audit"):
        sys.exit(f"{' '.join(cmd[:1])} failed ({proc.returncode}):\n{proc.stderr.decode()}")
    return seconds, cpu, proc.returncode


def same_report(a: Path, b: Path) -> bool:
    """The two audit reports are identical but for their wall-clock seconds."""

    def timeless(data: object) -> object:
        if isinstance(data, dict):
            return {k: timeless(v) for k, v in data.items() if k != "seconds"}
        if isinstance(data, list):
            return [timeless(x) for x in data]
        return data

    return bool(
        timeless(json.loads((a / "report.json").read_text()))
        == timeless(json.loads((b / "report.json").read_text()))
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--locale", default="en")
    parser.add_argument("--profiles", type=int, default=makefile_default("PROFILES", 4500))
    parser.add_argument("--per-type", type=int, default=makefile_default("PER_TYPE", 500))
    parser.add_argument("--workers", type=int, default=makefile_default("WORKERS", 2))
    parser.add_argument("--no-one-core", action="store_true", help="skip the 1-worker audit")
    args = parser.parse_args()
    schema = str(ROOT / "schemas" / f"daily_life.{args.locale}.yaml")
    out = Path(tempfile.mkdtemp(prefix="memsim-make-dataset-"))
    audit = ["audit", str(out / "dataset"), "--profiles", str(out / "profiles"),
             "--schema", schema, "--no-progress"]  # fmt: skip
    steps = {
        # the Makefile's install step, which every target runs first (see the Makefile)
        "bytecode": ["-m", "compileall", "-q", "memsim"],
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
        "audit": [*audit, "--report", str(out / "audit"), "--workers", str(args.workers)],
    }  # fmt: skip
    print(machine("numpy", "memsim"))
    load_start = os.getloadavg()
    print(
        f"make dataset LOCALE={args.locale}: {args.profiles} profiles, {args.per_type}/kind, "
        f"--workers {args.workers}\n"
    )
    total = cpu_total = floor = 0.0
    print(f"{'step':<16} {'wall s':>7} {'CPU s':>7}   (CPU: the step's process and its workers)")
    try:
        for name, cmd in steps.items():
            seconds, cpu, status = timed(cmd)
            total += seconds
            cpu_total += cpu
            # on idle cores a step takes at least its CPU time spread over its processes
            floor += cpu / (args.workers if "--workers" in cmd else 1)
            extra = "   the audit found errors (exit 1)" if status == 1 else ""
            print(f"{name:<16} {seconds:>7.1f} {cpu:>7.1f}{extra}", flush=True)
        met = "met" if total <= TARGET_S else "NOT met"
        target = f"target <= {TARGET_S:g} s wall: {met}"
        print(f"{'total':<16} {total:>7.1f} {cpu_total:>7.1f}   {target}")
        met = "met" if floor <= TARGET_S else "NOT met"
        print(
            f"{'CPU floor':<16} {floor:>7.1f} {'':>7}   the wall time these CPU seconds allow on "
            f"{args.workers} idle cores (each step's CPU over its processes), target <= "
            f"{TARGET_S:g} s: {met} (what a loaded machine's wall time cannot show)"
        )
        manifest = json.loads((out / "dataset" / "manifest.json").read_text())
        questions = int(manifest["counts"]["trajectories"])
        if not args.no_one_core:
            seconds, cpu, _ = timed([*audit, "--report", str(out / "audit1"), "--workers", "1"])
            per = cpu / questions * 1000
            met = "met" if per <= AUDIT_TARGET else "NOT met"
            same = "identical" if same_report(out / "audit", out / "audit1") else "DIFFERENT"
            print(
                f"\naudit on 1 worker (not in the total): {seconds:.1f} s wall, {cpu:.1f} s CPU, "
                f"{per:.2f} CPU s per 1,000 questions ({questions:,}), target <= "
                f"{AUDIT_TARGET:g}: {met}; report {same} to the {args.workers}-worker one"
            )
        loads = " / ".join(f"{x:.2f}" for x in load_start)
        print(f"load average at the start {loads}; at the end", end=" ")
        print(" / ".join(f"{x:.2f}" for x in os.getloadavg()))
    finally:
        shutil.rmtree(out, ignore_errors=True)


if __name__ == "__main__":
    main()
