"""Chinese asks a value as its type is asked: a number "是多少" in knowledge-update and
"what was it on <day>" questions too ("……现在是多少？", not "……现在是什么？", by the
locale's history ``<form>.<type>`` wording), a date "是哪天" (``questions.by_type``);
a categorical keeps the general wording. Real drafts on a held-out Chinese schema
(tests/data), every scenario the kinds plan."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

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


def test_a_locale_without_typed_wording_keeps_its_own() -> None:
    ctx = make_context(load_schema(DATA / "beekeeping.en.yaml"), 0)
    history = ctx.loc.history
    assert (
        history.asking(history.knowledge_update, "now", "integer")
        == (history.knowledge_update["now"])
    )
    zh = make_context(load_schema(DATA / "photostudio.zh.yaml"), 0).loc.history
    assert zh.asking(zh.temporal, "value_at", "integer") == zh.temporal["value_at.integer"]
    assert zh.asking(zh.temporal, "value_at", "categorical") == zh.temporal["value_at"]


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
