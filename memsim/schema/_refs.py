"""Slots, node ids and references between attributes.

A node of the BRNet is one attribute of one entity slot. Its id is ``kind.attr`` for
a kind with one slot and ``kind[i].attr`` otherwise; fact ids in profiles are the
same strings, so they stay stable across runs and tools.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from memsim.schema._models import Schema

_REF = re.compile(
    r"^(?:(?P<kind>[A-Za-z_][A-Za-z0-9_]*)(?:\[(?P<index>\d+)\])?\.)?(?P<attr>[A-Za-z_][A-Za-z0-9_]*)$"
)


class ReferenceError_(ValueError):
    """A reference that does not name an attribute of the schema."""


@dataclass(frozen=True, order=True)
class NodeKey:
    kind: str
    index: int
    attr: str


def slot_id(schema: Schema, kind: str, index: int) -> str:
    return kind if schema.entities[kind].count == 1 else f"{kind}[{index}]"


def node_id(schema: Schema, key: NodeKey) -> str:
    return f"{slot_id(schema, key.kind, key.index)}.{key.attr}"


def resolve_ref(schema: Schema, ref: str, kind: str, index: int) -> NodeKey:
    """Resolve a reference written inside slot ``kind[index]`` to a node key."""
    m = _REF.match(ref.strip())
    if m is None:
        raise ReferenceError_(f"'{ref}' is not a reference (attr, kind.attr or kind[i].attr)")
    target_kind = m["kind"] or kind
    attr = m["attr"]
    if target_kind not in schema.entities:
        raise ReferenceError_(f"'{ref}' names unknown entity kind '{target_kind}'")
    count = schema.entities[target_kind].count
    if m["index"] is not None:
        target_index = int(m["index"])
        if target_index >= count:
            raise ReferenceError_(
                f"'{ref}': kind '{target_kind}' has {count} slot(s), no index {target_index}"
            )
    elif m["kind"] is None or target_kind == kind:
        target_index = index
    elif count == 1:
        target_index = 0
    else:
        raise ReferenceError_(
            f"'{ref}': kind '{target_kind}' has {count} slots; name one as {target_kind}[i].{attr}"
        )
    if attr not in schema.attributes_of(target_kind):
        raise ReferenceError_(f"'{ref}' names unknown parent '{attr}' of kind '{target_kind}'")
    return NodeKey(target_kind, target_index, attr)


def all_node_keys(schema: Schema) -> list[NodeKey]:
    """Every node of the schema's network, in declaration order."""
    return [
        NodeKey(kind, i, attr)
        for kind, entity in schema.entities.items()
        for i in range(entity.count)
        for attr in schema.attributes_of(kind)
    ]


def node_parents(schema: Schema, key: NodeKey, skip_broken: bool = False) -> list[NodeKey]:
    """The nodes a node is drawn from: its distribution's references, plus, for an
    attribute drawn without replacement, the same attribute of the kind's earlier slots.
    A reference that names no attribute raises :class:`ReferenceError_`, or with
    ``skip_broken`` is left out (the schema checks report it)."""
    attr = schema.attributes_of(key.kind)[key.attr]
    parents = []
    for ref in attr.dist.references():
        try:
            parents.append(resolve_ref(schema, ref, key.kind, key.index))
        except ReferenceError_:
            if not skip_broken:
                raise
    if attr.distinct:
        parents += [NodeKey(key.kind, i, key.attr) for i in range(key.index)]
    return list(dict.fromkeys(parents))
