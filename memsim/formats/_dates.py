"""Date-time strings of the formats memsim exchanges, to and from native ISO minutes.

Native records hold ``2024-04-27T08:28`` (ISO, to the minute). LongMemEval writes
``2023/05/30 (Tue) 23:40``; LoCoMo writes ``1:56 pm on 8 May, 2023``. Month and weekday
names are fixed English tables, not ``strftime``, so the bytes do not depend on the
machine's locale. Readers turn both back into ISO minutes so that records read from any
format compare and sort the same way (the audit's "timestamps increase" and "question
after its evidence" checks need that).

Writers take any time a record may hold (:func:`parse_time`): native ISO, or a form
another reader left as it was (LongMemEval's, LoCoMo's, MemDaily's ``2024年04月01日 周一
08:30``), so that data read from one format can be written to another.

Guarantees: ``from_x(to_x(iso)) == iso`` for every ISO minute (tested); a string that
is not of the form raises ``ValueError`` saying what was expected.
"""

from __future__ import annotations

import re
from datetime import datetime

from memsim.records import Session

MONTHS = (
    "January", "February", "March", "April", "May", "June",
    "July", "August", "September", "October", "November", "December",
)  # fmt: skip
WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")

_ISO = re.compile(r"(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::\d{2}(?:\.\d+)?)?")
_LME = re.compile(r"\s*(\d{4})/(\d{1,2})/(\d{1,2})\s*(?:\((\w{3})\))?\s*(\d{1,2}):(\d{2})\s*")
_LOCOMO = re.compile(
    r"\s*(\d{1,2}):(\d{2})\s*([ap])\.?m\.?\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})\s*",
    re.IGNORECASE,
)
_MEMDAILY = re.compile(
    r"\s*(\d{4})年(\d{1,2})月(\d{1,2})日\s*(?:(?:周|星期)\S)?\s*(\d{1,2}):(\d{2})\s*"
)
_MONTH_NUMBER = {m.lower(): i for i, m in enumerate(MONTHS, start=1)}
_MONTH_NUMBER.update({m[:3].lower(): i for i, m in enumerate(MONTHS, start=1)})


def parse_iso(iso: str) -> datetime:
    """A native time (``2024-04-27T08:28``; seconds, if any, are dropped)."""
    m = _ISO.fullmatch(iso)
    if m is None:
        raise ValueError(f"{iso!r} is not an ISO date-time such as 2024-04-27T08:28")
    return _build(iso, *(int(g) for g in m.groups()))


def parse_time(text: str) -> datetime:
    """A time in any form a record may hold: ISO first, then LongMemEval's, LoCoMo's and
    MemDaily's."""
    if _ISO.fullmatch(text):
        return parse_iso(text)
    m = _MEMDAILY.fullmatch(text)
    if m:
        return _build(text, *(int(g) for g in m.groups()))
    for reader in (from_longmemeval, from_locomo):
        try:
            return parse_iso(reader(text))
        except ValueError:
            pass
    raise ValueError(
        f"{text!r} is not a time memsim reads (ISO such as 2024-04-27T08:28, "
        "2023/05/30 (Tue) 23:40, 1:56 pm on 8 May, 2023, 2024年04月01日 周一 08:30)"
    )


def iso_minute(when: datetime) -> str:
    return f"{when.year:04d}-{when.month:02d}-{when.day:02d}T{when.hour:02d}:{when.minute:02d}"


def to_longmemeval(iso: str) -> str:
    """``2023-05-30T23:40`` (or any form :func:`parse_time` reads) -> ``2023/05/30 (Tue) 23:40``."""
    t = parse_time(iso)
    return (
        f"{t.year:04d}/{t.month:02d}/{t.day:02d} ({WEEKDAYS[t.weekday()]}) "
        f"{t.hour:02d}:{t.minute:02d}"
    )


def from_longmemeval(text: str) -> str:
    """``2023/05/30 (Tue) 23:40`` -> ``2023-05-30T23:40`` (the weekday is not trusted)."""
    m = _LME.fullmatch(text)
    if m is None:
        raise ValueError(f"{text!r} is not a LongMemEval date such as 2023/05/30 (Tue) 23:40")
    year, month, day, _weekday, hour, minute = m.groups()
    return iso_minute(_build(text, int(year), int(month), int(day), int(hour), int(minute)))


def to_locomo(iso: str) -> str:
    """``2023-05-08T13:56`` (or any form :func:`parse_time` reads) -> ``1:56 pm on 8 May, 2023``."""
    t = parse_time(iso)
    hour12 = t.hour % 12 or 12
    half = "am" if t.hour < 12 else "pm"
    return f"{hour12}:{t.minute:02d} {half} on {t.day} {MONTHS[t.month - 1]}, {t.year}"


def from_locomo(text: str) -> str:
    """``1:56 pm on 8 May, 2023`` -> ``2023-05-08T13:56``."""
    m = _LOCOMO.fullmatch(text)
    month = _MONTH_NUMBER.get(m.group(5).lower()) if m else None
    if m is None or month is None:
        raise ValueError(f"{text!r} is not a LoCoMo date such as 1:56 pm on 8 May, 2023")
    hour12, minute, half, day, _, year = m.groups()
    if not 1 <= int(hour12) <= 12:
        raise ValueError(f"{text!r}: hour {hour12} is not 1-12")
    hour = int(hour12) % 12 + (12 if half.lower() == "p" else 0)
    return iso_minute(_build(text, int(year), month, int(day), hour, int(minute)))


def _build(text: str, year: int, month: int, day: int, hour: int, minute: int) -> datetime:
    try:
        return datetime(year, month, day, hour, minute)
    except ValueError as exc:
        raise ValueError(f"{text!r}: {exc}") from None


def sessions_by_day(sessions: tuple[Session, ...]) -> tuple[Session, ...]:
    """``sessions`` with each one whose turns fall on several calendar days cut into one
    session per day (ids ``<id>``, ``<id>.2``, ``<id>.3``...; each starting at its first
    turn), for formats that date sessions, not turns: a turn then takes a date of its
    own day, so a relative date it says ("next Monday") still resolves to the same day.
    Sessions whose turns share a day, or whose times do not parse, are kept as they are."""
    out: list[Session] = []
    for session in sessions:
        try:
            days = [parse_time(t.time).date() for t in session.turns]
        except ValueError:
            out.append(session)
            continue
        if len(set(days)) <= 1:
            out.append(session)
            continue
        cuts = [0] + [k for k in range(1, len(days)) if days[k] != days[k - 1]]
        for n, (begin, end) in enumerate(zip(cuts, [*cuts[1:], len(days)], strict=True)):
            turns = session.turns[begin:end]
            sid = session.id if n == 0 else f"{session.id}.{n + 1}"
            start = session.start if n == 0 else turns[0].time
            out.append(Session(sid, start, turns, session.topic))
    return tuple(out)
