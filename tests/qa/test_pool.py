"""The value pool closes the option-prior shortcut: answers are flattened to uniform over
the values the question leaves possible, and distractors come from those values."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from scipy.stats import chisquare

from memsim.qa import QA_KINDS, QAContext, ValuePool, make_context
from memsim.sampling import ProfileSampler
from memsim.schema import load_schema

ROOT = Path(__file__).parents[2]


@pytest.fixture(scope="module")
def ctx() -> QAContext:
    return make_context(load_schema(ROOT / "schemas" / "daily_life.en.yaml"), 0)


def test_accept_flattens_a_skewed_attribute_exactly() -> None:
    # 'a' is 8 times as common as 'd': kept answers must come out uniform
    column = ("a",) * 400 + ("b",) * 200 + ("c",) * 100 + ("d",) * 50 + ("e",) * 50
    pool = ValuePool({("k", "x"): column}, {"k": {"x": column}}, len(column))
    rng = np.random.default_rng(0)
    kept: Counter[str] = Counter()
    for value in rng.choice(list(column), size=40000):
        if pool.accept("k", "x", str(value), rng):
            kept[str(value)] += 1
    assert set(kept) == {"a", "b", "c", "d", "e"}
    assert chisquare(list(kept.values())).pvalue > 1e-3, kept


def test_support_is_conditional_on_what_is_revealed() -> None:
    kinds = ("x",) * 60 + ("y",) * 60
    values = tuple(f"x{i % 5}" for i in range(60)) + tuple(f"y{i % 5}" for i in range(60))
    pool = ValuePool({("k", "v"): values}, {"k": {"kind": kinds, "v": values}}, 120)
    support = pool.support("k", "v", (("kind", "x"),))
    assert support is not None and set(support) == {f"x{i}" for i in range(5)}
    rng = np.random.default_rng(1)
    drawn = pool.sample_support("k", "v", 10, rng, (("kind", "y"),))
    assert sorted(map(str, drawn)) == [f"y{i}" for i in range(5)]
    # too few matching pool entities: no estimate, no question
    assert pool.support("k", "v", (("kind", "z"),)) is None


def test_a_name_reveals_what_it_is_made_of(ctx: QAContext) -> None:
    profile = next(iter(ProfileSampler(ctx.net).profiles(5, 0, 1)))
    event = profile.entity("work_event[0]")
    # the event is named by its name, made from its type and location
    assert ctx.revealed(event, ["name"], "scale") == (("type", event.facts["type"].value),)
    assert ctx.revealed(event, ["name"], "time") == ()  # time depends on neither
    assert ctx.revealed(event, ["name"], "location") is None  # the name says it


def test_simple_questions_never_ask_what_the_name_gives_away(ctx: QAContext) -> None:
    rng = np.random.default_rng(2)
    asked: Counter[str] = Counter()
    for profile in ProfileSampler(ctx.net).profiles(3, 0, 150):
        for scenario in ("items", "places", "events"):
            draft = QA_KINDS.get("simple").make(ctx, profile, scenario, rng)
            if draft is not None:
                asked[f"{scenario}.{draft.params['attribute']}"] += 1
    assert asked, "no simple question at all"
    leaked = {"items.type", "items.name", "places.type", "places.name", "events.type"}
    assert not leaked & set(asked), asked
    assert asked["items.opinion"] and asked["places.opinion"]


def test_a_text_gives_away_what_its_texts_are_made_of(ctx: QAContext) -> None:
    profile = next(iter(ProfileSampler(ctx.net).profiles(6, 0, 1)))
    relative, colleague = profile.entity("relative[0]"), profile.entity("colleague[0]")
    # an e-mail address is made from the name and the employer, made from the work city
    for asked in ("name", "employer", "work_city", "occupation"):
        assert ctx.revealed(relative, ["email"], asked) is None, asked
    assert ctx.revealed(relative, ["email"], "hobby") == ()
    # a colleague's address is at the user's employer, whose city colleagues often share
    assert ctx.revealed(colleague, ["email"], "work_city") is None
