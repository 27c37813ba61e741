"""Every phrasing of every bundled schema renders into clean text, in every locale."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import numpy as np
import pytest

from memsim.graph import BRNet
from memsim.sampling import sample_profiles
from memsim.schema import load_schema
from memsim.verbalize import TemplateVerbalizer, load_locale

SCHEMAS = sorted((Path(__file__).parents[2] / "schemas").glob("*.yaml"))
LEFTOVER = re.compile(r"[{}]|\bNone\b|\s{2,}|\s[.,!?]")


@pytest.mark.parametrize("path", SCHEMAS, ids=lambda p: p.name)
def test_every_phrasing_renders_without_leftovers(path: Path) -> None:
    schema = load_schema(path)
    verbalizer = TemplateVerbalizer(schema, load_locale(schema.locale))
    profiles = sample_profiles(BRNet(schema), seed=1, n=30)
    when = dt.datetime(2024, 5, 6, 9, 30)
    seen = 0
    for profile in profiles:
        for entity in profile.entities:
            for fact in entity.facts.values():
                attr = schema.attributes_of(entity.kind)[fact.attribute]
                phrasings = attr.phrasings[schema.locale]
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
                    assert text[0].isupper() or text[0].isdigit(), text
                    seen += 1
    assert seen > 1000


def _rng_choosing(index: int, n: int) -> np.random.Generator:
    for seed in range(10_000):
        if int(np.random.default_rng(seed).integers(n)) == index:
            return np.random.default_rng(seed)
    raise AssertionError("no seed picks that phrasing")


@pytest.mark.parametrize("code", ["en"])
def test_locale_question_templates_have_known_tokens(code: str) -> None:
    loc = load_locale(code)
    allowed = {
        "who",
        "label",
        "group",
        "cond_label",
        "cond_value",
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
    texts = [
        *loc.questions.simple,
        *loc.questions.conditional,
        *loc.questions.comparative,
        *loc.questions.aggregative,
        *loc.questions.noisy_preface,
        loc.questions.hybrid_join,
        *loc.questions.aggregative_predicates.values(),
        *loc.two_facts,
        *(t for ts in loc.questions.post_processing.values() for t in ts),
    ]
    for text in texts:
        tokens = set(re.findall(r"{(\w+)", text))
        assert tokens <= allowed, (text, tokens - allowed)
    assert all("{question}" in t for t in loc.questions.noisy_preface)
