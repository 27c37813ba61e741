"""Audit time per 1,000 questions and peak memory, at MemDaily scale and 10x, on our
generated data (every check: profiles and schema given) and on the real MemDaily.

Scale k means 500*k questions per QA kind (4,500*k in all with the nine kinds), as
`make dataset` builds them. The dataset is generated first (not timed); then a fresh
child process runs the whole audit on one core and reports its wall and CPU time, CPU
seconds per 1,000 questions beside issue 17's target (2) and its own peak RSS,
so the memory figure is the audit's alone. Per-item checks stream the dataset; only
the shortcut statistics (counters, a bounded reservoir) and a cache of profiles grow.

    python benchmarks/audit.py                     # scales 1 and 10, and MemDaily
    python benchmarks/audit.py --scales 1 --memdaily ../shared/memdaily
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _machine import machine

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_SCHEMA = ROOT / "schemas" / "daily_life.en.yaml"
DEFAULT_MEMDAILY = ROOT.parent / "shared" / "memdaily"


def generate(schema_path: Path, scale: float, seed: int, workers: int, out: Path) -> None:
    from memsim.dataset import GenerateOptions, generate_dataset, plan
    from memsim.graph import BRNet
    from memsim.profile import write_profiles
    from memsim.sampling import ProfileSampler
    from memsim.schema import load_schema

    schema = load_schema(schema_path)
    options = GenerateOptions(seed=seed, per_type=max(1, round(500 * scale)))
    n = len(plan(options))
    profiles = ProfileSampler(BRNet(schema)).profiles(seed, 0, n)
    write_profiles(
        profiles, out / "profiles", {"schema": {"name": schema.name}, "seed": seed, "start": 0}
    )
    generate_dataset(
        schema, schema_path, out / "profiles", out / "dataset", options, workers=workers
    )


def audit(
    data: Path, profiles: Path | None, schema: Path | None, fmt: str | None
) -> dict[str, float]:
    from memsim.audit import load_context, open_source, run_audit

    start, cpu = time.perf_counter(), time.process_time()
    ctx = load_context(open_source(data, fmt), profiles, schema)  # type: ignore[arg-type]
    report = run_audit(ctx)
    seconds = time.perf_counter() - start
    cpu = time.process_time() - cpu
    return {
        "questions": report.items,
        "messages": report.messages,
        "seconds": seconds,
        "cpu": cpu,
        "per_1000": cpu / report.items * 1000,
        "errors": report.count("error"),
        "peak_rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }


def child(*args: str) -> dict[str, float]:
    cmd = [sys.executable, __file__, *args]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    return dict(json.loads(out.strip().splitlines()[-1]))


TARGET_PER_1000 = 2.0
"""Issue 17: audit CPU seconds per 1,000 questions on one core."""


def row(label: str, r: dict[str, float]) -> str:
    met = "met" if r["per_1000"] <= TARGET_PER_1000 else "NOT met"
    return (
        f"{label:>14} {int(r['questions']):>10,} {int(r['messages']):>10,} {r['seconds']:>9.1f} "
        f"{r['cpu']:>7.1f} {r['per_1000']:>9.2f} {r['peak_rss_mib']:>13,.0f} "
        f"{int(r['errors']):>7}   target <= {TARGET_PER_1000:g}: {met}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--schema", type=Path, default=DEFAULT_SCHEMA)
    parser.add_argument("--scales", default="1,10")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2, help="for generating the data")
    parser.add_argument("--memdaily", type=Path, default=DEFAULT_MEMDAILY)
    parser.add_argument("--tmpdir", type=Path, default=None)
    parser.add_argument("--generate", type=float, help=argparse.SUPPRESS)
    parser.add_argument("--audit", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--format", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()

    if args.generate is not None:
        generate(args.schema, args.generate, args.seed, args.workers, args.tmpdir)
        print("{}")
        return
    if args.audit is not None:
        own = args.format != "memdaily"
        profiles = args.audit.parent / "profiles" if own else None
        print(json.dumps(audit(args.audit, profiles, args.schema if own else None, args.format)))
        return

    print("machine:", machine("numpy", "memsim"))
    print("audit: every check; our data with --profiles and --schema; one process per run,")
    print("one core (no --workers); CPU s = the audit's process time, imports excluded\n")
    header = (
        f"{'data':>14} {'questions':>10} {'messages':>10} {'wall s':>9} {'CPU s':>7} "
        f"{'CPU s/1000':>9} {'peak RSS MiB':>13} {'errors':>7}"
    )
    print(header)
    print("-" * len(header))
    for scale in (float(s) for s in args.scales.split(",")):
        tmp = Path(tempfile.mkdtemp(prefix="memsim-bench-audit-", dir=args.tmpdir))
        try:
            child(
                "--generate",
                str(scale),
                "--schema",
                str(args.schema),
                "--seed",
                str(args.seed),
                "--workers",
                str(args.workers),
                "--tmpdir",
                str(tmp),
            )
            r = child("--audit", str(tmp / "dataset"), "--schema", str(args.schema))
            print(row(f"memsim {scale:g}x", r), flush=True)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    if (args.memdaily / "01_simple_roles.json").is_file():
        r = child("--audit", str(args.memdaily), "--format", "memdaily")
        print(row("MemDaily", r), flush=True)
    else:
        print(f"{'MemDaily':>14} not found at {args.memdaily}")
    print(f"load average at the end: {' / '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
