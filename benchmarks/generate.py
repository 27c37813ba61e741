"""Dataset generation throughput and peak memory at multiples of MemDaily's scale.

MemDaily has ~3,000 questions; scale k means 500*k questions per QA kind (3,000*k in
all), one profile per trajectory. Each scale runs in a fresh child process that samples
the profiles and then generates the dataset to disk, exactly as `make dataset` does,
and reports wall times, questions per second and its peak RSS (with its workers').
Memory should stay flat as the scale grows: everything streams to disk.

    python benchmarks/generate.py                 # scales 1 and 10
    python benchmarks/generate.py --scales 1,10,100 --workers 2
"""

from __future__ import annotations

import argparse
import json
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


def one(schema_path: Path, scale: float, seed: int, workers: int, tmp: Path) -> dict[str, float]:
    from memsim.dataset import GenerateOptions, generate_dataset, plan
    from memsim.graph import BRNet
    from memsim.profile import write_profiles
    from memsim.sampling import ProfileSampler
    from memsim.schema import load_schema

    schema = load_schema(schema_path)
    options = GenerateOptions(seed=seed, per_type=max(1, round(500 * scale)))
    n = len(plan(options))
    start = time.perf_counter()
    profiles = ProfileSampler(BRNet(schema)).profiles(seed, 0, n)
    write_profiles(
        profiles, tmp / "profiles", {"schema": {"name": schema.name}, "seed": seed, "start": 0}
    )
    sampled = time.perf_counter()
    counts = generate_dataset(
        schema, schema_path, tmp / "profiles", tmp / "dataset", options, workers=workers
    )
    done = time.perf_counter()
    peak_kib = max(
        resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
        resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss,
    )
    size = sum(f.stat().st_size for f in (tmp / "dataset").iterdir())
    return {
        "scale": scale,
        "questions": counts["trajectories"],
        "messages": counts["messages"],
        "profiles_s": sampled - start,
        "generate_s": done - sampled,
        "questions_per_s": counts["trajectories"] / (done - sampled),
        "peak_rss_mib": peak_kib / 1024,
        "dataset_mib": size / 2**20,
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--schema", type=Path, default=DEFAULT_SCHEMA)
    parser.add_argument("--scales", default="1,10")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--tmpdir", type=Path, default=None)
    parser.add_argument("--one", type=float, help=argparse.SUPPRESS)
    args = parser.parse_args()

    if args.one is not None:
        tmp = Path(tempfile.mkdtemp(prefix="memsim-bench-", dir=args.tmpdir))
        try:
            print(json.dumps(one(args.schema, args.one, args.seed, args.workers, tmp)))
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        return

    print("machine:", machine("numpy", "memsim"))
    schema = args.schema.relative_to(ROOT) if args.schema.is_relative_to(ROOT) else args.schema
    print(f"schema: {schema}; workers: {args.workers}; one profile per trajectory\n")
    header = (
        f"{'scale':>6} {'questions':>10} {'messages':>10} {'profiles s':>11} "
        f"{'generate s':>11} {'questions/s':>12} {'peak RSS MiB':>13} {'output MiB':>11}"
    )
    print(header)
    print("-" * len(header))
    for scale in (float(s) for s in args.scales.split(",")):
        cmd = [
            sys.executable,
            __file__,
            "--one",
            str(scale),
            "--schema",
            str(args.schema),
            "--seed",
            str(args.seed),
            "--workers",
            str(args.workers),
        ]
        if args.tmpdir:
            cmd += ["--tmpdir", str(args.tmpdir)]
        out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
        r = json.loads(out.strip().splitlines()[-1])
        print(
            f"{r['scale']:>5g}x {r['questions']:>10,} {r['messages']:>10,} "
            f"{r['profiles_s']:>11.1f} {r['generate_s']:>11.1f} "
            f"{r['questions_per_s']:>12,.0f} {r['peak_rss_mib']:>13,.0f} "
            f"{r['dataset_mib']:>11,.1f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
