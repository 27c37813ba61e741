"""The shortcuts of memsim.verify's patterns find exactly what the plain patterns find:
a date, clock or relative-day pattern skipped because the text lacks what any match
holds, the number-word probe, and guarded words sharing one lookbehind."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memsim.verbalize import load_locale
from memsim.verify._dates import patterns
from memsim.verify._numbers import fold, guarded, is_latin, numerals

PIECES = {
    "en": [
        "May", "may", "June", "Jun", "the", "of", "12th", "3", "2024", "-", "/", ":", ".",
        "30", "7", "PM", "a.m.", "in the morning", "tonight", "at", "this", "coming",
        "next", "Friday", "fri", "tomorrow", "twenty-one", "seven", "often", "hundred",
        " ", " ", ", ", "and",
    ],
    "zh": [
        "2024", "年", "5", "月", "12", "日", "号", "-", "/", ".", "下午", "早上", "7", "点",
        "半", "30", "分", "时", "整", "钟", "明天", "这个", "下个", "星期五", "周一", "十二",
        "三", "两", " ", "，",
    ],
}  # fmt: skip
"""Pieces texts are made of: the locales' date, clock and number words, and near misses."""


def texts(code: str) -> st.SearchStrategy[str]:
    return st.lists(st.sampled_from(PIECES[code]), max_size=12).map("".join)


def _plain_guarded(alternatives: list[str]) -> str:
    """guarded() as it was: a lookbehind in front of each Latin word."""
    ordered = sorted({fold(a) for a in alternatives if a}, key=len, reverse=True)
    parts = []
    for word in ordered:
        body = re.escape(word).replace(r"\ ", r"\s+")
        head = r"(?<![a-z])" if is_latin(word[:1]) and word[:1].isalpha() else ""
        tail = r"(?![a-z])" if is_latin(word[-1:]) and word[-1:].isalpha() else ""
        parts.append(head + body + tail)
    return "(?:" + "|".join(parts) + ")" if parts else "(?!)"


def _spans(pattern: re.Pattern[str], text: str) -> list[tuple[int, int, dict[str, str | None]]]:
    return [(m.start(), m.end(), m.groupdict()) for m in pattern.finditer(text)]


@pytest.mark.parametrize("code", ["en", "zh"])
@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_guarded_patterns_find_what_the_patterns_find(code: str, data: st.DataObject) -> None:
    loc = load_locale(code)
    p = patterns(loc)
    folded = fold(data.draw(texts(code)))
    every = [*p.dates, *p.clocks, *(g for _, g in p.relative)]
    for g in every:
        assert [m.span() for m in g.finditer(folded)] == [
            m.span() for m in g.pattern.finditer(folded)
        ]


@pytest.mark.parametrize("code", ["en", "zh"])
@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_one_lookbehind_matches_as_one_per_word(code: str, data: st.DataObject) -> None:
    loc = load_locale(code)
    words = [*loc.recognise.number_words, *loc.recognise.number_multipliers]
    words += [*loc.calendar.months, *loc.recognise.months_short, *loc.recognise.am]
    folded = fold(data.draw(texts(code)))
    shared, plain = re.compile(guarded(words)), re.compile(_plain_guarded(words))
    assert _spans(shared, folded) == _spans(plain, folded)
    run = numerals(loc).run
    assert run is not None
    if not numerals(loc).may_have_words(folded):
        assert run.search(folded) is None


def test_a_skipped_pattern_needs_what_its_matches_hold() -> None:
    p = patterns(load_locale("en"))
    # "{month_name} {day}" needs a month's name; "{hour12} {ampm}" the longest word of
    # a part of the day ("morning" of "in the morning")
    month_day = next(
        g
        for g in p.dates
        if g.pattern.pattern.startswith("(?P<month_name>") and "(?P<year>" not in g.pattern.pattern
    )
    assert month_day.needs == (month_day.needs[0],) and "may" in month_day.needs[0]
    assert [m.group(0) for m in month_day.finditer("on may 3")] == ["may 3"]
    assert list(month_day.finditer("on the 3rd")) == []
    ampm = {a for g in p.clocks for need in g.needs for a in need}
    assert "morning" in ampm and "in" not in ampm
