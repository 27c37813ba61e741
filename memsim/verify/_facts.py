"""Does a message state a fact? The one test shared by the audit and by the check of
every LLM rewrite, so the audit accepts exactly what verification accepts.

A value counts as stated, after Unicode normalisation and case folding, when:
- integer: the number appears, in digits or in words ("62", "sixty-two"), outside a
  date ("April 17, 2025" states no 17 and no 2025);
- month_day / date: a date with that month and day (and year, for dates) appears in any
  of the locale's date forms ("July 12", "12 July", "7/12/2024");
- datetime: the day appears (absolutely, or relatively resolved against the time the
  message was said: "next Friday") and so does the time of day ("7:30 PM", "19:30");
- identifier-like text (no spaces, with 4+ digits or an "@": phone numbers, e-mails,
  card numbers): its letters and digits appear in order, separators aside ("310 912
  7531" states "3109127531"), not inside a longer run of letters and digits;
- text in a CJK script: it appears with spacing removed;
- other text: its words appear in a row, numbers in words counting as digits
  ("two hours" states "2 hours", "1,000" states "1000").
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from memsim.profile import Entity, Fact
from memsim.verbalize import CJK, LocaleData
from memsim.verify._dates import clocks_in, dates_in, relative_days_in, without_dates
from memsim.verify._numbers import fold, numbers_in, numerals, per_text

# compiled once: re's own cache is pushed through by the per-value identifier patterns
_WORD, _SPACES = re.compile(r"\w+"), re.compile(r"\s+")
_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")


@dataclass(frozen=True)
class StatedFact:
    """A fact as one message states it: the value that holds when it is said."""

    entity: Entity
    fact: Fact
    value: Any
    said_at: dt.datetime


def fact_stated(text: str, stated: StatedFact, loc: LocaleData) -> bool:
    """Whether ``text`` states ``stated.value`` (see the module docstring)."""
    kind, value = stated.fact.type, stated.value
    if kind == "integer":
        # a number inside a date is its day or year, not a value ("the raise on April
        # 17" beside a wage that was 17)
        return int(value) in numbers_in(without_dates(text, loc), loc)
    if kind in ("month_day", "date"):
        parts = [int(x) for x in str(value).split("-")]
        year, (month, day) = (parts[0] if kind == "date" else None), parts[-2:]
        return any(
            d.month == month and d.day == day and (year is None or d.year == year)
            for d in dates_in(text, loc)
        )
    if kind == "datetime":
        when = dt.datetime.fromisoformat(str(value))
        return day_stated(text, when.date(), stated.said_at, loc) and (
            (when.hour, when.minute) in clocks_in(text, loc)
        )
    return text_stated(text, str(value), loc)


def day_stated(text: str, day: dt.date, said_at: dt.datetime, loc: LocaleData) -> bool:
    """Whether ``text`` names ``day``, absolutely (the year may be left out) or
    relatively to ``said_at``."""
    absolute = any(
        d.month == day.month and d.day == day.day and d.year in (None, day.year)
        for d in dates_in(text, loc)
    )
    return absolute or day in relative_days_in(text, said_at, loc)


def text_stated(text: str, value: str, loc: LocaleData) -> bool:
    if not value.strip():
        return True
    if CJK.search(value):
        return squeeze(value, loc) in squeeze(text, loc)
    if identifier_like(value):
        return identifier_stated(text, value)
    return _spaced(value, loc) in _spaced(text, loc)


@per_text
def _spaced(text: str, loc: LocaleData) -> str:
    """The words of ``text`` joined by spaces, with a space before and after (a value
    is stated when its own is inside the message's: remembered, as a message is asked
    about once per fact it carries and a value once per message)."""
    return f" {' '.join(_words(text, loc))} "


@lru_cache(maxsize=4096)
def identifier_like(value: str) -> bool:
    return not any(c.isspace() for c in value) and (
        "@" in value or sum(c.isdigit() for c in value) >= 4
    )


@lru_cache(maxsize=4096)
def identifier_regex(value: str) -> re.Pattern[str]:
    """The value's letters and digits in order, with any separators between them, not
    inside a longer run of Latin letters and digits (a Chinese character right before
    or after is not part of it: "号码是13412345678。")."""
    chars = [re.escape(c) for c in fold(value) if c.isalnum()]
    return re.compile(r"(?<![0-9a-z])" + r"[\W_]*".join(chars) + r"(?![0-9a-z])")


def identifier_stated(text: str, value: str) -> bool:
    """Whether :func:`identifier_regex` of ``value`` matches the folded ``text``, found
    without compiling a pattern per value (each profile has its own phone numbers and
    addresses): a separator is a character that is not alphanumeric ([\\W_]), so the
    value's letters and digits must be a run of the text's letters and digits, and the
    characters around that run in the text must not be [0-9a-z]."""
    wanted = _alnum(value)
    if not wanted:  # nothing to find in a row: the pattern itself says
        return identifier_regex(value).search(fold(text)) is not None
    folded, letters, at = _letters(text)
    start = letters.find(wanted)
    while start >= 0:
        first, last = at[start], at[start + len(wanted) - 1]
        if (first == 0 or folded[first - 1] not in _LATIN_OR_DIGIT) and (
            last + 1 == len(folded) or folded[last + 1] not in _LATIN_OR_DIGIT
        ):
            return True
        start = letters.find(wanted, start + 1)
    return False


_LATIN_OR_DIGIT = frozenset("0123456789abcdefghijklmnopqrstuvwxyz")


@lru_cache(maxsize=4096)
def _alnum(value: str) -> str:
    return "".join(c for c in fold(value) if c.isalnum())


def _letters(text: str) -> tuple[str, str, tuple[int, ...]]:
    """The folded text, its alphanumeric characters in a row, and where each is
    (remembered for a message-sized text, asked about again by several checks)."""
    return _short_letters(text) if len(text) <= 2000 else _find_letters(text)


@lru_cache(maxsize=1024)
def _short_letters(text: str) -> tuple[str, str, tuple[int, ...]]:
    return _find_letters(text)


def _find_letters(text: str) -> tuple[str, str, tuple[int, ...]]:
    folded = fold(text)
    at = tuple(i for i, c in enumerate(folded) if c.isalnum())
    return folded, "".join(folded[i] for i in at), at


def words(text: str, loc: LocaleData) -> list[str]:
    """The words of ``text``, folded, with numbers as plain digits; a CJK character is
    a word of its own, so "手机是OPPO Reno7" has the words of "OPPO Reno7"."""
    return list(_words(text, loc))


@per_text
def _words(text: str, loc: LocaleData) -> tuple[str, ...]:
    return tuple(_WORD.findall(CJK.sub(r" \g<0> ", _numbers_as_digits(text, loc, " "))))


def squeeze(text: str, loc: LocaleData) -> str:
    """Folded, spacing removed, numbers as plain digits (for scripts without spaces)."""
    return _SPACES.sub("", _numbers_as_digits(text, loc, ""))


def _numbers_as_digits(text: str, loc: LocaleData, pad: str) -> str:
    folded = _THOUSANDS.sub("", fold(text))
    nums = numerals(loc)
    if nums.run is None or not nums.may_have_words(folded):
        return folded
    return nums.run.sub(lambda m: f"{pad}{nums.value(m.group(0))}{pad}", folded)


__all__ = [
    "CJK",
    "StatedFact",
    "day_stated",
    "fact_stated",
    "identifier_like",
    "identifier_regex",
    "identifier_stated",
    "squeeze",
    "text_stated",
    "words",
]
