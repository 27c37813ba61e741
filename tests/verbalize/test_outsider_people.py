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
