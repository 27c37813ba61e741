"""memsim's own d-separation against networkx's, on the bundled schemas' networks."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import networkx as nx
import pytest

from memsim.graph import BRNet
from memsim.schema import load_schema

SCHEMAS = sorted((Path(__file__).resolve().parents[2] / "schemas").glob("*.yaml"))


def _networkx(graph: nx.DiGraph[str], x: set[str], y: set[str], z: set[str]) -> bool:
    test = getattr(nx, "is_d_separator", None) or nx.d_separated
    return bool(test(graph, x, y, z))


@pytest.mark.parametrize("path", SCHEMAS[:4], ids=lambda p: p.name)
def test_the_same_answers_as_networkx(path: Path) -> None:
    net = BRNet(load_schema(path))
    nodes = list(net.nodes)
    rng = random.Random(0)
    asked = 0
    # every pair with every given set of up to two of the pair's relatives (where
    # colliders and chains meet), and random triples of larger sets
    for a, b in itertools.combinations(nodes, 2):
        near = sorted(
            {*net[a].parents, *net[b].parents, *net.children[a], *net.children[b]} - {a, b}
        )
        for size in (0, 1, 2):
            for given in itertools.combinations(near, size):
                z = set(given)
                assert net.d_separated({a}, {b}, z) == _networkx(net.graph, {a}, {b}, z)
                asked += 1
        if asked > 2_000:
            break
    for _ in range(200):
        picked = rng.sample(nodes, min(len(nodes), 9))
        x, y, z = set(picked[:2]), set(picked[2:4]), set(picked[4:])
        assert net.d_separated(x, y, z) == _networkx(net.graph, x, y, z)


def test_a_collider_is_opened_by_a_given_descendant() -> None:
    for path in SCHEMAS:
        net = BRNet(load_schema(path))
        for nid, node in net.nodes.items():
            for a, b in itertools.combinations(node.parents, 2):
                if net.d_separated({a}, {b}, set()) and net.children[nid]:
                    child = net.children[nid][0]
                    assert not net.d_separated({a}, {b}, {nid})
                    assert not net.d_separated({a}, {b}, {child})
                    assert not _networkx(net.graph, {a}, {b}, {child})
                    return
    pytest.fail("no collider with a child and independent parents in the bundled schemas")


def test_bad_sets_are_refused() -> None:
    net = BRNet(load_schema(SCHEMAS[0]))
    a = next(iter(net.nodes))
    with pytest.raises(ValueError, match="disjoint"):
        net.d_separated({a}, {a}, set())
    with pytest.raises(ValueError, match="not in the graph"):
        net.d_separated({a}, {"nowhere.at_all"}, set())
