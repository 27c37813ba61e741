"""Reading a profile: ``Profile.from_json`` builds the same facts as the NamedTuples'
own constructors, and ``profile_problems``' one-loop quick path for a clean entity
reports exactly what the fact-by-fact check reports, on clean and broken profiles."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from memsim.graph import BRNet
from memsim.profile import Profile, profile_problems
from memsim.profile._check import _checkers, _fact_ok, _fact_problems
from memsim.profile._types import Fact, ValueStep
from memsim.sampling import ProfileSampler
from memsim.schema import Schema, load_schema

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def sampled() -> tuple[Schema, list[Profile]]:
    schema = load_schema(ROOT / "schemas" / "daily_life.en.yaml")
    return schema, list(ProfileSampler(BRNet(schema)).profiles(5, 0, 60))


def _fact_by_fact(profile: Profile, schema: Schema) -> list[str]:
    """The check without its quick path: every fact through _fact_ok / _fact_problems."""
    if profile.schema_name != schema.name:
        return [f"schema: sampled from '{profile.schema_name}', not '{schema.name}'"]
    out: list[str] = []
    domains: Any = {}
    for entity in profile.entities:
        if entity.kind not in schema.entities:
            out.append(f"{entity.id}: the schema has no entity kind '{entity.kind}'")
            continue
        checkers = _checkers(schema, entity.kind, domains)
        for fact in entity.facts.values():
            if not _fact_ok(entity.id, fact, checkers):
                out += _fact_problems(schema, entity.kind, entity.id, fact, domains)
        missing = set(checkers) - set(entity.facts)
        out += [f"{entity.id}.{name}: missing" for name in sorted(missing)]
    return out


def test_from_json_builds_the_constructors_facts(sampled: tuple[Schema, list[Profile]]) -> None:
    _, profiles = sampled
    changing = 0
    for profile in profiles:
        again = Profile.from_json(profile.to_json())
        assert again == profile
        for entity in again.entities:
            for fact in entity.facts.values():
                built = Fact(
                    fact.id, fact.attribute, fact.type, fact.value, fact.unit, fact.history
                )
                assert type(fact) is Fact and fact == built
                assert all(type(s) is ValueStep for s in fact.history)
                changing += bool(fact.history)
    assert changing > 0


def test_from_json_names_a_missing_key(sampled: tuple[Schema, list[Profile]]) -> None:
    data = sampled[1][0].to_json()
    del data["entities"][0]["facts"][2]["type"]
    with pytest.raises(KeyError, match="type"):
        Profile.from_json(data)


def _breaks(data: dict[str, Any]) -> list[dict[str, Any]]:
    """Copies of a profile's JSON, each broken one way."""
    out = []
    for change in range(7):
        d = copy.deepcopy(data)
        facts = d["entities"][change % 3]["facts"]
        if change == 0:
            facts[1]["value"] = "nonsense"
        elif change == 1:
            facts[0]["id"] = "someone.else"
        elif change == 2:
            facts.pop()
        elif change == 3:
            facts.append({**facts[0], "attribute": "shoe_size", "id": "x.shoe_size"})
        elif change == 4:
            facts[2]["type"] = "date"
        elif change == 5:
            changed = [f for e in d["entities"] for f in e["facts"] if f.get("history")]
            changed[0]["history"][-1]["value"] = "nowhere"
        else:
            facts.append(dict(facts[0]))  # the same attribute twice: the last wins
        out.append(d)
    return out


def test_quick_path_reports_what_the_full_check_does(
    sampled: tuple[Schema, list[Profile]],
) -> None:
    schema, profiles = sampled
    broken = 0
    for profile in profiles[:20]:
        assert profile_problems(profile, schema) == [] == _fact_by_fact(profile, schema)
        for data in _breaks(profile.to_json()):
            bad = Profile.from_json(data)
            got = profile_problems(bad, schema)
            assert got == _fact_by_fact(bad, schema)
            broken += bool(got)
    assert broken >= 20 * 5
