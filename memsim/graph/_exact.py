"""Exact posteriors of the discrete network, without pgmpy.

``P(node | evidence)`` is the product of the conditional tables of the query's and the
evidence's ancestors (the other nodes sum to one and drop out), with the evidence
fixed, summed over everything but the query: one ``numpy.einsum`` whose contraction
order numpy plans. The tables are the ones :func:`memsim.graph.to_pgmpy` gives pgmpy
(every parent assignment enumerated through :class:`DiscreteConditionals`), and a test
holds the answers against pgmpy's variable elimination. It exists because importing
pgmpy costs more CPU than a whole audit's worth of these queries.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from numpy.typing import NDArray

from memsim.graph._brnet import BRNet
from memsim.graph._conditionals import DiscreteConditionals

MAX_LABELS = 52
"""numpy.einsum names at most 52 axes."""


class ExactPosterior:
    """Posteriors of one network's categorical nodes; build once, query many times."""

    def __init__(self, net: BRNet):
        self.net = net
        conditionals = DiscreteConditionals(net)
        self.tables: dict[str, tuple[tuple[str, ...], NDArray[np.float64]]] = {}
        for node in net.discrete_nodes():
            parents = [net[p] for p in node.parents]
            dims = [len(p.values) for p in parents]
            grid = np.indices(dims).reshape(len(dims), -1) if dims else np.zeros((0, 1), int)
            codes = {p.id: grid[i] for i, p in enumerate(parents)}
            table = conditionals.probs(node, codes, grid.shape[1])
            axes = (*node.parents, node.id)
            self.tables[node.id] = (axes, table.reshape(*dims, len(node.values)))

    def __contains__(self, node_id: str) -> bool:
        return node_id in self.tables

    def _ancestors(self, ids: list[str]) -> list[str]:
        seen: set[str] = set()
        stack = list(ids)
        while stack:
            nid = stack.pop()
            if nid not in seen:
                seen.add(nid)
                stack.extend(self.tables[nid][0][:-1])
        return sorted(seen)

    def query(self, node_id: str, evidence: Mapping[str, str]) -> dict[str, float]:
        """P(node = value | evidence) for every value (evidence: node id -> value)."""
        fixed = {nid: self.net[nid].values.index(value) for nid, value in evidence.items()}
        keep = self._ancestors([node_id, *fixed])
        free = [nid for nid in keep if nid not in fixed]
        if len(free) > MAX_LABELS:
            raise ValueError(f"{node_id}: {len(free)} free nodes, more than einsum names")
        label = {nid: i for i, nid in enumerate(free)}
        operands: list[Any] = []
        for nid in keep:
            axes, table = self.tables[nid]
            index = tuple(fixed.get(a, slice(None)) for a in axes)
            operands += [table[index], [label[a] for a in axes if a not in fixed]]
        joint = np.einsum(*operands, [label[node_id]], optimize="greedy")
        total = float(joint.sum())
        values = self.net[node_id].values
        if total <= 0.0:  # impossible evidence: no distribution (pgmpy's is NaN too)
            return dict.fromkeys(values, float("nan"))
        return {v: float(p) / total for v, p in zip(values, joint.tolist(), strict=True)}
