"""``memsim bench --workers N``: the trajectories in contiguous chunks, run by N forked
processes (each takes the next chunk when it is done with one), merged in order into
exactly what one process gives.

Each trajectory's noise comes from its own seeded stream (its index in the file), the
mechanisms keep no memory across trajectories, and the offline readers answer each
item alone, so a chunk's rows are those one process would make for it. The parent
appends the chunks' rows in file order, adds their latency histograms, and replays
their noise statistics in order (a float sum depends on the order of its terms), so
``results.json`` is byte-identical whatever the worker count (``--no-timings``; the
latencies are measured). There are :data:`CHUNKS` chunks per worker, not one slice
each, so that both cores stay busy to the end: a trajectory's cost depends on its QA
kind, and a dataset holds its kinds in runs (with two halves, the first half of
``make bench``'s data took 10% more CPU than the second). Workers are forked: they
inherit the trajectories, the noise pool, the token counter and the mechanisms (with
the models' weights if the parent loaded them; a model is loaded on first use, and a
warm vector cache never needs one) instead of building their own. Only non-LLM
readers run in workers: an LLM reader's client (its connections, its concurrency
bound) belongs to one process.
"""

from __future__ import annotations

import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from memsim._shard import Shard
from memsim.bench._run import BenchRun, Cell, NoiseStats
from memsim.records import Record

CHUNKS = 16
"""Chunks per worker: the last chunk to finish is at most about 1/16 of a worker's share."""
_INHERITED: tuple[BenchRun, list[tuple[int, Record]]] | None = None
"""What the forked workers inherit: the run (with its mechanisms) and the items."""


@dataclass
class Slice:
    """What one chunk measured."""

    cells: dict[tuple[str, int], Cell]
    noise: dict[int, NoiseStats]


def fork_available() -> bool:
    return "fork" in multiprocessing.get_all_start_methods() and os.name == "posix"


def bounds(total: int, workers: int) -> list[tuple[int, int]]:
    """``workers`` contiguous slices of ``range(total)``, sizes differing by at most 1
    (the shards' ranges: :class:`memsim._shard.Shard`)."""
    n = max(1, min(workers, total))
    return [Shard(i, n).bounds(total) for i in range(n)]


def run_parallel(run: BenchRun, items: list[tuple[int, Record]], workers: int) -> None:
    """Fill ``run`` as ``run.run(items)`` would, in ``workers`` forked processes."""
    global _INHERITED
    processes = max(1, min(workers, len(items)))
    slices = bounds(len(items), processes * CHUNKS)
    _INHERITED = (run, items)
    try:
        with ProcessPoolExecutor(processes, mp_context=multiprocessing.get_context("fork")) as pool:
            futures = [pool.submit(_child, start, stop) for start, stop in slices]
            done = [f.result() for f in futures]
    finally:
        _INHERITED = None
    for part in done:
        for key, cell in part.cells.items():
            mine = run.cells[key]
            mine.rows.extend(cell.rows)
            for table, theirs in ((mine.write, cell.write), (mine.read, cell.read)):
                for group, histogram in theirs.items():
                    if group in table:
                        table[group].merge(histogram)
                    else:
                        table[group] = histogram
        for level, stats in part.noise.items():
            run.noise_stats[level].extend(stats)


def _child(start: int, stop: int) -> Slice:
    assert _INHERITED is not None  # set by the parent before the fork
    run, items = _INHERITED
    # a worker runs several chunks: each gets empty cells (the mechanisms' caches stay)
    run.cells = {key: Cell() for key in run.cells}
    run.noise_stats = {level: NoiseStats() for level in run.noise_stats}
    try:
        run.run(items[start:stop])
    finally:  # the vectors this worker embedded serve the next run
        for memory in run.mechanisms:
            flush = getattr(memory, "flush", None)
            if flush is not None:
                flush()
    return Slice(run.cells, run.noise_stats)
