"""Categorical nodes drawn from random bits with guide tables, vectorised over profiles.

Each row of a node's table (one per combination of its parents) becomes integer
thresholds on 53 random bits: the node takes value j when the bits lie between
threshold j-1 and threshold j, which is the inverse CDF with ``u = (bits + 0.5) / 2**53``.
A guide table (Chen and Asau's method) says, for each of the 2**GUIDE_BITS buckets of
the bits' top bits, how many thresholds lie below the bucket's start, so a draw is a
few integer operations and gathers per profile whatever the number of values.

A copy node is a mixture: one draw picks the source copied (or none), another the
value drawn from ``otherwise``. A distinct node (two relatives are never both
"mother") draws from its table and draws again, with the next index of its stream,
where it hit a value taken by an earlier slot: rejection sampling, which gives the
table row renormalised without the taken values, as the network's CPD says. Rows still
in conflict after ``MAX_REDRAWS`` (only when the taken values hold nearly all the
mass) take the exact renormalised row.

Draws by weights from uniforms for the other kinds are here too: :func:`choose` for a
few weights (phone prefixes, patterns), :class:`WeightedPicks` with a guide table for
lists of thousands (Faker's names).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from memsim.graph import BRNet, DiscreteConditionals, Node, inverse_cdf
from memsim.sampling._random import U64, Uniforms
from memsim.schema import Copy

Codes = NDArray[np.int64]
GUIDE_BITS = 10
MAX_REDRAWS = 16
_BITS = 53
_SHIFT = np.uint64(_BITS - GUIDE_BITS)


def thresholds(cdf: NDArray[np.float64]) -> U64:
    """The smallest bits b with ``(b + 0.5) / 2**53 >= c`` for each CDF entry c, so that
    comparing bits with them is comparing the centred uniform with the CDF."""
    scaled = np.asarray(cdf, dtype=np.float64) * 2.0**_BITS  # exact: a power of two
    whole = np.floor(scaled)
    out = (whole + ((scaled - whole) > 0.5)).astype(np.uint64)
    out[..., -1] = np.uint64(2**_BITS)  # the last value takes whatever is left
    return out


@dataclass(frozen=True)
class GuideTable:
    """The thresholds of every row of one table, flat, with their guide: per row and
    bucket, the value when the whole bucket lies inside one value's interval, else
    ``-1 - (the number of thresholds below the bucket's start)``."""

    thresholds: U64
    guide: NDArray[np.int32]
    width: int

    @classmethod
    def of(cls, probs: NDArray[np.float64]) -> GuideTable:
        cdf = np.cumsum(probs, axis=1)
        cdf /= cdf[:, -1:]
        limits = thresholds(cdf)
        starts = np.arange(2**GUIDE_BITS, dtype=np.uint64) << _SHIFT
        ends = starts + ((np.uint64(1) << _SHIFT) - np.uint64(1))
        below_start = np.stack([np.searchsorted(row, starts, side="right") for row in limits])
        below_end = np.stack([np.searchsorted(row, ends, side="right") for row in limits])
        guide = np.where(below_start == below_end, below_start, -1 - below_start)
        return cls(limits.ravel(), guide.ravel().astype(np.int32), probs.shape[1])

    def draw(self, rows: NDArray[np.intp] | None, bits: U64) -> Codes:
        """The value of each profile: its row of the table and its bits."""
        index = (bits >> _SHIFT).astype(np.intp)
        if rows is not None:
            index += rows << GUIDE_BITS
        codes = self.guide[index].astype(np.int64)
        mixed = np.flatnonzero(codes < 0)
        if len(mixed):  # a bucket across a threshold: step past those at or below the bits
            some, own = -1 - codes[mixed], bits[mixed]
            base = 0 if rows is None else rows[mixed] * self.width
            while True:
                step = own >= self.thresholds[base + some]
                if not step.any():
                    break
                some += step
            codes[mixed] = some
        return codes


def choose(weights: dict[str, float], u: NDArray[np.float64]) -> tuple[Codes, list[str]]:
    """Codes into ``list(weights)`` drawn with those weights."""
    keys = list(weights)
    cdf = np.cumsum([weights[k] for k in keys])
    codes = np.minimum(np.searchsorted(cdf / cdf[-1], u, side="right"), len(keys) - 1)
    return codes, keys


class WeightedPicks:
    """Indices drawn by uniforms with cumulative weights ``cdf``: exactly
    ``min(searchsorted(cdf, u * cdf[-1], "right"), len(cdf) - 1)``, by a guide table
    (a binary search per draw over a list of a thousand names costs more than the
    rest of a name column). Bucket b of the guide holds the count of weights at or
    below ``(b / K) * cdf[-1]``, a lower bound of the answer for every u in the bucket
    (K a power of two: ``u * K`` and ``b / K`` are exact, rounding is monotone); a
    draw starts there and steps past the weights at or below its ``u * cdf[-1]``."""

    def __init__(self, cdf: NDArray[np.float64]):
        self.cdf = np.append(cdf, np.inf)  # a stop past the end
        self.size = 1 << max(len(cdf) * 4 - 1, 1).bit_length()
        lows = (np.arange(self.size, dtype=np.float64) / self.size) * cdf[-1]
        self.guide = np.searchsorted(cdf, lows, side="right")
        self.last = len(cdf) - 1

    def pick(self, u: NDArray[np.float64]) -> Codes:
        x = u * self.cdf[-2]
        codes = self.guide[(u * self.size).astype(np.intp)]
        pending = np.flatnonzero(self.cdf[codes] <= x)
        while len(pending):
            codes[pending] += 1
            pending = pending[self.cdf[codes[pending]] <= x[pending]]
        out: Codes = np.minimum(codes, self.last)
        return out


class DiscreteDraws:
    """Draws every categorical node of a network drawn from a table (those below a
    binned number too); build once, reuse across batches."""

    def __init__(self, net: BRNet, conditionals: DiscreteConditionals):
        self.net = net
        self.conditionals = conditionals
        self._guides: dict[str, tuple[GuideTable, list[Node]]] = {}
        for node in net.tabled_nodes():
            table, parents = conditionals.table(node)
            self._guides[node.id] = (GuideTable.of(table), parents)

    def _rows(self, node: Node, columns: Mapping[str, Codes]) -> NDArray[np.intp] | None:
        parents = self._guides[node.id][1]
        if not parents:
            return None
        if len(parents) == 1:
            return columns[parents[0].id].astype(np.intp, copy=False)
        dims = [len(p.values) for p in parents]
        return np.ravel_multi_index([columns[p.id] for p in parents], dims)

    def draw(self, node: Node, columns: Mapping[str, Codes], uniforms: Uniforms) -> Codes:
        guide = self._guides[node.id][0]
        codes = guide.draw(self._rows(node, columns), uniforms.bits(node.id))
        dist = node.attribute.dist
        if isinstance(dist, Copy):
            return self._copy(node, dist, columns, uniforms, codes)
        if node.attribute.distinct:
            return self._distinct(node, columns, uniforms, codes)
        return codes

    def _copy(
        self, node: Node, dist: Copy, columns: Mapping[str, Codes], u: Uniforms, drawn: Codes
    ) -> Codes:
        total = sum(dist.sources.values())
        scale = 1.0 / total if total > 1.0 else 1.0  # sources may sum to 1 within tolerance
        cdf = np.cumsum([p * scale for p in dist.sources.values()])
        source = np.searchsorted(thresholds(np.append(cdf, 1.0))[:-1], u.bits(node.id, 1), "right")
        out = drawn.copy()
        for k, ref in enumerate(dist.sources):
            parent = self.net.ref(node, ref)
            mapping = np.array([node.values.index(v) for v in parent.values], dtype=np.int64)
            hit = source == k
            out[hit] = mapping[columns[parent.id][hit]]
        return out

    def _distinct(
        self, node: Node, columns: Mapping[str, Codes], uniforms: Uniforms, codes: Codes
    ) -> Codes:
        taken = [
            columns[pid]
            for pid in node.parents
            if self.net[pid].key.kind == node.key.kind and self.net[pid].key.attr == node.key.attr
        ]
        if not taken:
            return codes
        guide = self._guides[node.id][0]
        all_rows = self._rows(node, columns)
        pending = np.arange(len(codes))
        for redraw in range(1, MAX_REDRAWS + 2):
            clash = np.zeros(len(pending), dtype=bool)
            for column in taken:
                clash |= codes[pending] == column[pending]
            pending = pending[clash]
            if not len(pending):
                return codes
            if redraw > MAX_REDRAWS:
                break
            rows = None if all_rows is None else all_rows[pending]
            codes[pending] = guide.draw(rows, uniforms.bits(node.id, redraw, pending))
        subset = {pid: column[pending] for pid, column in columns.items() if pid in node.parents}
        probs = self.conditionals.probs(node, subset, len(pending))
        codes[pending] = inverse_cdf(probs, uniforms.draw(node.id, MAX_REDRAWS + 1, pending))
        return codes
