"""Profiles: one sample of the BRNet, the ground truth every later stage reads.

A profile is JSON on disk and frozen dataclasses in memory. Each fact has a stable id
(the node id, e.g. ``relative[1].age``). ``value`` is the value at the start of the
timeline, the one its dependants were drawn from; a fact that changes during the
timeline also has a ``history`` of (value, since, cause) steps, the first being the
initial value.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, NamedTuple

PROFILE_FORMAT = 1


class ValueStep(NamedTuple):
    value: Any
    since: str | None
    """ISO date-time the value holds from; None for the initial value."""
    cause: str | None = None
    event_id: str | None = None


class Fact(NamedTuple):
    """One attribute value of one entity (a NamedTuple: profiles hold millions of them)."""

    id: str
    attribute: str
    type: str
    value: Any
    unit: str | None = None
    history: tuple[ValueStep, ...] = ()

    def value_at(self, when: str) -> Any:
        """The value that holds at ISO date-time ``when``."""
        current = self.value
        for step in self.history[1:]:
            if step.since is not None and step.since <= when:
                current = step.value
        return current

    def last_change(self, when: str) -> ValueStep | None:
        """The change that brought the value in force at ISO date-time ``when`` (None:
        the value has not changed by then)."""
        last = None
        for step in self.history[1:]:
            if step.since is not None and step.since <= when:
                last = step
        return last

    @property
    def final_value(self) -> Any:
        return self.history[-1].value if self.history else self.value


@dataclass(frozen=True)
class Entity:
    id: str
    kind: str
    index: int
    scenario: str
    facts: dict[str, Fact]

    @cached_property
    def memo(self) -> dict[Any, Any]:
        """What later stages compute from this entity (with their context), remembered
        on it: it lives and dies with the entity, so no memo elsewhere keeps old
        profiles alive. Not a field: equality, ``repr`` and JSON ignore it; callers key
        what they store by the context it depends on."""
        return {}


@dataclass(frozen=True)
class ChangeEvent:
    id: str
    fact: str
    cause: str
    time: str
    before: Any
    after: Any


@dataclass(frozen=True)
class Profile:
    id: str
    index: int
    seed: int
    schema_name: str
    schema_version: str
    locale: str
    timeline: tuple[str, str]
    entities: tuple[Entity, ...]
    changes: tuple[ChangeEvent, ...] = field(default=())

    def entity(self, entity_id: str) -> Entity:
        return self._by_id[entity_id]

    @cached_property
    def memo(self) -> dict[Any, Any]:
        """What later stages compute from this profile (with their context), remembered
        on it, as :attr:`Entity.memo` (it is frozen, so an answer stays true); each
        reader keys by its own tuples (the audit's start with "audit")."""
        return {}

    @cached_property
    def _by_id(self) -> dict[str, Entity]:
        """Entities by id, built on first use (the audit looks entities up by the million)."""
        return {e.id: e for e in reversed(self.entities)}  # the first of a repeated id wins

    def of_kind(self, kind: str) -> list[Entity]:
        return [e for e in self.entities if e.kind == kind]

    def fact(self, fact_id: str) -> Fact:
        entity_id = fact_id.rsplit(".", 1)[0]
        return self.entity(entity_id).facts[fact_id.rsplit(".", 1)[1]]

    def to_json(self) -> dict[str, Any]:
        return {
            "format_version": PROFILE_FORMAT,
            "id": self.id,
            "index": self.index,
            "seed": self.seed,
            "schema": {
                "name": self.schema_name,
                "version": self.schema_version,
                "locale": self.locale,
            },
            "timeline": {"start": self.timeline[0], "end": self.timeline[1]},
            "entities": [
                {
                    "id": e.id,
                    "kind": e.kind,
                    "index": e.index,
                    "scenario": e.scenario,
                    "facts": [_fact_json(f) for f in e.facts.values()],
                }
                for e in self.entities
            ],
            "changes": [
                {
                    "id": c.id,
                    "fact": c.fact,
                    "cause": c.cause,
                    "time": c.time,
                    "before": c.before,
                    "after": c.after,
                }
                for c in self.changes
            ],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Profile:
        if data.get("format_version") != PROFILE_FORMAT:
            raise ValueError(f"unsupported profile format {data.get('format_version')!r}")
        entities = tuple(
            [
                Entity(e["id"], e["kind"], e["index"], e["scenario"], _facts_from_json(e["facts"]))
                for e in data["entities"]
            ]
        )
        changes = tuple(
            ChangeEvent(c["id"], c["fact"], c["cause"], c["time"], c["before"], c["after"])
            for c in data.get("changes", [])
        )
        return cls(
            id=data["id"],
            index=data["index"],
            seed=data["seed"],
            schema_name=data["schema"]["name"],
            schema_version=data["schema"]["version"],
            locale=data["schema"]["locale"],
            timeline=(data["timeline"]["start"], data["timeline"]["end"]),
            entities=entities,
            changes=changes,
        )


def _fact_json(f: Fact) -> dict[str, Any]:
    out: dict[str, Any] = {"id": f.id, "attribute": f.attribute, "type": f.type, "value": f.value}
    if f.unit is not None:
        out["unit"] = f.unit
    if f.history:
        out["history"] = [
            {"value": s.value, "since": s.since, "cause": s.cause, "event": s.event_id}
            for s in f.history
        ]
    return out


_new = tuple.__new__
"""A NamedTuple built from a whole tuple at once: the class's own ``__new__`` is Python
code that fills in defaults; a profile read builds about 120 facts, an audit reads
thousands of profiles."""


def _facts_from_json(facts: list[dict[str, Any]]) -> dict[str, Fact]:
    """An entity's facts by attribute, as ``Fact(f["id"], f["attribute"], f["type"],
    f["value"], f.get("unit"), history)`` would build them, the same keys missing raising
    the same KeyError."""
    return {
        f["attribute"]: _new(
            Fact,
            (
                f["id"],
                f["attribute"],
                f["type"],
                f["value"],
                f.get("unit"),
                # most facts never change: no history list to walk
                _history(steps) if (steps := f.get("history")) else (),
            ),
        )
        for f in facts
    }


def _history(steps: list[dict[str, Any]]) -> tuple[ValueStep, ...]:
    return tuple(
        [_new(ValueStep, (s["value"], s["since"], s.get("cause"), s.get("event"))) for s in steps]
    )
