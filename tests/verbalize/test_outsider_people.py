"""A value said of someone outside the profile ("my friend Grace is 172 cm tall") is a
person's attribute only: the user's, or a ``roles`` kind's with a person's name. A held-out
Chinese library schema's book has an ``author`` (a person's name), and its page count,
price and condition were said of the locale's hearsay people ("我同行吕静有227页",
"my colleague Lü Jing has 227 pages"); an event with a leader's name was taken for a
person alike. Items, places and events now keep the ``hearsay_of`` lines ("a friend's
book's price is ...")."""

from __future__ import annotations

from pathlib import Path

from memsim.schema import PersonName, is_person, load_schema
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
