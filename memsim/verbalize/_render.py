"""Values, times and entity references as a locale writes them.

Relative times ("next Friday at 7:30 PM") are resolved against the time of the
message that says them; :func:`resolve_relative` is the inverse of
:func:`render_datetime` and is what the audit uses to check them.
"""

from __future__ import annotations

import datetime as dt
import re
from functools import lru_cache
from string import Formatter
from typing import Any

from memsim.profile import Entity, Fact
from memsim.verbalize._locale import LocaleData

CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]")
"""A character of a script written without spaces between words (kana, CJK ideographs,
hangul): such text is matched as characters, not words."""
RELATIVE_HORIZON_DAYS = 13
"""Event times at most this many days after the message may be said relatively."""


def parse_when(text: str) -> dt.datetime:
    return dt.datetime.fromisoformat(text)


def render_message_time(when: dt.datetime, loc: LocaleData) -> str:
    cal = loc.calendar
    return cal.message_time.format(
        year=when.year,
        month=when.month,
        day=when.day,
        hour=when.hour,
        minute=when.minute,
        weekday=cal.weekdays[when.weekday()],
        weekday_short=cal.weekdays_short[when.weekday()],
        month_name=cal.months[when.month - 1],
    )


def render_clock(when: dt.datetime | dt.time, loc: LocaleData) -> str:
    cal = loc.calendar
    hour12 = when.hour % 12 or 12
    if cal.day_periods:
        ampm = cal.day_periods[max(h for h in cal.day_periods if h <= when.hour)]
    else:
        ampm = cal.am if when.hour < 12 else cal.pm
    template = cal.clock_on_hour if cal.clock_on_hour and when.minute == 0 else cal.clock
    return template.format(hour12=hour12, hour=when.hour, minute=when.minute, ampm=ampm)


def render_date(day: dt.date, loc: LocaleData) -> str:
    cal = loc.calendar
    return cal.date.format(
        year=day.year, month=day.month, day=day.day, month_name=cal.months[day.month - 1]
    )


def render_month_day(text: str, loc: LocaleData) -> str:
    month, day = (int(x) for x in text.split("-"))
    return loc.calendar.month_day.format(
        month=month, day=day, month_name=loc.calendar.months[month - 1]
    )


def relative_form(event: dt.datetime, said_at: dt.datetime) -> str | None:
    """Which relative phrase names ``event`` when said at ``said_at``: 'tomorrow',
    'this' (a later day of the same Monday-Sunday week), 'next' (the following week),
    or None when the event is not 1..13 days ahead."""
    days = (event.date() - said_at.date()).days
    if not 1 <= days <= RELATIVE_HORIZON_DAYS:
        return None
    if days == 1:
        return "tomorrow"
    week_start = said_at.date() - dt.timedelta(days=said_at.weekday())
    week = (event.date() - week_start).days // 7
    return {0: "this", 1: "next"}.get(week)


def render_datetime(
    event: dt.datetime, said_at: dt.datetime | None, loc: LocaleData, relative: bool = True
) -> str:
    cal = loc.calendar
    clock = render_clock(event, loc)
    form = relative_form(event, said_at) if (relative and said_at is not None) else None
    weekday = cal.weekdays[event.weekday()]
    if form == "tomorrow":
        return cal.tomorrow.format(clock=clock)
    if form == "this":
        return cal.this_weekday.format(weekday=weekday, clock=clock)
    if form == "next":
        return cal.next_weekday.format(weekday=weekday, clock=clock)
    return cal.on_date.format(date=render_date(event.date(), loc), clock=clock)


def resolve_relative(text: str, said_at: dt.datetime, loc: LocaleData) -> dt.date | None:
    """The date a relative phrase in ``text`` means when said at ``said_at`` (None if none)."""
    cal = loc.calendar
    if _template_regex(cal.tomorrow).search(text):
        return said_at.date() + dt.timedelta(days=1)
    week_start = said_at.date() - dt.timedelta(days=said_at.weekday())
    for template, week in ((cal.this_weekday, 0), (cal.next_weekday, 1)):
        m = _template_regex(template, tuple(cal.weekdays)).search(text)
        if m:
            index = cal.weekdays.index(m["weekday"])
            return week_start + dt.timedelta(days=7 * week + index)
    return None


@lru_cache(maxsize=64)
def _template_regex(template: str, weekdays: tuple[str, ...] = ()) -> re.Pattern[str]:
    # The weekday is one of the locale's names, not any run of word characters: in a
    # language written without spaces ("下周五晚上7点") a word ends nowhere.
    names = "|".join(re.escape(w) for w in sorted(weekdays, key=len, reverse=True)) or r"\w+"
    pattern = re.escape(template).replace(r"\{weekday\}", f"(?P<weekday>{names})")
    pattern = pattern.replace(r"\{clock\}", r".+?")
    return re.compile(pattern)


def render_value(
    fact: Fact,
    value: Any,
    loc: LocaleData,
    said_at: dt.datetime | None = None,
    relative: bool = True,
) -> str:
    """A fact's value as a message or an answer writes it."""
    if fact.type == "month_day":
        return render_month_day(str(value), loc)
    if fact.type == "date":
        return render_date(dt.date.fromisoformat(str(value)), loc)
    if fact.type == "datetime":
        return render_datetime(parse_when(str(value)), said_at, loc, relative)
    return str(value)


def refer(
    entity: Entity, refer_template: str, loc: LocaleData, when: dt.datetime | None = None
) -> str:
    """How the user names an entity ("I", "my mother", "the Denver Product Launch")."""
    values = {
        name: render_value(entity.facts[name], value_at(entity.facts[name], when), loc)
        for name in template_fields(refer_template)
        if name in entity.facts
    }
    return refer_template.format(**values)


@lru_cache(maxsize=4096)
def template_fields(template: str) -> tuple[str, ...]:
    """The ``{tokens}`` of a template, in order."""
    return tuple(f for _, f, _, _ in Formatter().parse(template) if f)


def value_at(fact: Fact, when: dt.datetime | None) -> Any:
    if when is None or not fact.history:
        return fact.value
    return fact.value_at(when.isoformat(timespec="minutes"))


def capitalize_first(text: str) -> str:
    return text[:1].upper() + text[1:] if text else text
