"""Metrics of one answered item, and their aggregation into result records.

Per item:

- recall@k: evidence messages among the first k retrieved, divided by
  ``min(k, number of evidence messages)`` (so retrieving k evidence messages out of
  more than k is a perfect score); undefined (None) without evidence;
- NDCG@k: binary relevance, ``DCG = sum over ranks r <= k of rel_r / log2(r + 1)``,
  divided by the DCG of a ranking with the evidence first;
- evidence seen: the share of the evidence messages among everything the reader gets.

Per group of items: accuracy (an unanswered item is wrong) with a 95% percentile
bootstrap interval (:data:`BOOTSTRAP` resamples, drawn from a generator seeded by the
run's seed and the group's name, so the interval is the same on every run), means of
the other metrics over the items where they are defined, and latency percentiles.
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Collection, Sequence

import numpy as np

BOOTSTRAP = 2000
CONFIDENCE = 0.95


def recall_at_k(ranked: Sequence[int], evidence: Collection[int], k: int) -> float | None:
    if not evidence:
        return None
    hits = sum(1 for mid in ranked[:k] if mid in evidence)
    return hits / min(k, len(evidence))


def ndcg_at_k(ranked: Sequence[int], evidence: Collection[int], k: int) -> float | None:
    if not evidence:
        return None
    dcg = sum(1.0 / math.log2(r + 2) for r, mid in enumerate(ranked[:k]) if mid in evidence)
    ideal = sum(1.0 / math.log2(r + 2) for r in range(min(k, len(evidence))))
    return dcg / ideal


def evidence_seen(seen: Collection[int], evidence: Collection[int]) -> float | None:
    if not evidence:
        return None
    return sum(1 for mid in evidence if mid in seen) / len(evidence)


def bootstrap_ci(correct: int, n: int, seed: int, name: str) -> tuple[float, float] | None:
    """95% percentile bootstrap interval of an accuracy of ``correct`` out of ``n``.

    Resampling n 0/1 outcomes with replacement and counting the 1s is a binomial draw
    with the observed rate, which is how it is drawn here (the same distribution as
    resampling the items, far faster)."""
    if n == 0:
        return None
    rng = np.random.default_rng(
        np.random.SeedSequence(seed, spawn_key=(7, zlib.crc32(name.encode())))
    )
    means = rng.binomial(n, correct / n, size=BOOTSTRAP) / n
    tail = (1.0 - CONFIDENCE) / 2 * 100
    low, high = np.percentile(means, [tail, 100 - tail])
    return float(low), float(high)


def mean(values: Sequence[float | None]) -> float | None:
    defined = [v for v in values if v is not None]
    return sum(defined) / len(defined) if defined else None


class LatencyHistogram:
    """Streaming latency percentiles: log-spaced bins (1% wide) from 10 ns to 1000 s,
    so millions of writes take a few kilobytes."""

    LOW, DECADES, PER_DECADE = -8.0, 11, 230

    def __init__(self) -> None:
        self.counts = np.zeros(self.DECADES * self.PER_DECADE + 1, dtype=np.int64)

    def add_ns(self, values_ns: Sequence[int]) -> None:
        if not len(values_ns):
            return
        seconds = np.maximum(np.asarray(values_ns, dtype=np.float64), 1.0) * 1e-9
        bins = np.floor((np.log10(seconds) - self.LOW) * self.PER_DECADE).astype(np.int64)
        np.add.at(self.counts, np.clip(bins, 0, len(self.counts) - 1), 1)

    def add_repeated_ns(self, value_ns: int, count: int) -> None:
        """``count`` latencies of ``value_ns`` each."""
        if count > 0:
            self.counts[self._bin(value_ns)] += count

    def _bin(self, value_ns: int) -> int:
        seconds = max(float(value_ns), 1.0) * 1e-9
        bin_ = math.floor((math.log10(seconds) - self.LOW) * self.PER_DECADE)
        return min(max(bin_, 0), len(self.counts) - 1)

    def merge(self, other: LatencyHistogram) -> None:
        self.counts += other.counts

    def percentile_ms(self, q: float) -> float | None:
        total = int(self.counts.sum())
        if total == 0:
            return None
        index = int(np.searchsorted(np.cumsum(self.counts), math.ceil(q / 100 * total)))
        centre = self.LOW + (index + 0.5) / self.PER_DECADE
        return float(10**centre * 1e3)
