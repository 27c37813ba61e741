"""The audit over kinds whose attributes differ: a transform over a pair of entities of
two kinds (an appointment's `slot` and a walk's `start`) asks each its own attribute,
and a change named in a question whose value holds another value ("very good" holds
"good") is read as the longer one (both failed on tests/data/pets.en.yaml), and a
person outside the profile is read by the longest of the locale's forms."""

from __future__ import annotations

from pathlib import Path

from memsim.audit._prior import _asked
from memsim.audit._timeline import _longest
from memsim.schema import load_schema
from memsim.verbalize import schema_locale
from memsim.verbalize._outsider import outsider_pattern

DATA = Path(__file__).resolve().parents[1] / "data"


def test_a_pair_transform_asks_each_entity_its_own_attribute() -> None:
    params = {"entities": ["visit[1]", "walk[0]"], "attributes": ["slot", "start"]}
    assert _asked(params, "visit[1]") == ["slot"]
    assert _asked(params, "walk[0]") == ["start"]
    same = {"entities": ["visit[0]", "visit[2]"], "attributes": ["slot", "slot"]}
    assert _asked(same, "visit[2]") == ["slot"]


def test_a_one_entity_question_asks_its_attribute() -> None:
    assert _asked({"entity": "pet[0]", "attribute": "age"}, "pet[0]") == ["age"]
    assert _asked({"first": "pet[0]", "second": "pet[1]", "attribute": "age"}, "pet[1]") == ["age"]


def test_a_value_said_inside_a_longer_one_is_the_longer_one() -> None:
    assert _longest(["good", "very good"]) == ["very good"]
    assert _longest(["听音乐", "听音乐会"]) == ["听音乐会"]
    assert _longest(["good", "so-so"]) == ["good", "so-so"]


def test_an_outsider_named_by_a_longer_form_is_read_whole() -> None:
    """ "We pay {who} {value} {unit} per day." said of "my friend from abroad Megan":
    read as the friend "from" it left "abroad Megan 291" as the value, and the audit
    called the line unfaithful (tests/data/tour.en.yaml, seed 1)."""
    schema = load_schema(DATA / "tour.en.yaml")
    loc = schema_locale(schema)
    assert "my friend from abroad {first}" in loc.hearsay_people
    pattern = outsider_pattern("We pay {who} {value} {unit} per day.", loc, "dollars")
    found = pattern.fullmatch("We pay my friend from abroad Megan 291 dollars per day.")
    assert found is not None and found.group("value") == "291"
