"""The BRNet: one node per (entity slot, attribute), edges from each distribution's
references (which may cross entities), in a checked topological order."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

from memsim.schema import (
    Attribute,
    NodeKey,
    Schema,
    all_node_keys,
    node_id,
    node_parents,
    resolve_ref,
)
from memsim.schema._order import topological_order

if TYPE_CHECKING:
    import networkx as nx


@dataclass(frozen=True)
class Node:
    """One attribute of one entity slot."""

    id: str
    key: NodeKey
    attribute: Attribute
    parents: tuple[str, ...]
    values: tuple[str, ...]
    """The categorical values (empty for other types); codes index into this."""
    numeric_ancestry: bool = False
    """A categorical node derived from a number (``bins``), or from such a node: it is
    sampled and asked like any categorical, but is not in the discrete network."""

    @property
    def discrete(self) -> bool:
        return self.attribute.type == "categorical" and not self.numeric_ancestry

    @property
    def dist_kind(self) -> str:
        return self.attribute.dist.kind


def _binned(node: Node) -> bool:
    return getattr(node.attribute.dist, "bins", None) is not None


class BRNet:
    """The causal graph of a schema. Build it from a schema that :func:`load_schema`
    accepted: references resolve and there is no cycle."""

    def __init__(self, schema: Schema):
        self.schema = schema
        nodes: dict[str, Node] = {}
        for key in all_node_keys(schema):
            attr = schema.attributes_of(key.kind)[key.attr]
            parents = tuple(node_id(schema, p) for p in node_parents(schema, key))
            nid = node_id(schema, key)
            nodes[nid] = Node(nid, key, attr, parents, tuple(schema.values_of(attr)))
        # ties broken by declaration order keep the order identical from run to run
        order = topological_order({nid: n.parents for nid, n in nodes.items()})
        if order is None or len(order) != len(nodes):
            raise ValueError(f"schema {schema.name!r}: its dependencies have a cycle")
        for nid in order:  # parents first: a categorical below a non-discrete node is one too
            node = nodes[nid]
            if node.attribute.type == "categorical" and any(
                not nodes[p].discrete for p in node.parents
            ):
                nodes[nid] = dataclasses.replace(node, numeric_ancestry=True)
        self.nodes: dict[str, Node] = {nid: nodes[nid] for nid in order}
        self._declared = list(nodes)

    @cached_property
    def graph(self) -> nx.DiGraph[str]:
        """The network as a networkx graph (d-separation, drawing), built when first
        asked: the nodes in declaration order, an edge from each parent."""
        import networkx as nx

        graph: nx.DiGraph[str] = nx.DiGraph()
        for nid in self._declared:
            graph.add_node(nid)
            graph.add_edges_from((p, nid) for p in self.nodes[nid].parents)
        return graph

    def __iter__(self) -> Iterator[Node]:
        return iter(self.nodes.values())

    def __len__(self) -> int:
        return len(self.nodes)

    def __getitem__(self, nid: str) -> Node:
        return self.nodes[nid]

    def ref(self, node: Node, ref: str) -> Node:
        """The node a reference written in ``node``'s distribution points to."""
        key = resolve_ref(self.schema, ref, node.key.kind, node.key.index)
        return self.nodes[node_id(self.schema, key)]

    def discrete_nodes(self) -> list[Node]:
        """The categorical nodes; all their parents are categorical too (the schema
        checks enforce it), so they form a discrete Bayesian network on their own."""
        return [n for n in self if n.discrete]

    def tabled_nodes(self) -> list[Node]:
        """The categorical nodes drawn from a table (a ``categorical``, ``table``,
        ``copy`` or ``lookup``): the discrete network's, and those below a class binned
        from a number (a licence given a binned standing), which are drawn, and change,
        from their rows alike but are not in the pgmpy network. Every parent of their
        tables is categorical (the schema checks enforce it); a ``bins`` node is not
        here (its parent is a number)."""
        return [n for n in self if n.attribute.type == "categorical" and not _binned(n)]

    def edges(self) -> list[tuple[str, str]]:
        """Every (parent, child) pair once, sorted."""
        return sorted({(p, n.id) for n in self for p in n.parents})
