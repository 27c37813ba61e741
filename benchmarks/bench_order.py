"""Mechanism ordering at one noise level: each accuracy with its interval, and each
neighbouring pair's difference on the same items with a paired interval.

Issue 15's target: oracle > bm25 > recent_k > no_memory at 10x noise with non-overlapping
95% intervals. `memsim bench` reports one interval per mechanism (a percentile bootstrap of
its accuracy); two mechanisms answer the same items, so the difference of their accuracies
has a narrower interval when the items are resampled together. This script runs the
benchmark loop itself (lexical reader, the seed's noise: the same answers as `memsim bench`)
and prints both, with the verdict of each against the target.

    python benchmarks/bench_order.py data/daily_life.en/dataset --noise 10
    python benchmarks/bench_order.py data/daily_life.en/dataset --noise 1,10,100 --k 5

Several levels share one pass over the data (each trajectory is infused once per level,
as `memsim bench` does); ``--k`` is the ranked mechanisms' k (default: the package's).
"""

from __future__ import annotations

import argparse
import itertools
import os
import time
from pathlib import Path

import numpy as np
from _machine import machine

ORDER = ("oracle", "bm25", "recent_k", "no_memory")
RESAMPLES = 2000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("dataset", type=Path)
    parser.add_argument("--noise", default="10", help="levels, comma-separated")
    parser.add_argument("--k", type=int, default=None, help="ranked mechanisms' k")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--limit", type=int, default=None)
    args = parser.parse_args()

    from memsim.bench import DEFAULT_K, MEMORY, NoisePool, detect_format, open_source
    from memsim.bench._data import native_noise_schema
    from memsim.bench._reader import LexicalReader
    from memsim.bench._run import BenchRun
    from memsim.schema import load_schema

    levels = [int(x) for x in args.noise.split(",")]
    k = args.k or DEFAULT_K
    load, start, cpu = os.getloadavg()[0], time.perf_counter(), time.process_time()
    source = open_source(args.dataset, "auto", args.limit, args.seed)
    pool = None
    if max(levels) > 1:
        pool = NoisePool(load_schema(native_noise_schema(source)), args.seed)
    run = BenchRun(
        [MEMORY.get(name)(k=k) for name in ORDER],
        LexicalReader(),
        levels,
        k,
        args.seed,
        detect_format(source.sample_times()),
        pool,
        None,
        timings=False,
    )
    run.run(source.items())
    for level in levels:
        correct = {
            name: np.array(
                [
                    r.answer is not None and r.answer == r.ground_truth
                    for r in run.cells[name, level].rows
                ]
            )
            for name in ORDER
        }
        report(correct, level, k, args.seed)
    print(
        f"{time.process_time() - cpu:.1f} s CPU, {time.perf_counter() - start:.1f} s wall, "
        f"load {load:.1f} -> {os.getloadavg()[0]:.1f}"
    )
    print("machine:", machine("numpy", "memsim"))


def report(correct: dict[str, np.ndarray], level: int, k: int, seed: int) -> None:
    """Each mechanism's accuracy with its interval (as the report's), then each
    neighbouring pair's paired difference, with the verdicts against the target."""
    from memsim.bench._metrics import bootstrap_ci

    n = len(correct[ORDER[0]])
    print(f"{n} questions, noise {level}x, k {k}, lexical reader, seed {seed}")
    intervals = {}
    for name in ORDER:
        hits = int(correct[name].sum())
        ci = bootstrap_ci(hits, n, seed, f"{name}|{level}|all|all")  # as the report's
        assert ci is not None
        intervals[name] = ci
        print(f"    {name:>10} {hits / n:.3f} [{ci[0]:.3f}, {ci[1]:.3f}]")
    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(11,)))
    picks = rng.integers(0, n, size=(RESAMPLES, n))
    for a, b in itertools.pairwise(ORDER):
        diff = correct[a].astype(np.int64) - correct[b].astype(np.int64)
        means = diff[picks].mean(axis=1)
        low, high = np.percentile(means, [2.5, 97.5])
        marginal = "apart" if intervals[a][0] > intervals[b][1] else "overlap"
        paired = "above 0" if low > 0 else "not above 0"
        print(
            f"    {a} - {b}: {diff.mean():+.3f}, paired 95% interval [{low:+.3f}, {high:+.3f}] "
            f"({paired}); the two marginal intervals {marginal}"
        )


if __name__ == "__main__":
    main()
