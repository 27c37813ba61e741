"""The benchmark loop: trajectories x noise levels x memory mechanisms, one reader.

One trajectory at a time: it is infused with noise at each level (its own seeded
stream per level, ``SeedSequence(seed, spawn_key=(2, level, index in the file))``, so
the noise does not depend on ``--limit``, the mechanisms or the reader), each
mechanism observes its messages one by one and retrieves once, and the metrics are
kept; then the trajectory is dropped. Memory stays flat whatever the noise level: at
most one noisy trajectory, a reader batch per mechanism and level, and the per-item
metrics (a few numbers each) are held.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any

import numpy as np

from memsim._tokens import TokenCounter
from memsim.bench._infuse import infuse
from memsim.bench._lines import LineTokens
from memsim.bench._memory import Memory
from memsim.bench._metrics import LatencyHistogram, evidence_seen, ndcg_at_k, recall_at_k
from memsim.bench._pool import NoisePool
from memsim.bench._reader import BATCH, Reader, ReaderItem
from memsim.bench._times import TimeFormat
from memsim.bench._types import BenchItem, Message
from memsim.records import Record

Progress = Callable[[Iterable[Any], int], Iterable[Any]]
_MID = attrgetter("mid")


@dataclass
class Row:
    """The metrics of one item under one mechanism at one noise level."""

    qa_type: str
    scenario: str
    ground_truth: str
    recall_5: float | None
    ndcg_5: float | None
    recall_k: float | None
    ndcg_k: float | None
    seen: float | None
    memory_messages: int
    tokens: int | None
    answer: str | None = None


@dataclass
class Cell:
    """Everything measured for one (mechanism, noise level)."""

    rows: list[Row] = field(default_factory=list)
    write: dict[tuple[str, str], LatencyHistogram] = field(default_factory=dict)
    read: dict[tuple[str, str], LatencyHistogram] = field(default_factory=dict)
    pending: list[tuple[Row, ReaderItem]] = field(default_factory=list)


@dataclass
class NoiseStats:
    messages: int = 0
    noise: int = 0
    positions: list[float] = field(default_factory=list)
    """Each evidence message's relative position, in order (a few per trajectory)."""

    def add(self, item: BenchItem) -> None:
        n = len(item.messages)
        self.messages += n
        self.noise += len(item.labels.noise)
        for e in item.labels.evidence:
            self.positions.append(e / (n - 1) if n > 1 else 0.5)

    def extend(self, other: NoiseStats) -> None:
        """Add a later slice of trajectories (``--workers``)."""
        self.messages += other.messages
        self.noise += other.noise
        self.positions.extend(other.positions)

    def to_json(self) -> dict[str, Any]:
        total = 0.0
        for p in self.positions:  # summed in trajectory order, whatever the workers
            total += p
        pos = total / len(self.positions) if self.positions else None
        return {
            "messages": self.messages,
            "noise_messages": self.noise,
            "evidence_position_mean": None if pos is None else round(pos, 4),
        }


class BenchRun:
    def __init__(
        self,
        mechanisms: list[Memory],
        reader: Reader,
        levels: list[int],
        k: int,
        seed: int,
        fmt: TimeFormat,
        pool: NoisePool | None,
        tokens: TokenCounter | None,
        timings: bool = True,
    ) -> None:
        self.mechanisms, self.reader, self.levels, self.k = mechanisms, reader, levels, k
        self.seed, self.fmt, self.pool, self.tokens, self.timings = seed, fmt, pool, tokens, timings
        self.lines = None if tokens is None else LineTokens(tokens)
        self.cells = {(m.name, lv): Cell() for m in mechanisms for lv in levels}
        self.noise_stats = {lv: NoiseStats() for lv in levels}

    def run(self, items: Iterable[tuple[int, Record]]) -> None:
        for index, raw in items:
            allowed: list[int] = []
            if self.pool is not None and max(self.levels) > 1:
                prov = raw.qa.provenance
                fact_ids = list(prov.fact_ids) if prov is not None else []
                scenarios = self.pool.question_scenarios(raw.scenario, fact_ids)
                texts = [raw.qa.question, *(t.text for t in raw.turns)]
                allowed = self.pool.allowed(raw.type, scenarios, texts)
            for level in self.levels:
                rng = np.random.default_rng(
                    np.random.SeedSequence(self.seed, spawn_key=(2, level, index))
                )
                item = infuse(raw, level, self.fmt, self.pool, allowed, rng)
                self.noise_stats[level].add(item)
                self._measure(item, level)
        for cell in self.cells.values():
            self._flush(cell)

    def _measure(self, item: BenchItem, level: int) -> None:
        line_tokens = _LineCounts(item.messages)
        evidence = item.labels.evidence
        group = (item.qa_type, item.scenario)
        for memory in self.mechanisms:
            cell = self.cells[memory.name, level]
            memory.reset(item.labels)
            start = time.perf_counter_ns()
            memory.observe_all(item.messages)
            write_ns = time.perf_counter_ns() - start
            start = time.perf_counter_ns()
            retrieved = memory.retrieve(item.query)
            read_ns = time.perf_counter_ns() - start
            if self.timings:
                # the trajectory's writes are timed together; each gets their mean
                cell.write.setdefault(group, LatencyHistogram()).add_repeated_ns(
                    write_ns // max(len(item.messages), 1), len(item.messages)
                )
                cell.read.setdefault(group, LatencyHistogram()).add_ns([read_ns])
            ranked = [m.mid for m in retrieved]
            shown = tuple(sorted(retrieved, key=_MID))
            row = Row(
                item.qa_type,
                item.scenario,
                item.ground_truth,
                recall_at_k(ranked, evidence, 5) if memory.ranks else None,
                ndcg_at_k(ranked, evidence, 5) if memory.ranks else None,
                recall_at_k(ranked, evidence, self.k) if memory.ranks else None,
                ndcg_at_k(ranked, evidence, self.k) if memory.ranks else None,
                evidence_seen(set(ranked), evidence),
                len(shown),
                self._count(shown, line_tokens),
            )
            cell.rows.append(row)
            cell.pending.append(
                (row, ReaderItem(item.query.question, item.query.time, item.choices, shown))
            )
            if len(cell.pending) >= BATCH:
                self._flush(cell)

    def _count(self, shown: tuple[Message, ...], cache: _LineCounts) -> int | None:
        """Tokens of the rendered memory: the sum of its lines' counts (o200k never
        merges across a line end, and every line starts with '[')."""
        if self.lines is None:
            return None
        return cache.total(self.lines, shown)

    def _flush(self, cell: Cell) -> None:
        if not cell.pending:
            return
        answers = self.reader.answer([ri for _, ri in cell.pending])
        if len(answers) != len(cell.pending):
            raise RuntimeError(
                f"reader {self.reader.name} returned {len(answers)} answers "
                f"for {len(cell.pending)} items"
            )
        for (row, _), answer in zip(cell.pending, answers, strict=True):
            row.answer = answer
        cell.pending = []


class _LineCounts:
    """The token counts of one trajectory's memory lines, shared by its mechanisms: a
    few lines are counted one by one, a memory holding many of them (full_context,
    noise_only) has every line of the trajectory counted in one pass."""

    def __init__(self, messages: tuple[Message, ...]) -> None:
        self.messages = messages
        self.some: dict[int, int] = {}
        self.every: list[int] | None = None

    def total(self, lines: LineTokens, shown: tuple[Message, ...]) -> int:
        every = self.every
        if every is None and len(shown) > 64:
            every = self.every = lines.counts(self.messages)
        if every is not None:
            return sum(map(every.__getitem__, map(_MID, shown)))
        some, total = self.some, 0
        for m in shown:
            n = some.get(m.mid)
            if n is None:
                n = some[m.mid] = lines.count(m)
            total += n
        return total


def with_progress(items: Iterator[Any], total: int, progress: Progress | None) -> Iterable[Any]:
    return progress(items, total) if progress is not None else items
