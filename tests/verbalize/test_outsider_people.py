"""A value said of someone outside the profile ("my friend Grace is 172 cm tall") is a
person's attribute only: the user's, or a ``roles`` kind's with a person's name. A held-out
Chinese library schema's book has an ``author`` (a person's name), and its page count,
price and condition were said of the locale's hearsay people ("我同行吕静有227页",
"my colleague Lü Jing has 227 pages"); an event with a leader's name was taken for a
person alike. Items, places and events now keep the ``hearsay_of`` lines ("a friend's
book's price is ...")."""

from __future__ import annotations

from pathlib import Path

import pytest

from memsim.schema import PersonName, SchemaError, is_person, load_schema, parse_schema
from memsim.verbalize import outsider_phrasings
from memsim.verbalize._overlay import schema_locale

ROOT = Path(__file__).resolve().parents[2]


def test_only_people_lend_their_phrasings_to_outsiders() -> None:
    schema = load_schema(ROOT / "tests" / "data" / "library.zh.yaml")
    loc = schema_locale(schema)
    named = {
        kind: entity.scenario
        for kind, entity in schema.entities.items()
        if any(isinstance(a.dist, PersonName) for a in schema.attributes_of(kind).values())
    }
    assert "roles" in named.values() and set(named.values()) - {"roles", "user"}, named
    lenders = {
        kind: scenario
        for kind, scenario in named.items()
        if any(
            outsider_phrasings(schema, loc, kind, attr)
            for attr, a in schema.attributes_of(kind).items()
            if a.type not in ("text", "datetime")
        )
    }
    assert "roles" in lenders.values()  # people still lend theirs
    assert set(lenders.values()) <= {"roles", "user"}, lenders  # a walk led by someone is not


def test_a_firm_with_a_contact_person_is_not_a_person(tmp_path: Path) -> None:
    # workshop's clients are firms named by their company, with a contact person's
    # name beside it: a client's yearly spend said of "my friend Grace" would read as
    # a person's; a kind is a person only when its name (role: name) is a person's
    text = (ROOT / "tests" / "data" / "workshop.en.yaml").read_text(encoding="utf-8")
    own = '            - "{company} spends about {value} {unit} a year with me."\n'
    assert text.count(own) == 1
    said_of_who = '            - "{whose} yearly spend with me is {value} {unit}."\n'
    path = tmp_path / "workshop.en.yaml"
    path.write_text(text.replace(own, own + said_of_who), encoding="utf-8")
    schema = load_schema(path)
    loc = schema_locale(schema)
    client = schema.attributes_of("client")
    assert any(isinstance(a.dist, PersonName) for a in client.values())  # the contact
    assert not is_person(schema, "client") and not is_person(schema, "supplier")
    assert outsider_phrasings(schema, loc, "client", "yearly_spend") == []
    assert is_person(schema, "owner")  # the user
    pets = load_schema(ROOT / "tests" / "data" / "pets.en.yaml")
    assert not is_person(pets, "pet") and is_person(pets, "carer")


def test_a_roles_kind_named_otherwise_is_not_a_person_for_its_contact() -> None:
    """A held-out game developer's publishers are named 鲸落发行 (``role: name``) and
    have a contact person: "做美术的朋友晨开出的预付金是200万元" said a publisher's advance
    of a friend. A roles kind named by something else than its person's name now keeps the
    ``hearsay_of`` lines; people named by a person's name still lend their phrasings."""
    schema = load_schema(ROOT / "tests" / "data" / "gamedev.zh.yaml")
    loc = schema_locale(schema)
    assert isinstance(schema.attributes_of("publisher")["contact"].dist, PersonName)
    assert outsider_phrasings(schema, loc, "publisher", "advance") == []
    # a person named by a person's name keeps lending them (library's readers)
    library = load_schema(ROOT / "tests" / "data" / "library.zh.yaml")
    people = [
        k
        for k, e in library.entities.items()
        if e.scenario == "roles"
        and any(
            outsider_phrasings(library, schema_locale(library), k, a)
            for a in library.attributes_of(k)
        )
    ]
    assert people, "library's people lend no phrasing"


def test_a_kind_says_whether_it_is_people(tmp_path: Path) -> None:
    # gamedev's testers are people named by a nickname (a categorical, not a
    # person_name): inferred, they would be asked with 哪个/个; their `person: true`
    # makes them people, and `person: false` undoes the inference for a firm
    schema = load_schema(ROOT / "tests" / "data" / "gamedev.zh.yaml")
    assert is_person(schema, "tester") and not is_person(schema, "publisher")
    text = (ROOT / "tests" / "data" / "gamedev.zh.yaml").read_text(encoding="utf-8")
    undeclared = tmp_path / "gamedev.zh.yaml"
    undeclared.write_text(text.replace("    person: true", "    person: null"), encoding="utf-8")
    assert not is_person(load_schema(undeclared), "tester")
    pets = (ROOT / "tests" / "data" / "pets.en.yaml").read_text(encoding="utf-8")
    assert "  carer:\n" in pets
    denied = tmp_path / "pets.en.yaml"
    denied.write_text(pets.replace("  carer:\n", "  carer:\n    person: false\n", 1), "utf-8")
    assert not is_person(load_schema(denied), "carer")


def test_only_user_and_roles_kinds_can_be_people() -> None:
    path = ROOT / "tests" / "data" / "gamedev.zh.yaml"
    text = path.read_text(encoding="utf-8")
    assert "  game:\n" in text
    with pytest.raises(SchemaError) as err:
        parse_schema(text.replace("  game:\n", "  game:\n    person: true\n", 1), str(path))
    (message,) = [m for m in err.value.messages if "person" in m]
    assert message.startswith(f"{path}:") and "only the user and roles kinds" in message
