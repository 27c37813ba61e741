"""A knowledge-update or "what was it on <day>" question about a number is asked as a
number is in the locale ("……现在是多少？", not "……现在是什么？"), by the locale's
``<form>.<type>`` wording; a categorical keeps the general wording. Real drafts on a
held-out Chinese schema (tests/data), every scenario the kinds plan."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from memsim.dataset import make_context
from memsim.qa import QA_KINDS
from memsim.sampling import ProfileSampler
from memsim.schema import load_schema

DATA = Path(__file__).parents[1] / "data"


def test_numbers_over_time_are_asked_how_much() -> None:
    ctx = make_context(load_schema(DATA / "photostudio.zh.yaml"), 0)
    rng = np.random.default_rng(0)
    seen: dict[str, int] = {"integer": 0, "other": 0}
    for p in ProfileSampler(ctx.net).profiles(0, 0, 60):
        for name in ("knowledge_update", "temporal"):
            kind = QA_KINDS.get(name)
            for scenario in kind.scenarios:
                draft = kind.make(ctx, p, scenario, rng)
                if draft is None or draft.transform not in ("identity", "value_at"):
                    continue
                if "attribute" not in draft.params:
                    continue
                entity = p.entity(str(draft.params["entity"]))
                type_ = ctx.attribute(entity, str(draft.params["attribute"])).type
                if type_ == "integer":
                    seen["integer"] += 1
                    assert "是多少" in draft.question and "是什么" not in draft.question
                else:
                    seen["other"] += 1
                    assert "是什么" in draft.question and "是多少" not in draft.question
    assert seen["integer"] >= 10 and seen["other"] >= 5


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
