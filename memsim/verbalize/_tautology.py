"""Facts a message could only state as a tautology: the value is already part of the
name the entity is called by ("The Boston Career Fair takes place in Boston",
"Pinecrest Park is a park", "阳光小区属于小区").

Every phrasing of such a fact names the entity, so every statement of it repeats the
name's own word. The generator never states one (not as filler, noise or a decoy, and
no question is built on one: its name would give the value away as well); the audit's
``tautological_statements`` check counts any that is stated.
"""

from __future__ import annotations

from functools import lru_cache

from memsim.profile import Entity
from memsim.schema import Schema
from memsim.verbalize._locale import LocaleData
from memsim.verbalize._render import CJK, template_fields

WORDY = ("categorical", "text")
"""Value types whose words a name can hold (a number or a date in a name is not its
attribute's value said again)."""


def naming_attributes(schema: Schema, loc: LocaleData, kind: str) -> tuple[str, ...]:
    """The attributes the kind's entities are called by in ``loc`` ("the {name}")."""
    return template_fields(schema.entities[kind].refer.get(loc.code, ""))


def says_itself(schema: Schema, loc: LocaleData, entity: Entity, attr: str) -> bool:
    """Whether ``entity``'s ``attr`` has a value that a name the entity is called by
    holds, as whole words (case-folded; as characters where words have no spaces)."""
    fact = entity.facts.get(attr)
    naming = naming_attributes(schema, loc, entity.kind)
    if fact is None or fact.type not in WORDY or attr in naming:
        return False
    value = str(fact.value)
    return any(holds(str(entity.facts[n].value), value) for n in naming if n in entity.facts)


def tautologies(schema: Schema, loc: LocaleData, entity: Entity) -> frozenset[str]:
    """The attributes ``a`` of ``entity`` for which :func:`says_itself` holds, found in
    one pass (the names looked up once, not once per attribute)."""
    naming = naming_attributes(schema, loc, entity.kind)
    names = [str(entity.facts[n].value) for n in naming if n in entity.facts]
    if not names:
        return frozenset()
    # holds(name, value) needs the folded value inside the folded name: most values are
    # in none, and are passed over by one search of the names joined
    joined = "\0".join(n.casefold() for n in names)
    said = []
    for attr in _wordy(schema, entity.kind, naming):
        fact = entity.facts.get(attr)
        if fact is None or fact.type not in WORDY:
            continue
        value = str(fact.value)
        if value.casefold().strip() in joined and any(holds(n, value) for n in names):
            said.append(attr)
    return frozenset(said)


def _wordy(schema: Schema, kind: str, naming: tuple[str, ...]) -> tuple[str, ...]:
    """The kind's attributes of a :data:`WORDY` type that do not name it, once per
    schema, kind and naming (every profile's every entity is read for them)."""
    key = ("wordy-attributes", kind, naming)
    found: tuple[str, ...] | None = schema.memo.get(key)  # type: ignore[assignment]
    if found is None:
        found = schema.memo[key] = tuple(
            name
            for name, attr in schema.attributes_of(kind).items()
            if attr.type in WORDY and name not in naming
        )
    return found


@lru_cache(maxsize=1 << 16)
def holds(name: str, value: str) -> bool:
    """Whether ``name`` holds ``value`` as whole words (as characters in CJK text).

    Memoised, and found by ``str.find`` with the boundaries checked by hand (what
    ``(?<!\\w)value(?!\\w)`` finds: ``\\w`` is ``isalnum()`` or ``_``): the generator asks
    this of every spare fact of every trajectory, and a pattern per value overflowed
    ``re``'s cache (116,090 compilations on 4,500 questions)."""
    name, value = name.casefold(), value.casefold().strip()
    if len(value) < 2:
        return False
    if CJK.search(value):
        return value in name
    start = name.find(value)
    while start >= 0:
        end = start + len(value)
        if not (start and _word(name[start - 1])) and not (end < len(name) and _word(name[end])):
            return True
        start = name.find(value, start + 1)
    return False


def _word(char: str) -> bool:
    return char.isalnum() or char == "_"


__all__ = ["holds", "naming_attributes", "says_itself", "tautologies"]
