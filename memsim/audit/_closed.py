"""A question over a group says every member's value, and no one else's: in a
trajectory that asks how many of "my relatives and colleagues" are past 40 (``count``)
or how many of my events fall in a range (``count_between``), no message may state
the asked attribute of an entity of the group's kinds that the group leaves out. A
reader cannot tell a noise person ("my uncle is 60", from another life) or a left-out
entity from a member, so it would count them and the gold would be wrong for it. Read
from the provenance (the group's entities and attribute, hybrid parts included) and
each message's fact ids, which name another profile's facts as
``p000123:relative[1].age``; an error per message that breaks it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from memsim.audit._context import AuditContext
from memsim.audit._framework import item_check
from memsim.audit._types import AuditItem, CheckStats, Finding, finding

NAME = "group_closed"
GROUP_TRANSFORMS = frozenset({"count", "count_between"})
"""Transforms whose answer ranges over every entity of a group's kinds (``first_of``
names its entities in the question, so an outsider does not enter it)."""


def _kind(entity: str) -> str:
    return entity.split("[", 1)[0]


def groups(provenance: dict[str, Any]) -> Iterator[tuple[frozenset[str], str]]:
    """(the group's entity ids, the asked attribute) of each group the question ranges
    over, its hybrid parts' included."""
    parts = [provenance]
    params = provenance.get("params") or {}
    if provenance.get("transform") == "hybrid":
        parts = [p for p in params.get("parts") or () if isinstance(p, dict)]
    for part in parts:
        p = part.get("params") or {}
        entities, attribute = p.get("entities"), p.get("attribute")
        if part.get("transform") in GROUP_TRANSFORMS and entities and attribute:
            yield frozenset(map(str, entities)), str(attribute)


def outsider(fact_id: str, members: frozenset[str], attribute: str) -> bool:
    """Whether ``fact_id`` states ``attribute`` of an entity of the group's kinds that is
    not a member (any entity of another profile is not)."""
    source, _, local = fact_id.rpartition(":")
    entity, _, attr = local.rpartition(".")
    if attr != attribute:
        return False
    kinds = {_kind(e) for e in members}
    return _kind(entity) in kinds and (bool(source) or entity not in members)


@item_check(
    NAME,
    "a question over a group (how many) hears the asked attribute of its "
    "members only: no message states it of another entity of the group's kinds (noise "
    "people of another life included)",
    "correctness",
)
def group_closed(item: AuditItem, ctx: AuditContext, stats: CheckStats) -> list[Finding] | None:
    prov = item.provenance
    found = list(groups(prov)) if prov else []
    if not found:
        return None
    stats.counts["questions over a group"] += 1
    out = []
    for m in item.messages:
        for fid in m.get("facts") or ():
            for members, attribute in found:
                if outsider(str(fid), members, attribute):
                    stats.counts["messages stating an outsider"] += 1
                    text = str(m.get("message", ""))[:120]
                    out.append(
                        finding(
                            NAME,
                            "error",
                            item,
                            f"message {m.get('mid')} states {attribute} of {fid}, outside "
                            f"the group asked about, which a reader would count: {text}",
                        )
                    )
    return out


__all__ = ["GROUP_TRANSFORMS", "group_closed", "groups", "outsider"]
