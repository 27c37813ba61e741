"""Hand-built facts for the memsim.verify tests."""

from __future__ import annotations

import datetime as dt

from memsim.profile import Entity, Fact
from memsim.verify import StatedFact


def stated_at(
    when: dt.datetime, attr: str, type_: str, value: object, kind: str = "relative", **facts: object
) -> StatedFact:
    """A fact ``attr = value`` of an entity of ``kind`` (relatives are ``relative[0]``),
    said at ``when``; ``facts`` are the entity's other (categorical) facts, such as the
    relation it is named by."""
    entity_id = "relative[0]" if kind == "relative" else kind
    own = {attr: Fact(f"{entity_id}.{attr}", attr, type_, value)}
    own |= {k: Fact(f"{entity_id}.{k}", k, "categorical", v) for k, v in facts.items()}
    entity = Entity(entity_id, kind, 0, "roles", own)
    return StatedFact(entity, own[attr], value, when)
