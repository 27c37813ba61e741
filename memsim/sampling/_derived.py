"""The sampler of derived attributes: no draw, a function of the parents' columns
(memsim.schema._derived defines it; this module reads the columns and registers it)."""

from __future__ import annotations

import numpy as np

from memsim.graph import Node
from memsim.sampling._kinds import SAMPLERS, Batch, Column
from memsim.schema import Derived
from memsim.schema._derived import bin_codes, evaluate_expr, lookup_table


@SAMPLERS.register("derived")
def sample_derived(node: Node, batch: Batch) -> Column:
    dist = node.attribute.dist
    assert isinstance(dist, Derived)
    parents = [batch.parent(node, ref) for ref in dist.of]
    if dist.bins is not None:
        return bin_codes(dist, parents[0][1])
    if dist.lookup is not None:
        table = lookup_table(dist, [p.values for p, _ in parents], node.values)
        dims = [len(p.values) for p, _ in parents]
        return table[np.ravel_multi_index([c for _, c in parents], dims)]
    values = evaluate_expr(dist, [c for _, c in parents])
    low, high = node.attribute.min, node.attribute.max
    return np.clip(values, low, high).astype(np.int64)


__all__ = ["sample_derived"]
