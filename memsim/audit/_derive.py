"""Answers re-derived from a profile and an item's provenance, written independently of
the generator (nothing here calls :mod:`memsim.qa`): only the profile's values, the
schema's labels, units and orders, and the locale's words and rendering helpers.

:func:`derive` returns the answer as it must be displayed, its raw value, the fact ids
it depends on, and a predicate that says whether an option *means* the answer
(numbers, dates and times compared by value through :mod:`memsim.verify`, text after
normalisation), so a distractor that says the answer another way is caught too.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from memsim.audit._text import squash
from memsim.profile import Entity, Fact, Profile
from memsim.schema import Attribute, Schema
from memsim.verbalize import LocaleData, refer, render_value
from memsim.verify import StatedFact, fact_stated, numbers_in, words


class DerivationError(ValueError):
    """The provenance does not describe an answer the profile supports."""


@dataclass(frozen=True)
class Derived:
    display: str
    value: Any
    facts: frozenset[str]
    """Fact ids the answer depends on (the evidence that must be stated)."""
    means: Callable[[str], bool]
    """Whether an option says this answer."""
    other_values: tuple[str, ...] = ()
    """Displays of values the asked fact held at other times (identity only)."""
    terms: Callable[[], tuple[str, ...]] = field(default=lambda: ())
    """What the question must name (the entities, the attribute, the condition); a
    function, so that deriving answers for the option prior does not render names."""

    @property
    def needles(self) -> tuple[str, ...]:
        return self.terms()


@dataclass(frozen=True)
class Deriver:
    schema: Schema
    loc: LocaleData

    # --- profile helpers --------------------------------------------------------------
    def attribute(self, entity: Entity, attr: str) -> Attribute:
        try:
            return self.schema.attributes_of(entity.kind)[attr]
        except KeyError:
            raise DerivationError(f"{entity.kind} has no attribute {attr!r}") from None

    def fact(self, profile: Profile, entity_id: str, attr: str) -> tuple[Entity, Fact]:
        try:
            entity = profile.entity(entity_id)
            return entity, entity.facts[attr]
        except KeyError:
            raise DerivationError(f"profile {profile.id} has no {entity_id}.{attr}") from None

    def display(self, entity: Entity, fact: Fact, value: Any) -> str:
        text = render_value(fact, value, self.loc, None, relative=False)
        unit = self.attribute(entity, fact.attribute).unit
        return self.loc.with_unit_of(text, unit)

    def who(self, entity: Entity) -> str:
        return refer(
            entity, self.schema.entities[entity.kind].refer.get(self.loc.code, ""), self.loc
        )

    def as_option(self, entity: Entity) -> str:
        """How an option names ``entity`` (the user in the object form: "me")."""
        return self.loc.as_option(self.who(entity), entity.scenario == "user")

    def label(self, entity: Entity, attr: str) -> str:
        return self.attribute(entity, attr).label.get(self.loc.code, attr.replace("_", " "))

    def key(self, entity: Entity, fact: Fact, value: Any) -> Any:
        """Sort key: categorical by the declared order, dates by the calendar."""
        a = self.attribute(entity, fact.attribute)
        if a.type == "categorical":
            if not a.ordered:
                raise DerivationError(f"{fact.id} is not ordered")
            position = self._positions(entity.kind, fact.attribute).get(str(value))
            if position is None:
                raise DerivationError(f"{value!r} is not a value of {fact.id}")
            return position
        if a.type == "integer":
            return int(value)
        if a.type == "month_day":
            month, day = (int(x) for x in str(value).split("-"))
            return (month, day)
        if a.type in ("date", "datetime"):
            return dt.datetime.fromisoformat(str(value))
        raise DerivationError(f"{fact.id} ({a.type}) has no order")

    def _positions(self, kind: str, attr: str) -> dict[str, int]:
        """An attribute's values by their place in the declared order (memoised)."""
        found = self._orders.get((kind, attr))
        if found is None:
            values = self.schema.values_of(self.schema.attributes_of(kind)[attr])
            found = self._orders[(kind, attr)] = {}
            for i, v in enumerate(values):
                found.setdefault(v, i)  # list.index: the first place
        return found

    @cached_property
    def _orders(self) -> dict[tuple[str, str], dict[str, int]]:
        return {}

    # --- option meaning ---------------------------------------------------------------
    def value_means(
        self, entity: Entity, fact: Fact, value: Any, when: dt.datetime
    ) -> Callable[[str], bool]:
        shown = self.display(entity, fact, value)
        if fact.type == "integer":
            return self.number_means(int(value), fact.unit)
        if fact.type in ("month_day", "date", "datetime"):
            stated = StatedFact(entity, fact, value, when)
            return lambda option: fact_stated(option, stated, self.loc)
        return lambda option: same_text(option, shown, self.loc)

    def number_means(self, number: int, unit: str | None = None) -> Callable[[str], bool]:
        """Whether an option states ``number`` and no other number, read with ``unit``
        taken out first: a unit may hold a numeral ("195万元", 195 in units of 万元,
        is otherwise read as 195 and 10,000)."""
        if unit:
            return lambda option: numbers_in(option.replace(unit, " "), self.loc) == [number]
        return lambda option: numbers_in(option, self.loc) == [number]

    def text_means(self, text: str) -> Callable[[str], bool]:
        return lambda option: same_text(option, text, self.loc)


def same_text(a: str, b: str, loc: LocaleData) -> bool:
    """Equal after normalisation, or word for word with numbers as digits."""
    return squash(a) == squash(b) or words(a, loc) == words(b, loc)


ENTITY_KEYS = ("entity", "first", "second")
ENTITY_LISTS = ("entities",)


def remap(params: dict[str, Any], mapping: dict[str, str]) -> dict[str, Any]:
    """``params`` with entity ids replaced (to ask the same question of another profile)."""
    out = dict(params)
    for k in ENTITY_KEYS:
        if k in out:
            out[k] = mapping.get(out[k], out[k])
    for k in ENTITY_LISTS:
        if k in out:
            out[k] = [mapping.get(e, e) for e in out[k]]
    if "parts" in out:
        out["parts"] = [{**p, "params": remap(p.get("params", {}), mapping)} for p in out["parts"]]
    return out


def entity_ids(params: dict[str, Any]) -> list[str]:
    """Every entity the params name, in order."""
    found = [params[k] for k in ENTITY_KEYS if k in params]
    for k in ENTITY_LISTS:
        found += list(params.get(k, []))
    for part in params.get("parts", []):
        found += entity_ids(part.get("params", {}))
    return list(dict.fromkeys(str(e) for e in found))


def reference_time(prov: dict[str, Any]) -> dt.datetime:
    try:
        return dt.datetime.fromisoformat(str(prov.get("reference_time")))
    except ValueError:
        raise DerivationError(f"reference time {prov.get('reference_time')!r}") from None


__all__ = [
    "DerivationError",
    "Derived",
    "Deriver",
    "entity_ids",
    "reference_time",
    "remap",
    "same_text",
]
