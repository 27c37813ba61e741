"""Dates, clock times and relative days in text, recognised from locale patterns.

A pattern is written with the calendar's tokens (see
:class:`memsim.verbalize._locale.Recognise`) and compiled into a regex with named
groups. The calendar's own rendering templates are always among the patterns, so a
locale recognises everything it renders; relative days ("next Friday") are resolved
against the time the message was said, with the renderer's rules ("this" = a later
day of the same Monday-Sunday week, "next" = the following week).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from collections.abc import Iterator
from dataclasses import dataclass
from string import Formatter

from memsim.verbalize import LocaleData
from memsim.verify._numbers import Numerals, fold, guarded, numerals, per_locale, per_text

_SPACES = re.compile(r"\s+")  # compiled once (re's own cache is pushed through by others)


@dataclass(frozen=True)
class DateMention:
    year: int | None
    month: int
    day: int


@dataclass(frozen=True)
class Guarded:
    """A compiled pattern behind a cheap test of what any match of it must contain.

    Each of ``needs`` is a set of substrings at least one of which every match holds
    (a literal of the template, a name of a month or weekday): a text lacking one
    cannot match, so the pattern, whose number alternations are tried at every
    position, is not run on it. The matches are exactly the pattern's."""

    pattern: re.Pattern[str]
    needs: tuple[tuple[str, ...], ...]
    literals: tuple[str, ...] = dataclasses.field(init=False, compare=False, repr=False)
    """The needs of one substring, tested with ``in``."""
    probes: tuple[re.Pattern[str], ...] = dataclasses.field(init=False, compare=False, repr=False)
    """The needs of several, each one alternation of its substrings escaped: it finds
    a match exactly when one of them is in the text (and none when there are none),
    scanned in C where a generator of ``in`` tests ran once per substring (850,000
    steps on make dataset's audit)."""

    def __post_init__(self) -> None:
        single = tuple(a[0] for a in self.needs if len(a) == 1)
        several = tuple(
            re.compile("|".join(re.escape(x) for x in a) if a else "(?!)")
            for a in self.needs
            if len(a) != 1
        )
        object.__setattr__(self, "literals", single)
        object.__setattr__(self, "probes", several)

    def finditer(self, folded: str) -> Iterator[re.Match[str]]:
        for literal in self.literals:
            if literal not in folded:
                return iter(())
        for probe in self.probes:
            if probe.search(folded) is None:
                return iter(())
        return self.pattern.finditer(folded)


@dataclass(frozen=True)
class Patterns:
    """The compiled patterns of one locale."""

    dates: tuple[Guarded, ...]
    clocks: tuple[Guarded, ...]
    relative: tuple[tuple[str, Guarded], ...]
    """(``tomorrow`` | ``this`` | ``next``, pattern)."""
    months: dict[str, int]
    weekdays: dict[str, int]
    numbers: Numerals


def _token_regex(token: str, loc: LocaleData, numbers: Numerals, seen: set[str]) -> str:
    """The regex of one pattern token (a token met twice is matched only once)."""
    cal, rec = loc.calendar, loc.recognise
    num = rf"(?<!\d)(?:{numbers.number})(?!\d)"
    name = token if token not in seen else None
    seen.add(token)

    def group(body: str) -> str:
        return f"(?P<{name}>{body})" if name else f"(?:{body})"

    if token == "year":
        return group(r"(?<!\d)\d{4}(?!\d)")
    if token == "month":
        return group(num)
    if token in ("hour", "hour12"):
        return group(r"(?<![:.])" + num)  # not the minutes of "10:05 PM"
    if token == "day":
        suffix = f"(?:{rec.ordinal_suffix})?" if rec.ordinal_suffix else ""
        return group(num) + suffix
    if token == "minute":
        return group(rf"(?<!\d)\d{{2}}(?!\d)|{numbers.number}")
    if token == "month_name":
        return group(guarded([*cal.months, *rec.months_short]))
    if token in ("weekday", "weekday_short"):
        return group(guarded([*cal.weekdays, *cal.weekdays_short, *rec.weekday_names]))
    if token == "ampm":
        # the calendar's parts of the day (早上, 下午...) count as am or pm by the hour
        # they start at
        periods = cal.day_periods.items()
        am = guarded([cal.am, *rec.am, *(w for h, w in periods if h < 12)])
        pm = guarded([cal.pm, *rec.pm, *(w for h, w in periods if h >= 12)])
        return f"(?:(?P<am>{am})|(?P<pm>{pm}))" if name else f"(?:{am}|{pm})"
    if token == "half":
        return group(guarded(rec.half_hour))
    if token == "clock":
        return ".*?"
    raise ValueError(f"unknown token {{{token}}} in a recognise pattern of locale '{loc.code}'")


def compile_pattern(template: str, loc: LocaleData) -> re.Pattern[str]:
    """A recognise pattern as a regex: tokens become groups, spaces any spacing,
    commas optional, everything else literal."""
    numbers = numerals(loc)
    seen: set[str] = set()
    parts = []
    for literal, field, _, _ in Formatter().parse(fold(template)):
        text = re.escape(literal).replace(r"\ ", r"\s*").replace(",", ",?")
        parts.append(text)
        if field is not None:
            parts.append(_token_regex(field, loc, numbers, seen))
    return re.compile("".join(parts))


def _token_needs(token: str, loc: LocaleData) -> tuple[str, ...] | None:
    """Substrings one of which a match of ``token`` holds (None: no cheap test)."""
    cal, rec = loc.calendar, loc.recognise
    names: list[str] | None = None
    if token == "month_name":
        names = [*cal.months, *rec.months_short]
    elif token in ("weekday", "weekday_short"):
        names = [*cal.weekdays, *cal.weekdays_short, *rec.weekday_names]
    elif token == "ampm":
        names = [cal.am, *rec.am, cal.pm, *rec.pm, *cal.day_periods.values()]
    elif token == "half":
        names = list(rec.half_hour)
    if names is None:
        return None  # numbers (any Unicode digit, or words): nearly everywhere, no test
    # guarded() lets a space of a name be any spacing, so each word of it is there:
    # the longest is the rarest ("morning" of "in the morning")
    longest = (max(fold(n).split(), key=len) for n in names if fold(n).split())
    return tuple(dict.fromkeys(longest))


def pattern_needs(template: str, loc: LocaleData) -> tuple[tuple[str, ...], ...]:
    """What every match of :func:`compile_pattern` (``template``) contains: each
    literal run between spaces and commas (both optional in the pattern), and for a
    named token one of its names (see :class:`Guarded`)."""
    needs: list[tuple[str, ...]] = []
    for literal, field, _, _ in Formatter().parse(fold(template)):
        needs.extend((piece,) for piece in literal.replace(",", " ").split())
        if field is not None:
            alternatives = _token_needs(field, loc)
            if alternatives is not None:
                needs.append(alternatives)
    return tuple(dict.fromkeys(needs))


def guarded_pattern(template: str, loc: LocaleData) -> Guarded:
    return Guarded(compile_pattern(template, loc), pattern_needs(template, loc))


@per_locale
def patterns(loc: LocaleData) -> Patterns:
    """The locale's patterns, compiled once per locale object."""
    cal, rec = loc.calendar, loc.recognise

    def each(templates: list[str]) -> tuple[Guarded, ...]:
        return tuple(guarded_pattern(t, loc) for t in dict.fromkeys(templates))

    relative = [
        (form, p)
        for form, templates in (
            ("tomorrow", [cal.tomorrow, *rec.tomorrow]),
            ("this", [cal.this_weekday, *rec.this_weekday]),
            ("next", [cal.next_weekday, *rec.next_weekday]),
        )
        for p in each(templates)
    ]
    months = {fold(m): i + 1 for i, m in enumerate(cal.months)}
    months |= {fold(m): i + 1 for i, m in enumerate(rec.months_short)}
    weekdays = {fold(w): i for i, w in enumerate(cal.weekdays)}
    weekdays |= {fold(w): i for i, w in enumerate(cal.weekdays_short)}
    weekdays |= {fold(w): i % 7 for i, w in enumerate(rec.weekday_names)}
    return Patterns(
        dates=each([cal.date, cal.month_day, *rec.date, *rec.month_day]),
        clocks=each([cal.clock, *([cal.clock_on_hour] if cal.clock_on_hour else []), *rec.clock]),
        relative=tuple(relative),
        months=months,
        weekdays=weekdays,
        numbers=numerals(loc),
    )


def _month(m: re.Match[str], p: Patterns) -> int | None:
    groups = m.groupdict()
    if groups.get("month_name"):
        return p.months.get(_SPACES.sub(" ", groups["month_name"]))
    if groups.get("month"):
        return p.numbers.value(groups["month"])
    return None


def dates_in(text: str, loc: LocaleData) -> set[DateMention]:
    """Every calendar date ``text`` names absolutely (year None when not said)."""
    return set(_dates_in(text, loc))


@per_text
def _dates_in(text: str, loc: LocaleData) -> frozenset[DateMention]:
    p = patterns(loc)
    folded = fold(text)
    found: set[DateMention] = set()
    for pattern in p.dates:
        for m in pattern.finditer(folded):
            month, day = _month(m, p), p.numbers.value(m.group("day") or "")
            year = int(m.group("year")) if m.groupdict().get("year") else None
            if month is not None and day is not None and 1 <= month <= 12 and 1 <= day <= 31:
                found.add(DateMention(year, month, day))
    return frozenset(found)


@per_text
def without_dates(text: str, loc: LocaleData) -> str:
    """``text`` folded, with every calendar date it names absolutely blanked out: the
    numbers left are those it states as numbers ("the raise on April 17" does not say
    a wage of 17)."""
    folded = fold(text)
    for pattern in patterns(loc).dates:
        # each date pattern on the text as the previous ones left it, behind its guard
        # (a text with no month name, most of them, runs none of the patterns)
        spans = [m.span() for m in pattern.finditer(folded)]
        for start, end in spans:
            folded = folded[:start] + " " * (end - start) + folded[end:]
    return folded


def relative_days_in(text: str, said_at: dt.datetime, loc: LocaleData) -> set[dt.date]:
    """Every date ``text`` names relatively, resolved against ``said_at``."""
    week_start = said_at.date() - dt.timedelta(days=said_at.weekday())
    found: set[dt.date] = set()
    for form, weekday in _relative_in(text, loc):
        if form == "tomorrow":
            found.add(said_at.date() + dt.timedelta(days=1))
        elif weekday is not None:
            found.add(week_start + dt.timedelta(days=weekday + (7 if form == "next" else 0)))
    return found


@per_text
def _relative_in(text: str, loc: LocaleData) -> tuple[tuple[str, int | None], ...]:
    """The relative days ``text`` says, as (form, weekday) in the order they are found,
    before they are resolved: remembered per text, as the audit asks it of a message
    again for each of its facts and checks, each time against the message's time."""
    p = patterns(loc)
    folded = fold(text)
    found: list[tuple[str, int | None]] = []
    for form, pattern in p.relative:
        for m in pattern.finditer(folded):
            if form == "tomorrow":
                found.append((form, None))
                continue
            found.append(
                (form, p.weekdays.get(_SPACES.sub(" ", m.groupdict().get("weekday") or "")))
            )
    return tuple(found)


def clocks_in(text: str, loc: LocaleData) -> set[tuple[int, int]]:
    """Every time of day ``text`` names, as (hour 0-23, minute). A bare "7:30" inside
    "7:30 PM" is not also taken for 07:30, nor "7点" inside "7点30分" for 7:00."""
    return set(_clocks_in(text, loc))


@per_text
def _clocks_in(text: str, loc: LocaleData) -> frozenset[tuple[int, int]]:
    p = patterns(loc)
    folded = fold(text)
    found: list[tuple[int, int, tuple[int, int], bool]] = []
    for pattern in p.clocks:
        for m in pattern.finditer(folded):
            clock = _clock(m, p.numbers)
            if clock is not None:
                qualified = bool(m.groupdict().get("am") or m.groupdict().get("pm"))
                found.append((m.start(), m.end(), clock, qualified))
    spans = [(a, b) for a, b, _, qualified in found if qualified]
    every = [(a, b) for a, b, _, _ in found]
    return frozenset(
        clock
        for a, b, clock, qualified in found
        if (qualified or not any(a < y and x < b for x, y in spans))
        # "晚上7点" inside "晚上7点30分" is part of one time, not a time of its own
        and not any(x <= a and b <= y and (x, y) != (a, b) for x, y in every)
    )


def _clock(m: re.Match[str], numbers: Numerals) -> tuple[int, int] | None:
    groups = m.groupdict()
    minute = 30 if groups.get("half") else numbers.value(groups.get("minute") or "0")
    if groups.get("hour12"):
        hour = numbers.value(groups["hour12"])
        if hour is None or not 1 <= hour <= 12:
            return None
        if groups.get("am"):
            hour = hour % 12
        elif groups.get("pm"):
            hour = hour % 12 + 12
    elif groups.get("hour"):
        hour = numbers.value(groups["hour"])
    else:
        return None
    if hour is None or minute is None or not (0 <= hour <= 23 and 0 <= minute <= 59):
        return None
    return hour, minute


__all__ = [
    "DateMention",
    "Guarded",
    "Patterns",
    "clocks_in",
    "compile_pattern",
    "dates_in",
    "patterns",
    "relative_days_in",
    "without_dates",
]
