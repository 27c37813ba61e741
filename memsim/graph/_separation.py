"""d-separation in the BRNet, without networkx (importing it cost every audit about
0.15 CPU s, for the few hundred questions the option prior asks of the network).

Guarantees: :func:`d_separated` answers as ``networkx.is_d_separator`` does on the same
directed acyclic graph (tests/graph/test_separation.py compares them on every triple of
the bundled schemas' small neighbourhoods): ``x`` and ``y`` are d-separated given
``given`` when no trail between them is active, a trail being active when each of its
colliders is in ``given`` or has a descendant there, and no other node of it is in
``given``. The sets must be disjoint and name nodes of the graph (ValueError otherwise).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence


def d_separated(
    parents: Mapping[str, Sequence[str]],
    children: Mapping[str, Sequence[str]],
    x: Collection[str],
    y: Collection[str],
    given: Collection[str],
) -> bool:
    """Whether every trail between ``x`` and ``y`` is blocked by ``given``, in the graph
    of ``parents`` (node -> its parents) and ``children`` (node -> its children)."""
    xs, ys, zs = set(x), set(y), set(given)
    for name, nodes in (("x", xs), ("y", ys), ("given", zs)):
        unknown = sorted(n for n in nodes if n not in parents)
        if unknown:
            raise ValueError(f"d-separation: {name} names nodes not in the graph: {unknown}")
    if xs & ys or xs & zs or ys & zs:
        raise ValueError("d-separation: x, y and given must be disjoint")
    # a collider passes a trail on when it or one of its descendants is given: the
    # given nodes and their ancestors
    lit, todo = set(zs), list(zs)
    while todo:
        for p in parents[todo.pop()]:
            if p not in lit:
                lit.add(p)
                todo.append(p)
    # walk the trails from x: (node, True) reached from a child (going up), (node,
    # False) reached from a parent (going down)
    seen: set[tuple[str, bool]] = set()
    walk = [(n, True) for n in xs]
    while walk:
        state = walk.pop()
        if state in seen:
            continue
        seen.add(state)
        node, up = state
        if node in ys:
            return False
        if node not in zs:  # a chain or a fork through it is open
            walk += [(c, False) for c in children[node]]
            if up:
                walk += [(p, True) for p in parents[node]]
        if not up and node in lit:  # a collider, opened by what is given
            walk += [(p, True) for p in parents[node]]
    return True


__all__ = ["d_separated"]
