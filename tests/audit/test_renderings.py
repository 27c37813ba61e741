"""messages_faithful asks whether a text is one of a message's renderings without making
every pair of sentences: the answers are those of ``TemplateVerbalizer.renderings``, the
set, for real facts in both locales and for random sentences and joiners."""

from __future__ import annotations

import datetime as dt
import random
from pathlib import Path

import pytest

from memsim.audit._unfaithful import _joiner_parts, _Renderings
from memsim.graph import BRNet
from memsim.sampling import ProfileSampler
from memsim.schema import load_schema
from memsim.verbalize import TemplateVerbalizer, schema_locale

ROOT = Path(__file__).resolve().parents[2]


def test_joiner_parts() -> None:
    assert _joiner_parts("{first} {second}") == ("", " ", "")
    assert _joiner_parts("{first}{second}") == ("", "", "")
    assert _joiner_parts("A{{x}} {first} - {second}!}}") == ("A{x} ", " - ", "!}")
    for other in ("{second} {first}", "{first!r} {second}", "{first:>3}{second}", "{first}"):
        assert _joiner_parts(other) is None


def test_random_sentences_and_joiners() -> None:
    rng = random.Random(3)
    bits = ["a", "b", " ", "ab", "a b", "", "{", "}", "，"]
    joiners = ["{first} {second}", "{first}{second}", "x{first}b{second}a", "{second} {first}",
               "{first}, {second}.", "{{{first}}}{second}{{"]  # fmt: skip
    for _ in range(3000):
        options = [
            [rng.choice(bits) + rng.choice(bits) for _ in range(rng.randint(1, 4))]
            for _ in range(rng.randint(1, 3))
        ]
        some = rng.sample(joiners, rng.randint(1, 3))
        whole = (
            frozenset(options[0])
            if len(options) == 1
            else frozenset(j.format(first=a, second=b) for j in some for a in options[0] for b in options[1])
        )  # fmt: skip
        asked = _Renderings(options, some)
        texts = [*whole] + [
            rng.choice(bits) * rng.randint(0, 2) + rng.choice([*whole, ""]) + rng.choice(bits)
            for _ in range(20)
        ]
        for text in texts:
            assert (text in asked) == (text in whole), (options, some, text)


@pytest.mark.parametrize("locale", ["en", "zh"])
def test_real_messages_of_two_facts(locale: str) -> None:
    schema = load_schema(ROOT / "schemas" / f"daily_life.{locale}.yaml")
    verbalizer = TemplateVerbalizer(schema, schema_locale(schema))
    joiners = schema_locale(schema).two_facts
    when = dt.datetime(2024, 6, 3, 9, 30)
    found = 0
    for profile in ProfileSampler(BRNet(schema)).profiles(2, 0, 5):
        facts = [(e, f) for e in profile.entities for f in e.facts.values()]
        for k in range(0, len(facts) - 1, 7):
            pair = facts[k : k + 2]
            whole = verbalizer.renderings(pair, when)
            asked = _Renderings(verbalizer.sentences(pair, when), joiners)
            one = verbalizer.renderings(pair[:1], when)
            for text in [*whole, *one, *(t + "." for t in whole)]:
                assert (text in asked) == (text in whole)
                found += text in asked
    assert found > 100
