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


@pytest.mark.parametrize("locale", ["en", "zh"])
def test_change_match_is_the_pattern_of_the_days(locale: str) -> None:
    """The change-told pattern compiled once per number of days (the days written
    before the text) matches as the one compiled with the days themselves: the same
    opener and sentence, or no match, on real templates, dates that are prefixes of
    one another, and random texts around them."""
    from memsim.audit._unfaithful import _change_match, _change_pattern

    loc = schema_locale(load_schema(ROOT / "schemas" / f"daily_life.{locale}.yaml"))
    rng = random.Random(5)
    days = ["May 3, 2025", "May 31, 2025", "2025年5月3日", "2025年5月31日", "3", "x.y"]
    bits = ["I moved", " on ", "My job: chef.", "Quick update: ", "，", "。", "7", " ", "a"]
    matched = 0
    for _ in range(4000):
        template = rng.choice(loc.history.change_told)
        chosen = tuple(sorted(rng.sample(days, rng.randint(1, 3))))
        filled = template.format(
            cause=rng.choice(["a move", "the new job", "搬家", "x"]),
            date=rng.choice(chosen),
            sentence="".join(rng.choice(bits) for _ in range(rng.randint(1, 4))),
        )
        text = rng.choice(["", "Hey: ", "7 "]) + filled + rng.choice(["", ".", " 7"])
        old = _change_pattern(template, chosen).fullmatch(text)
        new = _change_match(template, chosen, text)
        assert (old is None) == (new is None), text
        if old is not None and new is not None:
            matched += 1
            assert (old["opener"], old["sentence"]) == (new["opener"], new["sentence"]), text
    assert matched > 1000
