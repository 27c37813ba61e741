"""Every phrasing of every bundled schema renders into clean text, in every locale, and
every question template of every locale names only tokens the QA kinds fill."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import numpy as np
import pytest

from memsim.graph import BRNet
from memsim.qa import QA_KINDS
from memsim.qa.aggregative import OPS
from memsim.qa.post_processing import TRANSFORMS
from memsim.sampling import sample_profiles
from memsim.schema import load_schema
from memsim.verbalize import LocaleData, TemplateVerbalizer, load_locale
from memsim.verbalize._locale import LOCALES_DIR

ROOT = Path(__file__).parents[2]
PSEUDO_LOCALE = ROOT / "tests" / "data" / "locales" / "xx.yaml"
SCHEMAS = sorted((ROOT / "schemas").glob("*.yaml"))
LOCALES = sorted(LOCALES_DIR.glob("*.yaml"))
# the test-only pseudo-locale and its schema are held to the same rules
ALL_LOCALES = [*LOCALES, PSEUDO_LOCALE]
ALL_SCHEMAS = [*SCHEMAS, ROOT / "tests" / "data" / "pseudo.yaml"]

LEFTOVER = re.compile(
    r"[{}]|\bNone\b|\s{2,}|\s[.,!?。，！？、；：]"
    # a full-width mark doubled ("。。", "，。"): a phrasing that ends a value that ends
    # itself. (The English schema has such a case, "Atlanta Builders Inc..", left as
    # it is so that its output does not change.)
    r"|[。，！？；：][。，！？；：]"
)
QUESTION_TOKENS = {
    "who",
    "label",
    "group",
    "label_a",  # a date transform of two dates by their labels (days_between_of)
    "label_b",
    "cond_label",
    "cond_value",
    "measure",  # the measure word of the pool of the entity a conditional picks out (zh 单)
    "a",
    "b",
    "more",
    "predicate",
    "value",
    "k",
    "question",
    "first",
    "second",
}


def _locale_of(schema_path: Path) -> LocaleData:
    code = load_schema(schema_path).locale
    bundled = LOCALES_DIR / f"{code}.yaml"
    return load_locale(str(bundled if bundled.exists() else PSEUDO_LOCALE))


def test_every_bundled_schema_has_bundled_locale_data() -> None:
    codes = {p.stem for p in LOCALES}
    assert {load_schema(p).locale for p in SCHEMAS} <= codes
    assert {"en", "zh"} <= codes


@pytest.mark.parametrize("path", ALL_SCHEMAS, ids=lambda p: p.name)
def test_every_phrasing_renders_without_leftovers(path: Path) -> None:
    schema = load_schema(path)
    loc = _locale_of(path)
    verbalizer = TemplateVerbalizer(schema, loc)
    profiles = sample_profiles(BRNet(schema), seed=1, n=30)
    when = dt.datetime(2024, 5, 6, 9, 30)
    seen = 0
    for profile in profiles:
        for entity in profile.entities:
            for fact in entity.facts.values():
                attr = schema.attributes_of(entity.kind)[fact.attribute]
                phrasings = attr.phrasings[schema.locale]
                assert attr.label.get(schema.locale), (entity.kind, fact.attribute)
                for i in range(len(phrasings)):
                    # a generator whose first draw picks phrasing i
                    rng = _rng_choosing(i, len(phrasings))
                    text = verbalizer.sentence(entity, fact, when, rng)
                    assert not LEFTOVER.search(text), (
                        entity.id,
                        fact.attribute,
                        phrasings[i],
                        text,
                    )
                    if loc.capitalize:
                        assert text[0].isupper() or text[0].isdigit(), text
                    seen += 1
    assert seen > 300


@pytest.mark.parametrize("path", SCHEMAS, ids=lambda p: p.name)
def test_bundled_schemas_say_every_fact_several_ways(path: Path) -> None:
    schema = load_schema(path)
    for kind, entity in schema.entities.items():
        assert entity.refer.get(schema.locale) and entity.label.get(schema.locale), kind
        for name, attr in schema.attributes_of(kind).items():
            assert len(attr.phrasings.get(schema.locale, [])) >= 3, (kind, name)


def _rng_choosing(index: int, n: int) -> np.random.Generator:
    for seed in range(10_000):
        if int(np.random.default_rng(seed).integers(n)) == index:
            return np.random.default_rng(seed)
    raise AssertionError("no seed picks that phrasing")


@pytest.mark.parametrize("path", ALL_LOCALES, ids=lambda p: p.stem)
def test_locale_question_templates_have_known_tokens(path: Path) -> None:
    loc = load_locale(str(path))
    q = loc.questions
    texts = [
        *q.simple,
        *q.conditional,
        *q.comparative,
        *q.aggregative,
        *q.noisy_preface,
        q.hybrid_join,
        *q.aggregative_predicates.values(),
        *loc.two_facts,
        *(t for ts in q.post_processing.values() for t in ts),
        *(t for kinds in q.by_scenario.values() for ts in kinds.values() for t in ts),
    ]
    for text in texts:
        tokens = set(re.findall(r"{(\w+)", text))
        assert tokens <= QUESTION_TOKENS, (text, tokens - QUESTION_TOKENS)
    assert all("{question}" in t for t in q.noisy_preface)
    assert "{first}" in q.hybrid_join and "{second}" in q.hybrid_join


@pytest.mark.parametrize("path", ALL_LOCALES, ids=lambda p: p.stem)
def test_locale_covers_every_transform_operator_and_scenario(path: Path) -> None:
    loc = load_locale(str(path))
    q = loc.questions
    assert set(TRANSFORMS) <= set(q.post_processing), set(TRANSFORMS) - set(q.post_processing)
    assert all(q.post_processing[t] for t in TRANSFORMS)
    assert set(OPS) <= set(q.aggregative_predicates)
    words = {"higher", "later", "same", "unknown", "within", "day", "days"}
    assert words <= set(q.comparative_options)
    # a comparison's stated margin (memsim.qa._margin) fills the question and a number
    assert {"question", "margin"} <= set(re.findall(r"{(\w+)", q.comparative_options["within"]))
    assert all("{n}" in q.comparative_options[k] for k in ("day", "days"))
    # keys like "gt.duration" and "higher.age" refine a known operator or word
    for key in [*q.aggregative_predicates, *q.comparative_options]:
        assert key.split(".")[0] in {*OPS, *words}, key
    scenarios = {s for k in QA_KINDS.names() for s in QA_KINDS.get(k).all_scenarios}
    for scenario, kinds in q.by_scenario.items():
        assert scenario in scenarios, scenario
        # post_processing.<transform>: the user's own transforms ("... of my phone number")
        named = {k.split(".")[0] for k in kinds}
        assert named <= {"simple", "conditional", "comparative", "aggregative", "post_processing"}
    assert len(loc.chit_chat) == len(set(loc.chit_chat)) >= 20
    assert sorted(m for months in loc.seasons.values() for m in months) == list(range(1, 13))


@pytest.mark.parametrize("path", ALL_LOCALES, ids=lambda p: p.stem)
def test_every_question_template_renders_without_leftovers(path: Path) -> None:
    """Fill every template with the locale's own words: nothing is left unfilled."""
    loc = load_locale(str(path))
    q = loc.questions
    fill = {
        "who": loc.calendar.weekdays[0],
        "label": loc.seasons and next(iter(loc.seasons)),
        "label_a": loc.seasons and next(iter(loc.seasons)),
        "label_b": loc.seasons and list(loc.seasons)[-1],
        "group": loc.plural.format(label=loc.home),
        "cond_label": loc.home,
        "cond_value": loc.calendar.months[0],
        "measure": q.measure,
        "a": loc.calendar.weekdays[1],
        "b": loc.calendar.weekdays[2],
        "more": q.comparative_options["higher"],
        "predicate": q.aggregative_predicates["gt"].format(value=3),
        "value": 3,
        "k": 3,
    }
    asked = q.simple[0].format(**fill)
    fill |= {"question": asked, "first": asked, "second": q.simple[-1].format(**fill)}
    for text in [
        *q.simple,
        *q.conditional,
        *q.comparative,
        *q.aggregative,
        *(t for ts in q.post_processing.values() for t in ts),
        *(t for kinds in q.by_scenario.values() for ts in kinds.values() for t in ts),
        *q.noisy_preface,
        q.hybrid_join,
    ]:
        rendered = text.format(**fill)
        assert not re.search(r"[{}]|\bNone\b", rendered), (text, rendered)
