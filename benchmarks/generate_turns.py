"""`memsim generate` of this checkout against another's, in turns (base, this, base,
this, ...): wall seconds, CPU seconds of the parent and of its workers, and the load
average before each run, on the same profiles folder and options.

A shared machine's load moves wall time by more than most changes do, so only runs
taken in turns compare; the CPU seconds move less. Each run is a fresh interpreter of
its checkout's own ``.venv`` (so each imports its own memsim), writing into a
temporary folder; the last run's output files of each checkout are compared by sha256,
so a change meant to keep the output shows that it does.

    python benchmarks/generate_turns.py --base /work/main --profiles P   # daily life en
    python benchmarks/generate_turns.py --base /work/main --profiles P --locale zh --rounds 3
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from _machine import machine

ROOT = Path(__file__).resolve().parents[1]
RUN = """
import json, os, resource, sys, time
start = time.perf_counter()
from memsim.cli._main import main
sys.argv = ["memsim", *sys.argv[1:]]
try:
    main()
except SystemExit as exc:
    if exc.code not in (0, None):
        raise
me = resource.getrusage(resource.RUSAGE_SELF)
kids = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"wall": time.perf_counter() - start,
                  "parent": me.ru_utime + me.ru_stime,
                  "workers": kids.ru_utime + kids.ru_stime}), file=sys.stderr)
"""
"""Run in the checkout's interpreter: the CLI, then its own and its reaped workers' CPU."""


def one(root: Path, args: argparse.Namespace, out: Path) -> dict[str, float]:
    python = root / ".venv" / "bin" / "python"
    schema = root / "schemas" / f"daily_life.{args.locale}.yaml"
    cmd = [
        str(python), "-c", RUN, "generate", "--schema", str(schema), "--profiles",
        str(args.profiles), "--out", str(out), "--seed", "0", "--per-type",
        str(args.per_type), "--workers", str(args.workers),
    ]  # fmt: skip
    load = os.getloadavg()[0]
    proc = subprocess.run(cmd, cwd=root, capture_output=True, text=True, check=True)
    figures: dict[str, float] = json.loads(proc.stderr.strip().splitlines()[-1])
    return {**figures, "load": load}


def digests(folder: Path) -> dict[str, str]:
    files = sorted(folder.iterdir())
    return {f.name: hashlib.sha256(f.read_bytes()).hexdigest()[:8] for f in files}


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--base", type=Path, required=True, help="the other checkout")
    parser.add_argument("--profiles", type=Path, required=True, help="a profiles folder")
    parser.add_argument("--locale", default="en")
    parser.add_argument("--per-type", type=int, default=500)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    args.profiles = args.profiles.resolve()
    print(machine("numpy", "memsim"))
    print(
        f"memsim generate, daily_life.{args.locale}, --per-type {args.per_type}, "
        f"--workers {args.workers}, seed 0; base {args.base}, this {ROOT}\n"
    )
    print(f"{'run':<6} {'wall s':>7} {'CPU s':>7} {'parent':>7} {'workers':>8} {'load':>5}")
    tmp = Path(tempfile.mkdtemp(prefix="memsim-turns-"))
    totals: dict[str, list[float]] = {"base": [], "this": []}
    try:
        for _ in range(args.rounds):
            for name, root in (("base", args.base.resolve()), ("this", ROOT)):
                out = tmp / name
                shutil.rmtree(out, ignore_errors=True)
                r = one(root, args, out)
                cpu = r["parent"] + r["workers"]
                totals[name].append(cpu)
                print(
                    f"{name:<6} {r['wall']:7.2f} {cpu:7.2f} {r['parent']:7.2f} "
                    f"{r['workers']:8.2f} {r['load']:5.1f}",
                    flush=True,
                )
        same = digests(tmp / "base") == digests(tmp / "this")
        for name, cpu in totals.items():
            print(f"{name}: CPU s {', '.join(f'{c:.2f}' for c in cpu)}")
        print("output files:", "identical" if same else "DIFFERENT", digests(tmp / "this"))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
