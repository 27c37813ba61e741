"""TemplateVerbalizer.who remembers a name on the entity only when it cannot change:
asked at any time, in any order, it says what refer() says afresh."""

from __future__ import annotations

import dataclasses
import datetime as dt
from pathlib import Path

import pytest

from memsim.graph import BRNet
from memsim.profile import Entity, ValueStep
from memsim.sampling import sample_profiles
from memsim.schema import load_schema
from memsim.verbalize import TemplateVerbalizer, load_locale
from memsim.verbalize._render import refer, template_fields

ROOT = Path(__file__).parents[2]
TIMES = [dt.datetime(2024, 12, 1, 9), dt.datetime(2024, 1, 2, 9), None, dt.datetime(2024, 6, 1)]


@pytest.mark.parametrize("code", ["en", "zh"])
def test_who_is_refer_at_every_time(code: str) -> None:
    schema = load_schema(ROOT / "schemas" / f"daily_life.{code}.yaml")
    loc = load_locale(code)
    verbalizer = TemplateVerbalizer(schema, loc)
    checked = 0
    for profile in sample_profiles(BRNet(schema), seed=3, n=20):
        for entity in profile.entities:
            template = schema.entities[entity.kind].refer.get(loc.code, entity.id)
            for when in TIMES:  # the latest first: a memo would show later
                assert verbalizer.who(entity, when) == refer(entity, template, loc, when)
                checked += 1
    assert checked > 200


def _renamed(entity: Entity, name: str, new: str) -> Entity:
    """The entity with its naming fact ``name`` changing to ``new`` on 2024-06-01."""
    fact = entity.facts[name]
    history = (ValueStep(fact.value, None), ValueStep(new, "2024-06-01T00:00"))
    facts = {**entity.facts, name: fact._replace(history=history)}
    return dataclasses.replace(entity, facts=facts)


def test_a_name_that_changes_is_not_remembered() -> None:
    schema = load_schema(ROOT / "schemas" / "daily_life.en.yaml")
    loc = load_locale("en")
    verbalizer = TemplateVerbalizer(schema, loc)
    profile = sample_profiles(BRNet(schema), seed=0, n=1)[0]
    named = [
        (e, f)
        for e in profile.entities
        for f in template_fields(schema.entities[e.kind].refer.get("en", ""))
        if f in e.facts
    ]
    assert named, "the English schema names some entity by a value"
    entity, field = named[0]
    changing = _renamed(entity, field, "Zanzibar")
    before, after = dt.datetime(2024, 3, 1), dt.datetime(2024, 9, 1)
    first = verbalizer.who(changing, before)
    assert "Zanzibar" in verbalizer.who(changing, after)
    assert verbalizer.who(changing, before) == first
    assert "Zanzibar" not in first
    assert not any(k[0] == "verbalize.who" for k in changing.memo)
    verbalizer.who(entity, before)  # the unchanged one is remembered
    assert any(k[0] == "verbalize.who" for k in entity.memo)
