"""Questions worded for their attribute (the locale's ``questions.by_attribute``):
they read as one would ask ("What did I think of ...?", "How old am I?", "... the item
I own?"), every template of every locale fills without leftovers, agrees with whom it
asks about, and an attribute without wording keeps the general templates. Real
generation from the bundled schemas, en and zh."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from memsim.dataset import make_context
from memsim.dataset._generate import make_record
from memsim.qa import QAContext
from memsim.records import record_to_json
from memsim.sampling import ProfileSampler
from memsim.schema import load_schema
from memsim.verbalize import schema_locale

ROOT = Path(__file__).parents[2]
LOCALES = sorted((ROOT / "schemas").glob("*.yaml"))
"""The bundled schemas: their attributes' wording is their overlays' (memsim's locale
data words no attribute)."""
TOKENS = {"who", "whose", "be", "have", "s", "label", "a", "b", "more", "group", "value"}


@pytest.fixture(scope="module", params=["en", "zh"])
def daily(request: pytest.FixtureRequest) -> tuple[QAContext, list[Any]]:
    ctx = make_context(load_schema(ROOT / "schemas" / f"daily_life.{request.param}.yaml"), 0)
    return ctx, list(ProfileSampler(ctx.net).profiles(0, 0, 40))


def _questions(daily: tuple[QAContext, list[Any]], kind: str, scenario: str) -> list[str]:
    ctx, profiles = daily
    out = []
    for i, p in enumerate(profiles):
        r = record_to_json(make_record(ctx, p, kind, scenario, i, 0))
        out.append(r["QA"]["question"])
    return out


@pytest.mark.parametrize("path", LOCALES, ids=lambda p: p.stem)
def test_attribute_wording_has_known_tokens_and_fills(path: Path) -> None:
    q = schema_locale(load_schema(path)).questions
    assert q.by_attribute, path
    fill = dict.fromkeys(TOKENS, "X")
    for name, keys in q.by_attribute.items():
        assert set(keys) <= {"simple", "comparative", "condition"}, name
        for text in (t for ts in keys.values() for t in ts):
            tokens = set(re.findall(r"{(\w+)", text))
            assert tokens <= TOKENS, (name, text, tokens - TOKENS)
            assert not re.search(r"[{}]", text.format(**fill)), text
        for text in keys.get("comparative", []):
            assert {"a", "b"} <= set(re.findall(r"{(\w+)", text)), text
        for text in keys.get("condition", []):
            assert {"group", "value"} <= set(re.findall(r"{(\w+)", text)), text


def test_opinions_are_asked_as_one_asks_them(daily: tuple[QAContext, list[Any]]) -> None:
    """No "What is the opinion of X?": every opinion question is one of the attribute's
    own templates ("What did I think of X?")."""
    ctx, _ = daily
    asked = _questions(daily, "simple", "items") + _questions(daily, "simple", "places")
    label = ctx.schema.attributes_of("item")["opinion"].label[ctx.loc.code]
    general = [_pattern(t.replace("{label}", label)) for t in ctx.loc.questions.simple]
    own = [_pattern(t) for t in ctx.loc.questions.of_attribute("item", "opinion", "simple")]
    assert own
    assert not any(p.fullmatch(q) for q in asked for p in general), asked
    assert sum(any(p.fullmatch(q) for p in own) for q in asked) >= len(asked) // 4, asked


def _pattern(template: str) -> re.Pattern[str]:
    return re.compile(".+?".join(re.escape(p) for p in re.split(r"\{\w+\}", template)))


def test_questions_about_the_user_agree_with_the_user() -> None:
    """ "How old am I?", never "How old is I?" nor "What does I do for a living?"."""
    schema = load_schema(ROOT / "schemas" / "daily_life.en.yaml")
    ctx = make_context(schema, 0)
    profiles = list(ProfileSampler(ctx.net).profiles(0, 0, 60))
    asked = _questions((ctx, profiles), "simple", "user")
    assert any(q.endswith(" am I?") for q in asked), asked
    assert not any(re.search(r"\b(is|does|has) I\b", q) for q in asked), asked


def test_conditions_pick_things_out_as_one_would(daily: tuple[QAContext, list[Any]]) -> None:
    """ "the item I own", not "the item whose relationship is own"."""
    ctx, _ = daily
    asked = _questions(daily, "conditional", "items")
    relation = ctx.schema.attributes_of("item")["relation"].label[ctx.loc.code]
    phrase = ctx.loc.questions.of_attribute("item", "relation", "condition")[0]
    lead = phrase.split("{")[0] if not phrase.startswith("{") else phrase.split("}")[1]
    assert any(lead.strip() and lead.strip() in q for q in asked), asked
    assert not any(relation in q for q in asked), asked


def test_a_number_without_wording_is_asked_by_its_owners_possessive() -> None:
    """The campus schema's textbook price has no wording of its own: as a number it is
    asked by the locale's wording by type ("What is my Calculus textbook's price?"),
    not by the general "What is the {label} of {who}?"."""
    schema = load_schema(ROOT / "schemas" / "campus.en.yaml")
    ctx = make_context(schema, 0)
    assert not ctx.loc.questions.of_attribute("textbook", "price", "simple")
    profiles = list(ProfileSampler(ctx.net).profiles(0, 0, 30))
    asked = _questions((ctx, profiles), "simple", "items")
    label = schema.attributes_of("textbook")["price"].label["en"]
    priced = [q for q in asked if f"'s {label}?" in q]
    assert priced and not any(f" {label} of " in q for q in asked)


def test_a_number_without_wording_is_asked_as_a_number_in_chinese() -> None:
    """The campus textbook's price, an integer with no wording of its own, is asked with
    the zh locale's integer wording ("……是多少？"), not the general "……是什么？" that
    reads as asking for a name; by_attribute wording still comes first."""
    schema = load_schema(ROOT / "schemas" / "campus.zh.yaml")
    ctx = make_context(schema, 0)
    q = ctx.loc.questions
    assert (
        q.of_attribute("textbook", "price", "simple", None, "integer")
        == (q.by_type["integer"]["simple"])
    )
    assert not q.of_attribute("textbook", "price", "simple", None, "categorical")
    aged = q.of_attribute("student", "age", "simple", None, "integer")
    assert aged and aged != q.by_type["integer"]["simple"]
    profiles = list(ProfileSampler(ctx.net).profiles(0, 0, 30))
    label = schema.attributes_of("textbook")["price"].label["zh"]
    priced = [q for q in _questions((ctx, profiles), "simple", "items") if label in q]
    assert priced
    assert all("是什么" not in t for t in priced), priced
    assert any("是多少" in t for t in priced), priced
