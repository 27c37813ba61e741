"""Chinese asks a value as its type is asked: a number "是多少" and a date "是哪天" in
simple questions (``questions.by_type``) and in the general wording of conditional,
knowledge-update and "what was it on <day>" questions (``questions.asks_by_type``:
"……现在是多少？", not "……现在是什么？"), a pool's measure word kept; a categorical
keeps "是什么". Real drafts on a held-out Chinese schema (tests/data), every scenario
the kinds plan."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np

from memsim.dataset import make_context
from memsim.qa import QA_KINDS
from memsim.sampling import ProfileSampler
from memsim.schema import load_schema

DATA = Path(__file__).parents[1] / "data"
# the forms that ask an attribute's value: now, before a change, on a day
VALUE_FORMS = ("current_value", "value_before", "value_at")


def test_numbers_over_time_are_asked_how_much() -> None:
    ctx = make_context(load_schema(DATA / "photostudio.zh.yaml"), 0)
    rng = np.random.default_rng(0)
    seen: Counter[str] = Counter()
    for p in ProfileSampler(ctx.net).profiles(0, 0, 60):
        for name in ("knowledge_update", "temporal"):
            kind = QA_KINDS.get(name)
            for scenario in kind.scenarios:
                draft = kind.make(ctx, p, scenario, rng)
                if draft is None or draft.transform not in VALUE_FORMS:
                    continue
                entity = p.entity(str(draft.params["entity"]))
                type_ = ctx.attribute(entity, str(draft.params["attribute"])).type
                seen[draft.transform] += 1
                if type_ == "integer":
                    seen["integer"] += 1
                    assert "是多少" in draft.question and "是什么" not in draft.question
                else:
                    seen["other"] += 1
                    assert "是什么" in draft.question and "是多少" not in draft.question
    assert seen["integer"] >= 10 and seen["other"] >= 5
    assert all(seen[form] >= 3 for form in VALUE_FORMS), seen


def test_a_conditional_asks_its_target_as_its_type_is_asked() -> None:
    ctx = make_context(load_schema(DATA / "photostudio.zh.yaml"), 0)
    rng = np.random.default_rng(2)
    kind = QA_KINDS.get("conditional")
    seen: Counter[str] = Counter()
    for p in ProfileSampler(ctx.net).profiles(0, 0, 80):
        for scenario in kind.scenarios:
            draft = kind.make(ctx, p, scenario, rng)
            if draft is None:
                continue
            entity, target = p.entity(str(draft.params["entity"])), str(draft.params["attribute"])
            type_ = ctx.attribute(entity, target).type
            if type_ not in ("integer", "date", "categorical") or ctx.role(entity, target):
                continue
            seen[type_] += 1
            q = draft.question
            if type_ == "categorical":
                assert "是多少" not in q and "是哪天" not in q, q
            else:  # asked as a number or a day is, or "你还记得……吗？"
                assert "是什么" not in q, q
                seen["asked"] += ("是多少" in q) + ("是哪天" in q)
    assert seen["integer"] >= 5 and seen["categorical"] >= 5 and seen["asked"] >= 3, seen
    assert any("那支镜头" in q for q in _questions(ctx, kind, 80)), "a pool's measure word"


def _questions(ctx: Any, kind: Any, n: int) -> list[str]:
    """The questions ``kind`` asks about items over ``n`` profiles."""
    rng = np.random.default_rng(3)
    out = []
    for p in ProfileSampler(ctx.net).profiles(0, 0, n):
        draft = kind.make(ctx, p, "items", rng)
        if draft is not None:
            out.append(draft.question)
    return out


def test_english_asks_as_written() -> None:
    en = make_context(load_schema(DATA / "beekeeping.en.yaml"), 0).loc.questions
    assert en.asked("What is {whose} {label}?", "integer") == "What is {whose} {label}?"
    zh = make_context(load_schema(DATA / "photostudio.zh.yaml"), 0).loc.questions
    assert zh.asked("{whose}{label}现在是什么？", "integer") == "{whose}{label}现在是多少？"
    assert zh.asked("{whose}{label}现在是什么？", "categorical") == "{whose}{label}现在是什么？"


def test_a_date_is_asked_which_day() -> None:
    ctx = make_context(load_schema(DATA / "photostudio.zh.yaml"), 0)
    rng = np.random.default_rng(1)
    kind = QA_KINDS.get("simple")
    dates = 0
    for p in ProfileSampler(ctx.net).profiles(0, 0, 80):
        for scenario in kind.scenarios:
            draft = kind.make(ctx, p, scenario, rng)
            if draft is None:
                continue
            entity = p.entity(str(draft.params["entity"]))
            if ctx.attribute(entity, str(draft.params["attribute"])).type in ("date", "month_day"):
                dates += 1
                assert "是哪天" in draft.question and "是什么" not in draft.question
    assert dates >= 3
