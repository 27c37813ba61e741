"""A unit of several words is made singular at its head after a value of one ("1 frame
of brood", "1 dollar a kilo"), as answers, options and messages say it; a unit whose
head is its last word keeps the old rule ("1 square metre", "1 person")."""

from __future__ import annotations

import pytest

from memsim.verbalize import load_locale


@pytest.mark.parametrize(
    ("unit", "one"),
    [
        ("frames of brood", "frame of brood"),
        ("dollars a kilo", "dollar a kilo"),
        ("dollars per tonne", "dollar per tonne"),
        ("dollars an hour", "dollar an hour"),
        ("head of cattle", "head of cattle"),
        ("square metres", "square metre"),
        ("nautical miles", "nautical mile"),
        ("people", "person"),
        ("deliveries", "delivery"),
        ("years", "year"),
    ],
)
def test_the_head_of_a_unit_is_singular_after_one(unit: str, one: str) -> None:
    loc = load_locale("en")
    assert loc.unit_for("1", unit) == one
    assert loc.unit_for("2", unit) == unit
    assert loc.with_unit_of("1", unit) == f"1 {one}"


def test_a_locale_without_head_words_singularises_the_last_word() -> None:
    loc = load_locale("en")
    bare = loc.model_copy(
        update={"grammar": loc.grammar.model_copy(update={"unit_head_before": []})}
    )
    assert bare.unit_for("1", "frames of brood") == "frames of brood"
    assert bare.unit_for("1", "loading bays") == "loading bay"


def test_chinese_units_are_as_written() -> None:
    loc = load_locale("zh")
    assert loc.with_unit_of("1", "张") == "1张"
    assert loc.with_unit_of("1", "个座位") == "1个座位"
