"""memsim.schema._order.topological_order gives networkx's lexicographical order keyed
by declaration (the BRNet's node order, which every profile's draws follow) and finds
cycles, on random graphs."""

from __future__ import annotations

import networkx as nx
from hypothesis import given, settings
from hypothesis import strategies as st

from memsim.schema._order import topological_order


@st.composite
def graphs(draw: st.DrawFn, acyclic: bool) -> dict[str, list[str]]:
    n = draw(st.integers(1, 25))
    names = draw(st.permutations([f"n{i}" for i in range(n)]))  # declared in any order
    parents: dict[str, list[str]] = {}
    for i, name in enumerate(names):
        # acyclic: parents among the names earlier in a hidden order, declared anywhere
        pool = names[:i] if acyclic else names
        parents[name] = draw(st.lists(st.sampled_from(pool), max_size=4)) if pool else []
    declared = draw(st.permutations(names))
    return {name: parents[name] for name in declared}


def networkx_order(parents: dict[str, list[str]]) -> list[str] | None:
    graph: nx.DiGraph[str] = nx.DiGraph()
    for nid, ps in parents.items():
        graph.add_node(nid)
        graph.add_edges_from((p, nid) for p in ps)
    rank = {nid: f"{i:08d}" for i, nid in enumerate(parents)}
    try:
        return list(nx.lexicographical_topological_sort(graph, key=rank.__getitem__))
    except nx.NetworkXUnfeasible:
        return None


@settings(max_examples=150, deadline=None)
@given(graphs(acyclic=True))
def test_the_order_of_a_dag_is_networkx_lexicographical_order(
    parents: dict[str, list[str]],
) -> None:
    order = topological_order(parents)
    assert order == networkx_order(parents)
    assert order is not None
    place = {nid: i for i, nid in enumerate(order)}
    assert all(place[p] < place[nid] for nid, ps in parents.items() for p in ps)


@settings(max_examples=150, deadline=None)
@given(graphs(acyclic=False))
def test_a_cycle_gives_none_as_networkx_finds_one(parents: dict[str, list[str]]) -> None:
    assert (topological_order(parents) is None) == (networkx_order(parents) is None)


def test_a_self_loop_and_a_two_cycle_give_none() -> None:
    assert topological_order({"a": ["a"]}) is None
    assert topological_order({"a": ["b"], "b": ["a"], "c": []}) is None
    assert topological_order({"b": [], "a": ["b", "b"]}) == ["b", "a"]


def test_nodes_only_referenced_come_last_by_name() -> None:
    """Parents that are not keys follow every key, in name order whatever the order of
    the set they were found in (a process's string hashing)."""
    parents = {"b": ["zeta", "alpha"], "a": [], "c": ["alpha", "zeta", "b"]}
    assert topological_order(parents) == ["a", "alpha", "zeta", "b", "c"]
