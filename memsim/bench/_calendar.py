"""The reader's calendar rules: when things happen and which value held when.

"This Friday" and "next Friday" are resolved against the day a message is sent
(:func:`memsim.bench._values.dates`); a change told with its day ("Since my move on
May 3, 2024, ...") holds from that day, any other statement from the day it is said.
"""

from __future__ import annotations

import datetime as dt
import re

from memsim.bench._index import mentioning
from memsim.bench._lexicon import EN
from memsim.bench._reading import (
    CHANGE_RE,
    CLOCK_RE,
    Part,
    covers,
    needed_tokens,
    never,
    pick_day,
    pick_number,
    pick_word,
    said,
    speaking_of,
    subject,
)
from memsim.bench._tokenize import token_set
from memsim.bench._values import MONTHS, dates, may_name_day, month_day, people

_SEASONS = {month: name for name, months in EN.seasons.items() for month in months}


def count_between(p: Part) -> str | None:
    match = re.search(r"how many of my .+? take place from (.+?) to (.+?),? both", p.question, re.I)
    if match is None or p.asked is None:
        return None
    start, end = dates(match.group(1), p.asked), dates(match.group(2), p.asked)
    if not start or not end:
        return None
    events: set[str] = set()
    for m in p.memory:
        if CHANGE_RE.search(m.text) or not CLOCK_RE.search(m.text) or people(m.text):
            continue
        found = dates(m.text, said(m))
        if found and start[0] <= found[0] <= end[0]:
            events.add(m.text)
    return pick_number(p.candidates, len(events))


def elapsed(p: Part) -> str | None:
    match = re.search(r"how many (days|weeks) before today did (.+?) become (.+?)\?", p.question)
    if match is None or p.asked is None:
        return None
    who = subject(match.group(2)) or "me"
    for m in speaking_of(p.memory, who):
        if not covers(match.group(3), "", m) or not CHANGE_RE.search(m.text):
            continue
        found = dates(m.text, said(m))
        if found:
            days = (p.asked - found[0]).days
            return pick_number(p.candidates, days if match.group(1) == "days" else days // 7)
    return None


def first_of(p: Part) -> str | None:
    if not re.search(r"which came first|took place earliest", p.question, re.I):
        return None
    entities = [c for c in p.candidates if not never(c)]
    days: list[tuple[dt.date, str]] = []
    for entity in entities:
        found = [d for m in speaking_of(p.memory, entity) for d in dates(m.text, said(m))[:1]]
        if not found:
            return next((c for c in p.candidates if never(c)), None)
        days.append((found[0], entity))
    return min(days)[1] if days else None


def _event_day(p: Part, name: str) -> dt.date | None:
    for m in speaking_of(p.memory, name):
        found = dates(m.text, said(m))
        if found:
            return found[0]
    return None


def date_of(p: Part) -> str | None:
    match = re.search(r"(?:On what date is|What is the date of) (.+?)\?", p.question)
    if match is None:
        return None
    day = _event_day(p, match.group(1))
    return None if day is None else pick_day(p.candidates, day)


def weekday(p: Part) -> str | None:
    match = re.search(r"day of the week (?:is|does) (.+?)(?: take place)?\?", p.question)
    if match is None:
        return None
    day = _event_day(p, match.group(1))
    return None if day is None else pick_word(p.candidates, day.strftime("%A"))


def days_between(p: Part) -> str | None:
    match = re.search(r"(?:days are there between|how far apart are) (.+?)\?", p.question)
    if match is None:
        return None
    text = match.group(1)
    for cut in [i.start() for i in re.finditer(" and ", text)]:
        a, b = _event_day(p, text[:cut]), _event_day(p, text[cut + 5 :])
        if a is not None and b is not None:
            return pick_number(p.candidates, abs((a - b).days))
    return None


def season(p: Part) -> str | None:
    if "season" not in p.question.lower():
        return None
    who = subject(p.question)
    for m in speaking_of(p.memory, who or "me"):
        md = month_day(m.text) if re.search(r"birthday|born", m.text, re.I) else None
        if md is not None:
            return pick_word(p.candidates, _SEASONS[md[0]])
    return None


_DAY_RE = rf"((?:{'|'.join(m.capitalize() for m in MONTHS)}) \d{{1,2}}, \d{{4}})"
_BEFORE_DAY_RE = re.compile(rf"\bbefore .+? on {_DAY_RE}", re.I)
_ON_DAY_RE = re.compile(rf"\bon {_DAY_RE}", re.I)
_NOW_RE = re.compile(r"\bnow\b|these days", re.I)
"""timeline's tests of the question, compiled once (it reads every question of a run)."""


def timeline(p: Part) -> str | None:
    """A value that changes: now, before a change, or on a day (the statement in force
    then: the latest one said, or dated by its change, on or before the day)."""
    q = p.question
    before = _BEFORE_DAY_RE.search(q)
    on = _ON_DAY_RE.search(q)
    if before is None and on is None and not _NOW_RE.search(q):
        return None
    who = subject(q)
    if who is None:
        return None
    # (day it holds from, whether a change says so, order said, option): a change
    # dated D follows whatever else was said on D, which still tells the old value
    told: list[tuple[dt.date, bool, int, str]] = []
    # covers(c, q, m) tests m's tokens unless c may name a day: its needed tokens are
    # found once per option here, not once per message
    tests = [(c, may_name_day(c), needed_tokens(c, q)) for c in p.candidates if not never(c)]
    for i in mentioning(p.memory, who):
        m = p.memory[i]
        day, change = said(m), False
        if CHANGE_RE.search(m.text) and dates(m.text, day):
            day, change = dates(m.text, day)[0], True
        if day is None:
            continue
        words = token_set(m.text)
        for c, by_day, needed in tests:
            if covers(c, q, m) if by_day else needed is not None and needed <= words:
                told.append((day, change, i, c))
    if not told:
        return None
    told.sort()
    if before is not None:
        limit = dates(before.group(1), p.asked)[0]
        earlier = [t for t in told if t[0] < limit or (t[0] == limit and not t[1])]
        return earlier[-1][3] if earlier else None
    if on is not None:
        limit = dates(on.group(1), p.asked)[0]
        held = [t for t in told if t[0] <= limit]
        return held[-1][3] if held else told[0][3]
    return told[-1][3]
