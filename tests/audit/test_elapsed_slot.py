"""An "elapsed" temporal question is read back by the value it names, and only its
``{value}`` says one: zh's template "按整周算（不足一周的舍去），…变成{value}是在今天之前
多少周？" holds 一, which the locale reads as 1, so a held-out library's book whose copies
went from 1 to 4 named both values and the audit failed with "cannot read the answer: too
many values to unpack" (seed 1, 900 x 100)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from memsim.audit._timeline import _value_slot
from memsim.profile import Entity, Fact, ValueStep
from memsim.schema import load_schema
from memsim.verbalize._overlay import schema_locale
from memsim.verify import StatedFact, fact_stated, numbers_in

ROOT = Path(__file__).resolve().parents[2]


def test_only_the_value_slot_of_an_elapsed_question_names_a_value() -> None:
    schema = load_schema(ROOT / "tests" / "data" / "library.zh.yaml")
    loc = schema_locale(schema)
    template = loc.history.temporal["elapsed_weeks"][0]
    question = template.format(whose="那本《纸上的河流》的", label="馆藏册数", value="4册")
    assert 1 in numbers_in(question.replace("4册", ""), loc)  # the template's own 一
    assert _value_slot(question, loc) == "4册"
    steps = (ValueStep(1, None), ValueStep(4, "2025-06-15T21:30", "restock"))
    fact = Fact("book[2].copies", "copies", "integer", 1, "册", steps)
    book = Entity("book[2]", "book", 2, "items", {"copies": fact})
    asked = dt.datetime(2025, 8, 5, 19, 51)

    def named(text: str) -> list[int]:
        return [v for v in (1, 4) if fact_stated(text, StatedFact(book, fact, v, asked), loc)]

    assert named(question) == [1, 4]  # what the audit read before
    assert named(_value_slot(question, loc)) == [4]
    days = loc.history.temporal["elapsed_days"][0].format(whose="我的", label="班次", value="晚班")
    assert _value_slot(days, loc) == "晚班"
    assert _value_slot("这不是模板里的问题", loc) == "这不是模板里的问题"  # a rewrite: all of it
