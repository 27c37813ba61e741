"""Which facts a message could only state as a tautology: a value the entity's name
holds, as whole words (as characters in Chinese)."""

from __future__ import annotations

import re
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from memsim.graph import BRNet
from memsim.qa import make_context
from memsim.sampling import ProfileSampler
from memsim.schema import load_schema
from memsim.verbalize import says_itself, schema_locale, tautologies
from memsim.verbalize._tautology import holds

ROOT = Path(__file__).resolve().parents[2]


def test_a_name_holds_a_value_as_whole_words() -> None:
    assert holds("Pinecrest Park", "park")
    assert holds("The Boston Career Fair", "Boston")
    assert holds("Salt Lake City Group Fitness Class", "Salt Lake City")
    assert not holds("Parkside Commons", "park")  # part of a word
    assert not holds("Boston Career Fair", "New York")
    assert holds("阳光小区", "小区")
    assert not holds("东湖公园", "小区")
    assert not holds("Mall A", "a")  # one letter says nothing


_PIECES = st.sampled_from(["park", "Park", " ", "-", "_", "é", "3", "a", "x", "Ü", ".", "ß"])


@settings(max_examples=400, derandomize=True)
@given(
    st.lists(_PIECES, max_size=8).map("".join),
    st.lists(_PIECES, min_size=1, max_size=3).map("".join),
)
def test_holds_finds_what_the_whole_word_pattern_finds(name: str, value: str) -> None:
    """``holds`` checks the boundaries by hand; it must agree with the regex it replaced."""
    folded, needle = name.casefold(), value.casefold().strip()
    expected = len(needle) >= 2 and (
        re.search(rf"(?<!\w){re.escape(needle)}(?!\w)", folded) is not None
    )
    assert holds(name, value) == expected


def test_default_events_say_their_city_and_people_say_nothing() -> None:
    """Every default work and leisure event's name is made from its city; a person
    is called "my {relation}", which holds none of their values."""
    schema = load_schema(ROOT / "schemas" / "daily_life.en.yaml")
    ctx = make_context(schema, 0)
    loc = schema_locale(schema)
    events = people = 0
    for profile in ProfileSampler(ctx.net).profiles(0, 0, 20):
        for e in profile.entities:
            if e.kind in ("work_event", "leisure_event"):
                events += says_itself(schema, loc, e, "location")
                assert not says_itself(schema, loc, e, "name")  # what it is called by
            if e.kind in ("relative", "colleague"):
                people += sum(says_itself(schema, loc, e, a) for a in e.facts)
    assert events == 20 * 4
    assert people == 0


def test_tautologies_are_the_attributes_that_say_themselves() -> None:
    """``tautologies`` (one pass per entity, as the trajectory's filler reads it) is
    ``says_itself`` of each attribute, on sampled lives of three schemas."""
    found = 0
    for name in ("daily_life.en.yaml", "daily_life.zh.yaml", "campus.en.yaml"):
        schema = load_schema(ROOT / "schemas" / name)
        loc = schema_locale(schema)
        for profile in ProfileSampler(BRNet(schema)).profiles(3, 0, 40):
            for e in profile.entities:
                said = {a for a in e.facts if says_itself(schema, loc, e, a)}
                assert tautologies(schema, loc, e) == said
                found += len(said)
    assert found > 40  # the comparison saw tautologies, not only empty sets
