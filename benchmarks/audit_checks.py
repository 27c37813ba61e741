"""CPU seconds of each audit check, one process and one worker, and what the whole run
spends besides: reading and checking the profiles (timed apart, whichever check reads a
profile first), reading the dataset and the framework, and the cyclic collector. The
audit reads the next 128 items' profiles ahead (``ProfileStore.prefetch``): their reads
are still timed apart, and freeing the profiles they push out of the cache (about 0.3 s
on 4,500 questions, which the first check to ask paid before) counts in the framework's
line.

Each check's ``start``, ``visit`` and ``finish`` are timed with ``time.process_time``
(about 1.5 us a call, 0.6 s on 4,500 questions and 41 checks, spread evenly); the report
is the audit's own. Without a dataset, `make dataset`'s (seed 0, 4,500 profiles, 500
questions per kind) is generated into a temporary folder first (not timed).

    python benchmarks/audit_checks.py                                 # make dataset's, en
    python benchmarks/audit_checks.py --locale zh
    python benchmarks/audit_checks.py data/daily_life.en/dataset \\
        --profiles data/daily_life.en/profiles --schema schemas/daily_life.en.yaml
    python benchmarks/audit_checks.py ../shared/memdaily --format memdaily
"""

from __future__ import annotations

import argparse
import dataclasses
import gc
import os
import shutil
import tempfile
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from _machine import machine

ROOT = Path(__file__).resolve().parents[1]
TARGET = 2.0
"""Issue 17: audit CPU seconds per 1,000 questions on one core."""


class Clock:
    """CPU seconds per check, with the profile reads made inside a check set apart."""

    def __init__(self) -> None:
        self.checks: dict[str, float] = {}
        self.reads = 0.0
        self.collector = 0.0
        self._reading = 0.0
        self._gc_began = 0.0

    def timed(self, name: str, call: Any, *args: Any) -> Any:
        began, reads = time.process_time(), self.reads
        try:
            return call(*args)
        finally:
            spent = time.process_time() - began - (self.reads - reads)
            self.checks[name] = self.checks.get(name, 0.0) + spent

    def reader(self, read: Any) -> Any:
        def timed_read(*args: Any) -> Any:
            began = time.process_time()
            try:
                return read(*args)
            finally:
                self.reads += time.process_time() - began

        return timed_read

    def on_gc(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._gc_began = time.process_time()
        else:
            self.collector += time.process_time() - self._gc_began


class TimedRun:
    def __init__(self, clock: Clock, name: str, run: Any):
        self.clock, self.name, self.run = clock, name, run

    def visit(self, item: Any) -> Any:
        found = self.clock.timed(self.name, self.run.visit, item)
        return None if found is None else list(found)

    def finish(self) -> Iterable[Any]:
        return list(self.clock.timed(self.name, lambda: list(self.run.finish())))


def instrument(clock: Clock) -> None:
    import memsim.audit._context as context
    from memsim.audit._framework import CHECKS

    context.read_profile = clock.reader(context.read_profile)  # type: ignore[attr-defined]
    for name in CHECKS.names():
        check = CHECKS.get(name)

        def start(ctx: Any, stats: Any, check: Any = check) -> TimedRun:
            return TimedRun(clock, check.name, clock.timed(check.name, check.start, ctx, stats))

        CHECKS._items[name] = dataclasses.replace(check, start=start)


def make_dataset(locale: str, out: Path) -> tuple[Path, Path, Path]:
    import subprocess
    import sys

    schema = ROOT / "schemas" / f"daily_life.{locale}.yaml"
    run = [sys.executable, "-m", "memsim"]
    subprocess.run(
        [*run, "profiles", "--schema", str(schema), "--n", "4500", "--seed", "0",
         "--out", str(out / "profiles"), "--no-progress"],
        check=True, capture_output=True,
    )  # fmt: skip
    subprocess.run(
        [*run, "generate", "--schema", str(schema), "--profiles", str(out / "profiles"),
         "--out", str(out / "dataset"), "--seed", "0", "--per-type", "500", "--workers", "2",
         "--no-progress"],
        check=True, capture_output=True,
    )  # fmt: skip
    return out / "dataset", out / "profiles", schema


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("data", nargs="?", type=Path)
    parser.add_argument("--profiles", type=Path)
    parser.add_argument("--schema", type=Path)
    parser.add_argument("--format", default=None)
    parser.add_argument("--locale", default="en", help="of the generated dataset")
    args = parser.parse_args()

    from memsim.audit import load_context, open_source, run_audit

    tmp = None
    data, profiles, schema = args.data, args.profiles, args.schema
    if data is None:
        tmp = Path(tempfile.mkdtemp(prefix="memsim-audit-checks-"))
        print(f"generating make dataset's data (LOCALE={args.locale}) into {tmp} ...", flush=True)
        data, profiles, schema = make_dataset(args.locale, tmp)
    try:
        clock = Clock()
        instrument(clock)
        gc.callbacks.append(clock.on_gc)
        print(machine("numpy", "memsim"))
        began = time.process_time()
        ctx = load_context(open_source(data, args.format), profiles, schema)
        report = run_audit(ctx)
        total = time.process_time() - began
    finally:
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)
    checks = sum(clock.checks.values())
    rest = total - checks - clock.reads
    print(f"\n{report.items:,} questions, {report.messages:,} messages; CPU s, one worker\n")
    for name, seconds in sorted(clock.checks.items(), key=lambda kv: (-kv[1], kv[0])):
        print(f"{seconds:8.2f}  {name}")
    print(f"{clock.reads:8.2f}  (reading and checking the profiles)")
    print(f"{rest:8.2f}  (reading the dataset, the framework, the timers)")
    print(f"{clock.collector:8.2f}  (of all the above: the cyclic collector)")
    per = total / max(report.items, 1) * 1000
    met = "met" if per <= TARGET else "NOT met"
    print(f"{total:8.2f}  in all: {per:.2f} CPU s per 1,000 questions, target <= {TARGET:g}: {met}")
    print(f"load average at the end {' / '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
