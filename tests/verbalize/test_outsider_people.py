"""A value said of someone outside the profile ("my friend Grace is 172 cm tall") is a
person's attribute only: the user's, or a ``roles`` kind's with a person's name. A held-out
Chinese library schema's book has an ``author`` (a person's name), and its page count,
price and condition were said of the locale's hearsay people ("我同行吕静有227页",
"my colleague Lü Jing has 227 pages"); an event with a leader's name was taken for a
person alike. Items, places and events now keep the ``hearsay_of`` lines ("a friend's
book's price is ...")."""

from __future__ import annotations

from pathlib import Path

from memsim.schema import PersonName, load_schema
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
