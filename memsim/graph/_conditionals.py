"""P(node | parents) for the categorical nodes, vectorised over many parent assignments.

This is the single definition of a discrete node's conditional distribution: the
sampler draws from it, and the pgmpy CPDs are built from it by enumerating every
parent assignment. Tests then hold the sampler's frequencies against pgmpy's exact
inference, which checks the graph wiring and the sampling machinery end to end.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
from numpy.typing import NDArray

from memsim.graph._brnet import BRNet, Node
from memsim.schema import Categorical, Copy, Derived, Probs, Table, check_probs, combination
from memsim.schema._derived import lookup_table

Codes = NDArray[np.int64]
Matrix = NDArray[np.float64]


class DiscreteConditionals:
    """Precomputed tables of the network's categorical nodes drawn from a table
    (:meth:`BRNet.tabled_nodes`)."""

    def __init__(self, net: BRNet):
        self.net = net
        self._tables: dict[tuple[str, str], tuple[Matrix, list[Node]]] = {}
        for node in net.tabled_nodes():
            dist = node.attribute.dist
            if isinstance(dist, Derived):  # a lookup: one value per parent combination
                self._tables[(node.id, "base")] = self._deterministic(node, dist)
                continue
            base = dist.otherwise if isinstance(dist, Copy) else dist
            assert isinstance(base, Categorical | Table)  # categorical nodes take no other kind
            self._tables[(node.id, "base")] = self._table(node, base)

    def _deterministic(self, node: Node, dist: Derived) -> tuple[Matrix, list[Node]]:
        parents = [self.net.ref(node, ref) for ref in dist.of]
        codes = lookup_table(dist, [p.values for p in parents], node.values)
        table: Matrix = np.eye(len(node.values), dtype=np.float64)[codes]
        return table, parents

    def _vector(self, node: Node, probs: Probs) -> Matrix:
        vector, problems = check_probs(probs, node.values, (), node.id)
        if vector is None:  # the schema checks make this unreachable
            raise ValueError(problems[0].message if problems else f"bad probabilities on {node.id}")
        return np.asarray(vector, dtype=np.float64)

    def _table(self, node: Node, dist: Categorical | Table) -> tuple[Matrix, list[Node]]:
        if isinstance(dist, Categorical):
            return self._vector(node, dist.probs)[None, :], []
        parents = [self.net.ref(node, ref) for ref in dist.parents]
        dims = [len(p.values) for p in parents]
        default = None if dist.default is None else self._vector(node, dist.default)
        table = np.empty((int(np.prod(dims)), len(node.values)), dtype=np.float64)
        if default is not None:
            table[:] = default
        for key, probs in dist.rows.items():
            index = [p.values.index(v) for p, v in zip(parents, combination(key), strict=True)]
            table[np.ravel_multi_index(index, dims)] = self._vector(node, probs)
        return table, parents

    def table(self, node: Node) -> tuple[Matrix, list[Node]]:
        """The node's rows (one per combination of its table parents, in
        ``ravel_multi_index`` order; for a copy, its ``otherwise``) and those parents."""
        return self._tables[(node.id, "base")]

    def probs(self, node: Node, codes: Mapping[str, Codes], n: int) -> Matrix:
        """An (n x K) matrix: row r is P(node | the parents' codes in row r)."""
        table, parents = self._tables[(node.id, "base")]
        if parents:
            dims = [len(p.values) for p in parents]
            rows = np.ravel_multi_index([codes[p.id] for p in parents], dims)
            out = table[rows]
        else:
            out = np.repeat(table, n, axis=0)
        dist = node.attribute.dist
        if isinstance(dist, Copy):
            # sources may sum to 1 within the tolerance: scale them to 1 at most
            total = sum(dist.sources.values())
            scale = 1.0 / total if total > 1.0 else 1.0
            out = out * max(0.0, 1.0 - total)
            for ref, p in ((r, p * scale) for r, p in dist.sources.items()):
                source = self.net.ref(node, ref)
                mapping = np.array([node.values.index(v) for v in source.values])
                out[np.arange(n), mapping[codes[source.id]]] += p
        if node.attribute.distinct:
            out = self._exclude_earlier_slots(node, codes, out, n)
        return out

    def _exclude_earlier_slots(
        self, node: Node, codes: Mapping[str, Codes], out: Matrix, n: int
    ) -> Matrix:
        out = out.copy()
        rows = np.arange(n)
        for pid in node.parents:
            parent = self.net[pid]
            if parent.key.kind == node.key.kind and parent.key.attr == node.key.attr:
                out[rows, codes[pid]] = 0.0
        total = out.sum(axis=1, keepdims=True)
        # A parent assignment that leaves nothing to draw has probability 0 under the
        # earlier slots' own distributions; give it a valid row so tables stay proper.
        empty = total[:, 0] <= 0
        if empty.any():
            out[empty] = 1.0 / out.shape[1]
            total[empty] = 1.0
        normalised: Matrix = out / total
        return normalised


def inverse_cdf(probs: Matrix, u: NDArray[np.float64]) -> Codes:
    """Draw one category per row of ``probs`` with the uniforms ``u`` (one per row)."""
    cdf = np.cumsum(probs, axis=1)
    cdf /= cdf[:, -1:]
    return _count_below(cdf, u, probs.shape[1] - 1)


def _count_below(cdf: Matrix, u: NDArray[np.float64], last: int) -> Codes:
    """Per row, how many CDF entries are <= u, at most ``last``. A CDF row rises, so
    that is the position of its first entry above u (argmax finds it without summing
    the row); the rare row without one (u past its end, NaN) is counted in full."""
    above = u[:, None] < cdf
    codes = above.argmax(axis=1)
    missed = ~above[np.arange(len(u)), codes]
    if missed.any():
        codes[missed] = (u[missed, None] >= cdf[missed]).sum(axis=1)
    clipped: Codes = np.minimum(codes, last).astype(np.int64)
    return clipped
