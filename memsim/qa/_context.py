"""What every QA kind needs: the schema, the locale, the verbalizer and value pools,
plus small helpers over a profile's entities."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from string import Formatter
from typing import Any

import numpy as np

from memsim.graph import BRNet
from memsim.profile import Entity, Fact, Profile
from memsim.qa._choices import ValuePool, numeric_options, pick_distinct
from memsim.qa._types import FactRef
from memsim.schema import Attribute, Schema
from memsim.verbalize import LocaleData, TemplateVerbalizer, render_value

SCENARIOS = ("roles", "events", "items", "places")
ORDERED_TYPES = ("integer", "month_day", "date", "datetime")


@dataclass(frozen=True)
class QAContext:
    schema: Schema
    net: BRNet
    loc: LocaleData
    verbalizer: TemplateVerbalizer
    pool: ValuePool
    noise_profiles: tuple[Profile, ...]

    # --- entities and attributes -------------------------------------------------------
    def group(self, profile: Profile, scenario: str) -> list[Entity]:
        return [e for e in profile.entities if e.scenario == scenario]

    def attribute(self, entity: Entity, attr: str) -> Attribute:
        return self.schema.attributes_of(entity.kind)[attr]

    def askable(self, entity: Entity) -> list[str]:
        """Attributes a question may ask about: not the ones the entity is named by
        (asking "my mother"'s relation gives itself away) and not gender."""
        refer = self.schema.entities[entity.kind].refer.get(self.loc.code, "")
        named_by = {f for _, f, _, _ in Formatter().parse(refer) if f}
        return [a for a in entity.facts if a not in named_by and a != "gender"]

    def ordered(self, entity: Entity, attr: str) -> bool:
        a = self.attribute(entity, attr)
        return a.type in ORDERED_TYPES or (a.type == "categorical" and a.ordered)

    def label(self, entity: Entity, attr: str) -> str:
        return self.attribute(entity, attr).label.get(self.loc.code, attr.replace("_", " "))

    def group_label(self, entities: Sequence[Entity], plural: bool) -> str:
        kinds = list(dict.fromkeys(e.kind for e in entities))
        labels = [self.schema.entities[k].label.get(self.loc.code, k) for k in kinds]
        if plural:
            labels = [self.loc.plural.format(label=x) for x in labels]
        out = labels[0]
        for extra in labels[1:]:
            out = (self.loc.both if plural else self.loc.either).format(a=out, b=extra)
        return out

    def who(self, entity: Entity) -> str:
        return self.verbalizer.who(entity)

    # --- values -----------------------------------------------------------------------
    def display(self, entity: Entity, attr: str, value: object | None = None) -> str:
        """A value as an answer or option writes it (absolute dates, with the unit)."""
        fact = entity.facts[attr]
        text = render_value(
            fact, fact.value if value is None else value, self.loc, None, relative=False
        )
        unit = self.attribute(entity, attr).unit
        return self.loc.with_unit.format(value=text, unit=unit) if unit else text

    def comparable(self, entities: Sequence[Entity], attr: str) -> bool:
        """Whether the entities' values of ``attr`` can be compared with each other:
        the same type and, for categoricals, the same values in the same order (the
        event kinds' ``type`` attributes, for instance, have different values)."""
        attrs = [self.attribute(e, attr) for e in entities if attr in e.facts]
        if len(attrs) != len(entities) or len({a.type for a in attrs}) != 1:
            return False
        if attrs[0].type == "categorical":
            return len({tuple(self.schema.values_of(a)) for a in attrs}) == 1
        return True

    def sort_key(self, entity: Entity, attr: str, value: object) -> Any:
        a = self.attribute(entity, attr)
        if a.type == "categorical":
            return self.schema.values_of(a).index(str(value))
        return value

    def value_options(
        self, entity: Entity, attr: str, rng: np.random.Generator
    ) -> list[str] | None:
        """The entity's value and three distractors of the same attribute."""
        a = self.attribute(entity, attr)
        fact = entity.facts[attr]
        if a.type == "integer":
            numbers = numeric_options(int(fact.value), rng, a.min, a.max)
            return None if numbers is None else [self.display(entity, attr, v) for v in numbers]
        answer = self.display(entity, attr)
        # a dozen uniform draws almost always hold 3 usable ones; else look at them all
        for k in (12, 10**9):
            sample = self.pool.sample_distinct(entity.kind, attr, k, rng)
            picked = pick_distinct(
                [self.display(entity, attr, v) for v in sample], [answer], 3, rng
            )
            if picked is not None:
                return [answer, *picked]
        return None

    def accept(self, entity: Entity, attr: str, rng: np.random.Generator) -> bool:
        if self.attribute(entity, attr).type != "categorical":
            return True
        return self.pool.accept(entity.kind, attr, entity.facts[attr].value, rng)

    @staticmethod
    def ref(entity: Entity, attr: str) -> FactRef:
        return FactRef(entity.id, attr)

    @staticmethod
    def fact(entity: Entity, attr: str) -> Fact:
        return entity.facts[attr]

    def choose(self, items: Sequence[str], rng: np.random.Generator) -> str:
        return items[int(rng.integers(len(items)))]

    def wording(self, kind: str, scenario: str, rng: np.random.Generator) -> str:
        """One of the locale's question templates for a kind in a scenario."""
        return self.choose(self.loc.questions.wording(kind, scenario), rng)

    def cap(self, text: str) -> str:
        return self.loc.cap(text)


def others(entities: Sequence[Entity], entity: Entity) -> list[Entity]:
    return [e for e in entities if e.id != entity.id]


__all__ = ["ORDERED_TYPES", "SCENARIOS", "QAContext", "others"]
