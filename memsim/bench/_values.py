"""What the reader reads out of a message: dates, numbers with their units, durations,
education levels, people and event names.

The words come from the reader's English lexicon (:mod:`memsim.bench._lexicon`: month
and weekday names, kinship and work words, the order of school degrees); "this Friday"
is a later day of the same Monday-to-Sunday week. That is what any reader of the
language brings, not anything taken from a schema or a dataset's labels. Every
function is pure, so the reader stays deterministic. Text in another language yields
nothing here, and the reader falls back to word overlap.
"""

from __future__ import annotations

import datetime as dt
import re
from functools import lru_cache

from memsim.bench._lexicon import EN

MONTHS = EN.months
WEEKDAYS = EN.weekdays
_MONTH = "|".join(MONTHS)
_WEEKDAY = "|".join(WEEKDAYS)
DATE_RE = re.compile(rf"\b({_MONTH}) (\d{{1,2}})(?:st|nd|rd|th)?(?:, (\d{{4}}))?", re.I)
_RELATIVE_RE = re.compile(rf"\b(tomorrow|this(?: coming)? ({_WEEKDAY})|next ({_WEEKDAY}))\b", re.I)
_CLOCK_RE = re.compile(r"\b\d{1,2}(?::\d{2})?\s*(?:AM|PM|a\.m\.|p\.m\.)", re.I)

PERSON_RE = re.compile(
    rf"\bmy ((?:(?:{'|'.join(EN.relation_modifiers)}) )?(?:{'|'.join(EN.relations)}))\b", re.I
)
_USER_RE = re.compile(r"\b(?:I|I'm|I've|my|me|mine)\b", re.I)

_DURATION_RE = re.compile(
    rf"\b(half a day|half-day|(\d+(?:\.\d+)?|a|an|one) ({'|'.join(EN.hours)})s?)\b", re.I
)
_NUMBER = r"(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)"
UNITS = {
    "height": re.compile(rf"{_NUMBER} ?cm\b", re.I),
    "weight": re.compile(rf"{_NUMBER} ?(?:lb|lbs|kg|pounds)\b", re.I),
    "scale": re.compile(rf"{_NUMBER} (?:people|persons|attendees|guests)\b", re.I),
    "age": re.compile(
        rf"(?:{_NUMBER} years? old|turned {_NUMBER}|age is {_NUMBER}|"
        rf"\b(?:is|am|I'm) {_NUMBER}(?=[.!,;]|$| not\b| now\b| this\b))",
        re.I,
    ),
}


def number(text: str) -> float | None:
    """The first number written in ``text`` ("1,000 people" -> 1000.0)."""
    match = re.search(_NUMBER, text)
    return None if match is None else float(match.group(1).replace(",", ""))


def day_of(time: str) -> dt.date | None:
    """The day of a message or question time (ISO, as memsim writes it), else None."""
    try:
        return dt.date.fromisoformat(time[:10])
    except ValueError:
        return None


@lru_cache(maxsize=1 << 16)
def dates(text: str, said: dt.date | None) -> tuple[dt.date, ...]:
    """Every day ``text`` names: written dates (a date without a year takes the year it
    is said in) and "tomorrow", "this Friday", "next Friday" resolved against ``said``."""
    out: list[dt.date] = []
    for month, day, year in DATE_RE.findall(text):
        y = int(year) if year else (said.year if said is not None else 2000)
        try:
            out.append(dt.date(y, MONTHS.index(month.lower()) + 1, int(day)))
        except ValueError:
            continue
    if said is not None:
        for whole, this, nxt in _RELATIVE_RE.findall(text):
            if whole.lower() == "tomorrow":
                out.append(said + dt.timedelta(days=1))
                continue
            name, week = (this, 0) if this else (nxt, 1)
            monday = said - dt.timedelta(days=said.weekday())
            out.append(monday + dt.timedelta(days=7 * week + WEEKDAYS.index(name.lower())))
    return tuple(out)


@lru_cache(maxsize=1 << 16)
def may_name_day(text: str) -> bool:
    """Whether :func:`dates` may find a day in ``text`` (on whatever day it is said):
    False means it finds none, whatever the day."""
    return bool(DATE_RE.search(text) or _RELATIVE_RE.search(text))


@lru_cache(maxsize=1 << 16)
def month_day(text: str) -> tuple[int, int] | None:
    """The first month and day written in ``text`` (a birthday)."""
    match = DATE_RE.search(text)
    if match is None:
        return None
    return MONTHS.index(match.group(1).lower()) + 1, int(match.group(2))


def duration_hours(text: str) -> float | None:
    match = _DURATION_RE.search(text)
    if match is None:
        return None
    if match.group(1).lower().startswith("half"):
        return 12.0
    count = match.group(2).lower()
    n = 1.0 if count in ("a", "an", "one") else float(count)
    return n * EN.hours[match.group(3).lower()]


def education_level(text: str) -> int | None:
    low = text.lower()
    found = [(low.find(word), level) for word, level in EN.degrees.items() if word in low]
    return min(found)[1] if found else None


@lru_cache(maxsize=1 << 16)
def measure(attribute: str, text: str) -> float | None:
    """The value of ``attribute`` (age, height, weight, scale, duration, education, or
    anything dated) that ``text`` states, as a number that orders like the value."""
    if attribute == "education":
        level = education_level(text)
        return None if level is None else float(level)
    if attribute == "duration":
        return duration_hours(text)
    unit = UNITS.get(attribute)
    if unit is not None:
        clean = _CLOCK_RE.sub(" ", DATE_RE.sub(" ", text))
        match = unit.search(clean)
        if match is None:
            return None
        value = next(g for g in match.groups() if g is not None)
        return float(value.replace(",", ""))
    return None


@lru_cache(maxsize=1 << 16)
def people(text: str) -> tuple[str, ...]:
    """The people of the user's life ``text`` names ("my older brother"), lower-cased."""
    return tuple(m.lower() for m in PERSON_RE.findall(text))


_OTHERS_RE = re.compile(rf"^(?:{'|'.join(map(re.escape, EN.others_speaking))})\b", re.I)


@lru_cache(maxsize=1 << 16)
def hearsay(text: str) -> bool:
    """Whether ``text`` repeats what someone else said or holds ("A friend of mine
    wrote: ...", "Someone I know said their ..."): the user's words are framed with
    "I" as the one who says them ("I keep saying to my neighbor: ...")."""
    return bool(_OTHERS_RE.match(text))


@lru_cache(maxsize=1 << 16)
def about_user(text: str) -> bool:
    """Whether ``text`` speaks of the user and of nobody else of their life."""
    return bool(_USER_RE.search(text)) and not PERSON_RE.search(text)


@lru_cache(maxsize=1 << 16)
def mentions(text: str, entity: str) -> bool:
    """Whether ``text`` speaks of ``entity``: an option or question phrase such as
    "My peer", "I" / "me", or "The Chicago Trail Hike"."""
    low = entity.strip().lower()
    if low in ("i", "me", "myself"):
        return about_user(text)
    person = PERSON_RE.fullmatch(low)
    if person is not None:
        return person.group(1).lower() in people(text)
    name = low[4:] if low.startswith("the ") else low
    return bool(name) and name in text.lower()
