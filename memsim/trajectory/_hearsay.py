"""Distractors the user says are someone else's (a draft's ``hearsay``).

Guarantees:
- a sentence (an opinion) is quoted as someone else's words (the locale's ``hearsay``);
- a value of a person's attribute is said in one of that attribute's own phrasings,
  about a person outside the profile (the locale's ``hearsay_people``: "my friend
  {first}"), so the words around it are the words the user's own facts are said in
  and mark no role (the evidence-vs-rest text classifier reads them as a fact);
- that person's first name is in no name of the profile's people, and no two lines of
  one trajectory name the same person (no one is said to have two values); the person
  holds none of the locale's ``meta_markers`` (the audit reads them as a rewrite's
  meta text);
- any other value (an event's, an item's, an e-mail's domain) is said in a
  ``hearsay_of`` line, with its label.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import numpy as np

from memsim.profile import Profile
from memsim.qa import Hearsay, QAContext
from memsim.sampling import name_lists
from memsim.schema import PersonName, Schema, is_user, role_of
from memsim.verbalize import fact_tokens, fill, outsider_phrasings, without_time_preposition

NAME_DRAWS = 20
"""Last names drawn for a hearsay person before the line is said another way."""


def hearsay_lines(
    ctx: QAContext, profile: Profile, items: Sequence[Hearsay], rng: np.random.Generator
) -> list[str]:
    """One message per item, in order."""
    if not items:
        return []
    people = _people(ctx, profile, len(items), rng)
    out = []
    for item, person in zip(items, people, strict=True):
        phrasings = outsider_phrasings(ctx.schema, ctx.loc, item.kind, item.attribute)
        value = _bare(ctx, item)
        if not item.label:
            out.append(ctx.choose(ctx.loc.hearsay, rng).format(value=item.value))
        elif phrasings and value is not None and person is not None:
            out.append(_said_of(ctx, item, value, person, ctx.choose(phrasings, rng)))
        else:
            line = ctx.choose(ctx.loc.hearsay_of, rng)
            out.append(ctx.cap(line.format(label=item.label, value=_said_as_is(ctx, item))))
    return out


def _bare(ctx: QAContext, item: Hearsay) -> str | None:
    """The value as a phrasing's ``{value}`` writes it: the option without its unit."""
    if not item.kind or item.kind not in ctx.schema.entities:
        return None
    attr = ctx.schema.attributes_of(item.kind).get(item.attribute)
    if attr is None or not attr.unit:
        return item.value
    for unit in dict.fromkeys(
        ctx.loc.unit_for(one, attr.unit) for one in ("", *ctx.loc.grammar.one)
    ):
        before, _, after = ctx.loc.with_unit.format(value="\0", unit=unit).partition("\0")
        if item.value.startswith(before) and item.value.endswith(after):
            value = item.value[len(before) : len(item.value) - len(after)]
            if ctx.loc.with_unit_of(value, attr.unit) == item.value:
                return value
    return None


def _said_as_is(ctx: QAContext, item: Hearsay) -> str:
    """The value as a ``hearsay_of`` line says it after "is": a date-time without its
    preposition ("their start time is May 3, 2025 at 9:00 PM", not "is on May 3"),
    unless the line names the event itself, as the locale words a role's hearsay label
    (``hearsay_label_by_role``: "their hive inspection is on April 12")."""
    if item.kind in ctx.schema.entities:
        attr = ctx.schema.attributes_of(item.kind).get(item.attribute)
        if attr is not None and attr.type == "datetime":
            role = (
                None
                if is_user(ctx.schema, item.kind)
                else role_of(ctx.schema, item.kind, item.attribute)
            )
            if not (role and ctx.loc.hearsay_label_by_role.get(role)):
                return without_time_preposition(ctx.loc, item.value)
    return item.value


def _said_of(ctx: QAContext, item: Hearsay, value: str, who: str, template: str) -> str:
    attr = ctx.schema.attributes_of(item.kind)[item.attribute]
    tokens = fact_tokens(ctx.loc, ctx.loc.other_forms, value, who, attr.unit)
    return fill(ctx.loc, template, tokens)


def _people(ctx: QAContext, profile: Profile, n: int, rng: np.random.Generator) -> list[str | None]:
    """``n`` people outside the profile, each named once (None without the locale's
    ``hearsay_people``)."""
    if not ctx.loc.hearsay_people:
        return [None] * n
    # the context's locale data is the schema's (memsim.qa.make_context), so this is
    # faker_locale(ctx.schema) without looking the overlay file up once per trajectory
    locale = ctx.loc.faker or ctx.schema.locale
    lists = name_lists(locale)
    taken = _names(ctx.schema, profile)
    # no name that reads as a rewrite's meta text (原 + 文 is "原文", "the original")
    markers = [m.casefold() for m in ctx.loc.recognise.meta_markers]
    everyone = _unmarked_firsts(locale, tuple(markers))
    if all(t and "\0" not in t for t in taken):
        # a first name is in one of the names when it is in them joined by NUL, which
        # neither holds: one scan per first name, not one per name and first name
        joined = "\0".join(taken)
        firsts = [f for f in everyone if not (taken and "\0" not in f and f in joined)]
    else:
        firsts = [f for f in everyone if not any(f in t for t in taken)]
    lasts = lists["last"][0]
    picked = rng.choice(len(firsts), size=min(n, len(firsts)), replace=False)
    out: list[str | None] = []
    for i in picked:
        template = ctx.choose(ctx.loc.hearsay_people, rng)
        person = None
        for _ in range(NAME_DRAWS):
            last = lasts[int(rng.integers(len(lasts)))]
            person = template.format(first=firsts[int(i)], last=last)
            if not _marked(person, markers):
                break
        else:
            person = None  # said in a hearsay_of line instead
        out.append(person)
    return out + [None] * (n - len(out))


@lru_cache(maxsize=16)
def _unmarked_firsts(locale: str, markers: tuple[str, ...]) -> tuple[str, ...]:
    """The locale's first names (male, then female) that no marker is in: once per
    locale, not once per trajectory (thousands of names)."""
    lists = name_lists(locale)
    return tuple(f for f in lists["male"][0] + lists["female"][0] if not _marked(f, markers))


def _marked(text: str, markers: Sequence[str]) -> bool:
    folded = text.casefold()
    return any(m in folded for m in markers)


def _names(schema: Schema, profile: Profile) -> list[str]:
    """The profile's people's names."""
    out = []
    for e in profile.entities:
        for name in _name_attributes(schema, e.kind):
            if name in e.facts:
                out.append(str(e.facts[name].value))
    return out


def _name_attributes(schema: Schema, kind: str) -> tuple[str, ...]:
    """The kind's attributes that are person names, in order (once per schema and kind:
    every trajectory with hearsay reads them)."""
    key = ("person-name-attributes", kind)
    found: tuple[str, ...] | None = schema.memo.get(key)  # type: ignore[assignment]
    if found is None:
        found = schema.memo[key] = tuple(
            name
            for name, attr in schema.attributes_of(kind).items()
            if isinstance(attr.dist, PersonName)
        )
    return found


__all__ = ["hearsay_lines"]
