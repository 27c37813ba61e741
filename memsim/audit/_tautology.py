"""No message states a fact as a tautology: a value the name it calls the entity by
already holds ("The Boston Career Fair takes place in Boston", "Pinecrest Park is a
park", "阳光小区属于小区"). Such a message says nothing, and the name gives the value
away to any reader. Counted per message, each a warning: the generator states such a
fact only when the profile allows no other question of its kind and scenario
(:data:`memsim.dataset._generate.STRICT_ATTEMPTS`; a Chinese place whose name holds its
type, "洪湖公园属于公园"), never as filler or noise (:mod:`memsim.verbalize._tautology`).
"""

from __future__ import annotations

from memsim.audit._context import AuditContext
from memsim.audit._correctness import GROUP, NEEDS
from memsim.audit._framework import item_check
from memsim.audit._noise import noise_profiles
from memsim.audit._types import AuditItem, CheckStats, Finding, Severity, finding
from memsim.profile import Entity, Profile
from memsim.verbalize import naming_attributes, says_itself
from memsim.verbalize._tautology import holds

NAME = "tautological_statements"


def _entity(ctx: AuditContext, profile: Profile, fact_id: str) -> tuple[Entity, str] | None:
    owner: Profile | None = profile
    if ":" in fact_id:  # noise: a fact of another profile, sampled again
        pid, fact_id = fact_id.split(":", 1)
        owner = noise_profiles(ctx).get(pid)
    entity_id, attr = fact_id.rsplit(".", 1)
    try:
        return (owner.entity(entity_id), attr) if owner is not None else None
    except (KeyError, ValueError):
        return None


@item_check(
    NAME,
    'no message states a value the name it calls the entity by already holds ("The '
    'Boston Career Fair takes place in Boston"): counted per message',
    GROUP,
    NEEDS,
)
def tautological_statements(
    item: AuditItem, ctx: AuditContext, stats: CheckStats
) -> list[Finding] | None:
    profile = ctx.profile(item)
    if profile is None or ctx.schema is None or ctx.locale is None:
        return None
    out = []
    for m in item.messages:
        text = str(m.get("message", ""))
        for fid in m.get("facts", ()):
            found = _entity(ctx, profile, str(fid))
            if found is None:
                continue
            entity, attr = found
            stats.counts["statements checked"] += 1
            if not says_itself(ctx.schema, ctx.locale, entity, attr):
                continue
            names = [
                str(entity.facts[n].value)
                for n in naming_attributes(ctx.schema, ctx.locale, entity.kind)
                if n in entity.facts
            ]
            if not any(holds(text, name) for name in names):
                continue  # the message does not call the entity by that name
            stats.counts["tautological statements"] += 1
            severity: Severity = "warning"
            out.append(
                finding(NAME, severity, item, f"message {m.get('mid')} states {fid}: {text[:120]}")
            )
    return out


__all__ = ["tautological_statements"]
