"""A hybrid's two parts rest on no common fact: counting the relatives' ages and then
counting them again with the user ties the two answers together, so a reader can strike
out options by consistency alone (with two relatives, "more than 30" for both and "at
most 32" for all three of us hold together only if both are 31 or 32) and the options
read as one question asked twice ("1; 1", "2; 2"). Read from the provenance: each
part's evidence fact ids; an error per hybrid whose parts share one.
"""

from __future__ import annotations

from typing import Any

from memsim.audit._context import AuditContext
from memsim.audit._framework import item_check
from memsim.audit._types import AuditItem, CheckStats, Finding, finding

NAME = "hybrid_parts_apart"


def shared_facts(provenance: dict[str, Any]) -> list[str]:
    """The fact ids both parts of a hybrid rest on (none: not a hybrid, or apart)."""
    if provenance.get("transform") != "hybrid":
        return []
    parts = (provenance.get("params") or {}).get("parts") or []
    if len(parts) != 2 or not all(isinstance(p, dict) for p in parts):
        return []
    first, second = ({str(f) for f in p.get("fact_ids") or ()} for p in parts)
    return sorted(first & second)


@item_check(
    NAME,
    "a hybrid's two parts rest on no common fact, so neither part's answer narrows the "
    "other's (no option can be struck out by consistency alone)",
    "correctness",
)
def hybrid_parts_apart(
    item: AuditItem, ctx: AuditContext, stats: CheckStats
) -> list[Finding] | None:
    prov = item.provenance
    if not prov or prov.get("transform") != "hybrid":
        return None
    stats.counts["hybrids"] += 1
    shared = shared_facts(prov)
    if not shared:
        return []
    stats.counts["hybrids whose parts share a fact"] += 1
    return [
        finding(
            NAME,
            "error",
            item,
            f"both parts rest on {', '.join(shared)}: one part's answer narrows the other's",
        )
    ]


__all__ = ["hybrid_parts_apart", "shared_facts"]
