"""Topological order of a dependency graph without networkx (importing it cost every
process that loads a schema ~0.1 s CPU; only drawing a graph and d-separation need it)."""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Mapping


def topological_order(parents: Mapping[str, Iterable[str]]) -> list[str] | None:
    """The nodes (the keys of ``parents``, each mapped to the nodes it depends on) with
    every node after its parents, ties broken by the keys' order: of the nodes whose
    parents are all placed, the earliest key comes next (networkx's
    ``lexicographical_topological_sort`` keyed by that order gives the same list).
    None when the graph has a cycle. A parent that is not a key counts as a node after
    every key."""
    rank = {nid: i for i, nid in enumerate(parents)}
    children: dict[str, list[str]] = {}
    waiting: dict[str, int] = {}
    for nid, ps in parents.items():
        unique = set(ps)  # a graph has one edge per pair, however often it is referenced
        waiting[nid] = len(unique)
        for p in unique:
            children.setdefault(p, []).append(nid)
    # a node only referenced: after the declared ones, by name (children's keys come in
    # the order of a set, which differs between processes)
    for p in sorted(p for p in children if p not in rank):
        rank[p] = len(rank)
        waiting[p] = 0
    ready = [(rank[n], n) for n, w in waiting.items() if w == 0]
    heapq.heapify(ready)
    order: list[str] = []
    while ready:
        _, nid = heapq.heappop(ready)
        order.append(nid)
        for child in children.get(nid, ()):
            waiting[child] -= 1
            if waiting[child] == 0:
                heapq.heappush(ready, (rank[child], child))
    return order if len(order) == len(waiting) else None
