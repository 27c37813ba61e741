"""Message time strings: recognise the input's format, parse it, render noise times in it.

A format is a template with ``{year} {month:02d} {day:02d} {hour:02d} {minute:02d}``
and optionally ``{weekday}``, ``{weekday_short}`` or ``{month_name}`` tokens, as a
locale's ``calendar.message_time`` writes it. Known formats: memsim's native ISO form
(``2024-04-03T07:53``), every bundled locale's message time (en:
``2024-04-03 Wed 07:53``) and MemDaily's (``2024年04月03日 周三 07:53``, defined here so
that it does not depend on a Chinese locale file). Parsing ignores the weekday word
(a wrong one in the input is kept as it is); rendering always writes the right one.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from string import Formatter

ISO_TEMPLATE = "{year}-{month:02d}-{day:02d}T{hour:02d}:{minute:02d}"
MEMDAILY_TEMPLATE = "{year}年{month:02d}月{day:02d}日 {weekday_short} {hour:02d}:{minute:02d}"
MEMDAILY_WEEKDAYS = ("周一", "周二", "周三", "周四", "周五", "周六", "周日")

_EPOCH = dt.datetime(1970, 1, 1)
DAY_MINUTES = 24 * 60
DAY_CACHE = 1 << 16
"""Days whose partly filled template is remembered (cleared when full)."""

ClockPieces = tuple[str, tuple[str, ...], str, tuple[str, ...], str]

_NUMBERS = {
    "year": r"\d{4}",
    "month": r"\d{1,2}",
    "day": r"\d{1,2}",
    "hour": r"\d{1,2}",
    "minute": r"\d{2}",
}


@dataclass(frozen=True)
class TimeFormat:
    name: str
    template: str
    weekdays: tuple[str, ...] = ()
    weekdays_short: tuple[str, ...] = ()
    months: tuple[str, ...] = ()
    _regex: re.Pattern[str] = field(init=False, repr=False, compare=False)
    _days: dict[int, str | ClockPieces] = field(init=False, repr=False, compare=False)
    _clocks: dict[int, tuple[str, tuple[str, ...]]] = field(init=False, repr=False, compare=False)
    """A day's text before the clock and its table of the 1,440 clocks (``render_minutes``)."""
    _tables: dict[tuple[object, ...], tuple[str, ...]] = field(
        init=False, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        words = {
            "weekday": self.weekdays,
            "weekday_short": self.weekdays_short,
            "month_name": self.months,
        }
        pattern = ""
        for literal, name, _, _ in Formatter().parse(self.template):
            pattern += re.escape(literal)
            if name is None:
                continue
            if name in _NUMBERS:
                pattern += f"(?P<{name}>{_NUMBERS[name]})"
            elif words.get(name):
                names = sorted(words[name], key=len, reverse=True)
                pattern += f"(?P<{name}>{'|'.join(map(re.escape, names))})"
            else:
                raise ValueError(f"time format {self.name!r}: cannot parse token {{{name}}}")
        object.__setattr__(self, "_regex", re.compile(pattern))
        object.__setattr__(self, "_days", {})
        object.__setattr__(self, "_clocks", {})
        object.__setattr__(self, "_tables", {})

    def parse(self, text: str) -> dt.datetime | None:
        m = self._regex.fullmatch(text.strip())
        if m is None:
            return None
        parts = m.groupdict()
        month = (
            int(parts["month"]) if "month" in parts else self.months.index(parts["month_name"]) + 1
        )
        try:
            return dt.datetime(
                int(parts["year"]),
                month,
                int(parts["day"]),
                int(parts["hour"]),
                int(parts["minute"]),
            )
        except ValueError:
            return None

    def render_minute(self, minute: int) -> str:
        """``render`` of the time ``minute`` minutes after 1970-01-01 00:00: the day's
        part of the template is filled once per day, the clock per message (by joining
        strings when the day's template is text, the hour and the minute)."""
        day, clock = divmod(minute, DAY_MINUTES)
        filled = self._days.get(day)
        if filled is None:
            if len(self._days) >= DAY_CACHE:
                self._days.clear()
            filled = self._days[day] = _clock_pieces(self._day_template(day))
        if isinstance(filled, str):
            return filled.format(hour=clock // 60, minute=clock % 60)
        before, hours, between, minutes, after = filled
        return before + hours[clock // 60] + between + minutes[clock % 60] + after

    def render_minutes(self, minutes: Sequence[int]) -> list[str]:
        """``[render_minute(m) for m in minutes]`` for ascending ``minutes``: a day whose
        template is text around the clock is its text before the clock plus one of the
        1,440 clocks (with what follows them), each joined once; so a time costs one
        join."""
        out: list[str] = []
        if not minutes:
            return out
        days = [m // DAY_MINUTES for m in (minutes[0], minutes[-1])]
        if days[0] == days[1]:  # the usual run: one day
            return self._day_run(days[0], minutes)
        start = 0
        for i in range(1, len(minutes) + 1):
            if i == len(minutes) or minutes[i] // DAY_MINUTES != minutes[start] // DAY_MINUTES:
                out += self._day_run(minutes[start] // DAY_MINUTES, minutes[start:i])
                start = i
        return out

    def _day_run(self, day: int, minutes: Sequence[int]) -> list[str]:
        parts = self._clocks.get(day)
        if parts is None:
            self.render_minute(day * DAY_MINUTES)  # fills the day's template
            filled = self._days[day]
            if isinstance(filled, str):
                return [self.render_minute(m) for m in minutes]
            before, hours, between, mins, after = filled
            table = self._tables.get((hours, between, mins, after))
            if table is None:
                table = tuple(h + between + m + after for h in hours for m in mins)
                self._tables[hours, between, mins, after] = table
            if len(self._clocks) >= DAY_CACHE:
                self._clocks.clear()
            parts = self._clocks[day] = (before, table)
        before, table = parts
        base = day * DAY_MINUTES
        return [before + table[m - base] for m in minutes]

    def _day_template(self, day: int) -> str:
        """The template with every token but the hour and minute filled for ``day``."""
        when = _EPOCH + dt.timedelta(days=day)
        values = self._values(when)
        out = ""
        for literal, name, spec, conversion in Formatter().parse(self.template):
            out += literal.replace("{", "{{").replace("}", "}}")
            if name is None:
                continue
            if name in ("hour", "minute") or "{" in (spec or ""):
                out += "{" + name + (f"!{conversion}" if conversion else "")
                out += (f":{spec}" if spec else "") + "}"
                continue
            text = ("{0" + (f"!{conversion}" if conversion else "") + f":{spec or ''}}}").format(
                values[name]
            )
            out += text.replace("{", "{{").replace("}", "}}")
        return out

    def _values(self, when: dt.datetime) -> dict[str, object]:
        w = when.weekday()
        return {
            "year": when.year,
            "month": when.month,
            "day": when.day,
            "hour": when.hour,
            "minute": when.minute,
            "weekday": self.weekdays[w] if self.weekdays else "",
            "weekday_short": self.weekdays_short[w] if self.weekdays_short else "",
            "month_name": self.months[when.month - 1] if self.months else "",
        }

    def render(self, when: dt.datetime) -> str:
        w = when.weekday()
        return self.template.format(
            year=when.year,
            month=when.month,
            day=when.day,
            hour=when.hour,
            minute=when.minute,
            weekday=self.weekdays[w] if self.weekdays else "",
            weekday_short=self.weekdays_short[w] if self.weekdays_short else "",
            month_name=self.months[when.month - 1] if self.months else "",
        )


def _clock_pieces(template: str) -> str | ClockPieces:
    """``template`` as (text, hours, text, minutes, text) when it is text around
    ``{hour:spec}`` then ``{minute:spec}`` (each hour and minute written once), else
    itself."""
    parts = list(Formatter().parse(template))
    if parts and parts[-1][1] is not None:  # ends with a field: no trailing text
        parts.append(("", None, None, None))
    if (
        len(parts) != 3
        or [p[1] for p in parts] != ["hour", "minute", None]
        or any(p[3] for p in parts)
        or any("{" in (p[2] or "") for p in parts)
    ):
        return template
    (before, _, hour, _), (between, _, minute, _), (after, _, _, _) = parts
    hours = tuple(format(h, hour or "") for h in range(24))
    minutes = tuple(format(m, minute or "") for m in range(60))
    return before, hours, between, minutes, after


def known_formats() -> list[TimeFormat]:
    """ISO, MemDaily's, then every bundled locale's message time."""
    from memsim.verbalize._locale import LOCALES_DIR, load_locale

    out = [
        TimeFormat("iso", ISO_TEMPLATE),
        TimeFormat("memdaily", MEMDAILY_TEMPLATE, weekdays_short=MEMDAILY_WEEKDAYS),
    ]
    for path in sorted(LOCALES_DIR.glob("*.yaml")):
        cal = load_locale(path.stem).calendar
        out.append(
            TimeFormat(
                f"locale:{path.stem}",
                cal.message_time,
                tuple(cal.weekdays),
                tuple(cal.weekdays_short),
                tuple(cal.months),
            )
        )
    return out


def detect_format(samples: list[str]) -> TimeFormat:
    """The first known format that parses every sample (raises ValueError if none)."""
    for fmt in known_formats():
        if all(fmt.parse(s) is not None for s in samples):
            return fmt
    shown = ", ".join(repr(s) for s in samples[:3])
    raise ValueError(
        f"unrecognised message time format ({shown}); known: "
        + "; ".join(f"{f.name} {f.template!r}" for f in known_formats())
    )
