"""Timestamps and calendar dates as datasets write them, without locale data.

Message and question times come in three forms: MemDaily's ``2024年04月03日 周三 07:53``,
our English ``2024-04-03 Wed 07:53`` and ISO ``2024-04-03T07:53``. Dates inside options
are found in Chinese (``2月30日``, ``2024年04月15日 周一``), ISO, US slash and English
month-name forms ("February 30", "30 February"), so impossible ones can be reported.
"""

from __future__ import annotations

import calendar
import datetime as dt
import re
from dataclasses import dataclass
from functools import lru_cache

ZH_WEEKDAYS = {c: i for i, c in enumerate("一二三四五六日")} | {"天": 6}
EN_MONTHS = [m.casefold() for m in calendar.month_name[1:]]
EN_MONTHS_SHORT = [m.casefold() for m in calendar.month_abbr[1:]]
EN_WEEKDAYS = [d.casefold() for d in calendar.day_name]
EN_WEEKDAYS_SHORT = [d.casefold() for d in calendar.day_abbr]


@dataclass(frozen=True)
class Stamp:
    when: dt.datetime
    weekday: int | None
    """The weekday the text states (Monday = 0), if it states one."""

    @property
    def weekday_ok(self) -> bool:
        return self.weekday is None or self.weekday == self.when.weekday()


_ZH_STAMP = re.compile(
    r"^\s*(\d{4})年(\d{1,2})月(\d{1,2})日\s*(?:(?:周|星期)([一二三四五六日天]))?\s*"
    r"(\d{1,2})[:：](\d{2})\s*$"
)
_EN_STAMP = re.compile(
    r"^\s*(\d{4})-(\d{1,2})-(\d{1,2})\s+([A-Za-z]+)\.?,?\s+(\d{1,2}):(\d{2})\s*$"
)
_ISO_STAMP = re.compile(r"^\s*(\d{4})-(\d{1,2})-(\d{1,2})[T ](\d{1,2}):(\d{2})(?::(\d{2}))?\s*$")


def parse_stamp(text: object) -> Stamp | None:
    """A message or question time, or None when it is not one of the known forms or
    names a day that does not exist."""
    if not isinstance(text, str):
        return None
    return _parse_text_stamp(text)


@lru_cache(maxsize=65536)
def _parse_text_stamp(text: str) -> Stamp | None:
    # remembered: several checks read every message's time (a Stamp is frozen)
    try:
        if m := _ZH_STAMP.match(text):
            y, mo, d, wd, h, mi = m.groups()
            weekday = ZH_WEEKDAYS[wd] if wd else None
            return Stamp(dt.datetime(int(y), int(mo), int(d), int(h), int(mi)), weekday)
        if m := _EN_STAMP.match(text):
            y, mo, d, wd, h, mi = m.groups()
            return Stamp(dt.datetime(int(y), int(mo), int(d), int(h), int(mi)), _en_weekday(wd))
        if m := _ISO_STAMP.match(text):
            y, mo, d, h, mi, _ = m.groups()
            return Stamp(dt.datetime(int(y), int(mo), int(d), int(h), int(mi)), None)
    except ValueError:
        return None
    return None


def _en_weekday(word: str) -> int | None:
    w = word.casefold()
    for names in (EN_WEEKDAYS, EN_WEEKDAYS_SHORT):
        if w in names:
            return names.index(w)
    return -1  # a word where a weekday should be: never equal to a real weekday


@dataclass(frozen=True)
class DateSeen:
    text: str
    year: int | None
    month: int
    day: int
    weekday: int | None = None

    def problem(self) -> str | None:
        """Why this date cannot be, or None."""
        if not 1 <= self.month <= 12:
            return f"month {self.month} does not exist"
        days = calendar.monthrange(self.year or 2024, self.month)[1]  # 2024: Feb 29 exists
        if not 1 <= self.day <= days:
            return f"day {self.day} does not exist in month {self.month}" + (
                f" of {self.year}" if self.year else ""
            )
        if self.weekday is not None and self.year is not None:
            actual = dt.date(self.year, self.month, self.day).weekday()
            if actual != self.weekday:
                names = calendar.day_name
                return (
                    f"weekday {names[self.weekday]} does not match "
                    f"{self.year}-{self.month:02d}-{self.day:02d} (a {names[actual]})"
                )
        return None


_MONTH_WORD = "|".join(sorted(EN_MONTHS + EN_MONTHS_SHORT, key=len, reverse=True))
_ZH_DATE = re.compile(
    r"(?:(\d{4})\s*年\s*)?(\d{1,2})\s*月\s*(\d{1,2})\s*[日号](?:\s*(?:周|星期)([一二三四五六日天]))?"
)
_ISO_DATE = re.compile(r"(?<!\d)(\d{4})-(\d{1,2})-(\d{1,2})(?!\d)")
_US_DATE = re.compile(r"(?<![\d/])(\d{1,2})/(\d{1,2})/(\d{4})(?![\d/])")
_EN_MONTH_DAY = re.compile(
    rf"(?<![a-z])({_MONTH_WORD})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?(?!\d)(?:,?\s*(\d{{4}}))?"
)
_EN_DAY_MONTH = re.compile(
    rf"(?<!\d)(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?({_MONTH_WORD})(?![a-z])(?:,?\s*(\d{{4}}))?"
)


def dates_seen(text: str) -> list[DateSeen]:
    """Every calendar date ``text`` writes, in any of the known forms (days 1-31 only
    for English month names, so "May 40 people" is not read as a date)."""
    return list(_dates_seen(text))


@lru_cache(maxsize=16384)
def _dates_seen(text: str) -> tuple[DateSeen, ...]:
    # remembered (a DateSeen is frozen): an option's text recurs across items (18,000
    # options of make dataset's questions are 4,161 texts) and two checks read them
    out = []
    for m in _ZH_DATE.finditer(text):
        y, mo, d, wd = m.groups()
        out.append(
            DateSeen(m[0], int(y) if y else None, int(mo), int(d), ZH_WEEKDAYS[wd] if wd else None)
        )
    out += [DateSeen(m[0], int(m[1]), int(m[2]), int(m[3])) for m in _ISO_DATE.finditer(text)]
    out += [DateSeen(m[0], int(m[3]), int(m[1]), int(m[2])) for m in _US_DATE.finditer(text)]
    folded = text.casefold()
    for m in _EN_MONTH_DAY.finditer(folded):
        if 1 <= int(m[2]) <= 31:
            out.append(DateSeen(m[0], int(m[3]) if m[3] else None, _month(m[1]), int(m[2])))
    for m in _EN_DAY_MONTH.finditer(folded):
        if 1 <= int(m[1]) <= 31:
            out.append(DateSeen(m[0], int(m[3]) if m[3] else None, _month(m[2]), int(m[1])))
    return tuple(out)


def _month(word: str) -> int:
    return (EN_MONTHS.index(word) if word in EN_MONTHS else EN_MONTHS_SHORT.index(word)) + 1


__all__ = ["ZH_WEEKDAYS", "DateSeen", "Stamp", "dates_seen", "parse_stamp"]
