"""relative_days_in remembers what a text says, not what it resolves to: the same text
asked again at another time resolves against that time."""

from __future__ import annotations

import datetime as dt

import pytest

from memsim.verbalize import load_locale
from memsim.verify import relative_days_in

WED = dt.datetime(2024, 4, 3, 10, 0)
NEXT_MON = dt.datetime(2024, 4, 8, 9, 0)


@pytest.mark.parametrize(
    ("code", "text", "on_wed", "on_mon"),
    [
        ("en", "See you tomorrow at 9 AM.", {dt.date(2024, 4, 4)}, {dt.date(2024, 4, 9)}),
        ("en", "It is next Friday.", {dt.date(2024, 4, 12)}, {dt.date(2024, 4, 19)}),
        ("zh", "这周六下午2点", {dt.date(2024, 4, 6)}, {dt.date(2024, 4, 13)}),
        ("zh", "明天上午9点", {dt.date(2024, 4, 4)}, {dt.date(2024, 4, 9)}),
        ("en", "Nothing relative here.", set(), set()),
    ],
)
def test_the_same_text_resolves_against_each_time(
    code: str, text: str, on_wed: set[dt.date], on_mon: set[dt.date]
) -> None:
    loc = load_locale(code)
    for _ in range(2):  # the second round is answered from the memo
        assert relative_days_in(text, WED, loc) == on_wed
        assert relative_days_in(text, NEXT_MON, loc) == on_mon
