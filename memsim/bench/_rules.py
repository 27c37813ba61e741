"""The reading rules of the built-in reader: how a question is answered from the
retrieved messages, the question and its options, and nothing else.

A rule recognises a question by its wording (English), reads the values it needs out
of the messages that speak of the asked entity (:mod:`memsim.bench._values`), does the
comparison, count or calendar arithmetic, and names the option it finds; it returns
None when the wording is not its own or the memory does not hold what it needs, and
the next rule (in the end plain word overlap) answers. Options that say the fact was
never told, or that two values are the same, are recognised by their words.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from memsim.bench._tokenize import tokenize
from memsim.bench._types import Message
from memsim.bench._values import (
    DATE_RE,
    about_user,
    dates,
    day_of,
    education_level,
    measure,
    mentions,
    month_day,
    number,
    people,
    duration_hours,
)

_NEVER_RE = re.compile(r"never told|从没告诉|没告诉过", re.I)
_SAME_RE = re.compile(r"\bthe same\b|一样|相同", re.I)
_CHANGE_RE = re.compile(r"\b(?:since|an update after|changed with)\b", re.I)
_CLOCK_RE = re.compile(r"\b\d{1,2}(?::\d{2})?\s*(?:AM|PM)\b", re.I)
_LOWER_RE = re.compile(r"\b(?:lower|earlier|younger|shorter|smaller|less|fewer)\b", re.I)
_SEASONS = {12: "winter", 1: "winter", 2: "winter", 3: "spring", 4: "spring", 5: "spring",
            6: "summer", 7: "summer", 8: "summer", 9: "autumn", 10: "autumn", 11: "autumn"}


@dataclass(frozen=True)
class Part:
    """One question (a hybrid question has two) with the options' texts for it."""

    question: str
    candidates: tuple[str, ...]
    memory: tuple[Message, ...]
    asked: dt.date | None


def never(text: str) -> bool:
    return bool(_NEVER_RE.search(text))


def same(text: str) -> bool:
    return bool(_SAME_RE.search(text))


def core(question: str) -> str:
    """The question without its preface ("Remind me: ...", chit-chat before it)."""
    return question.rsplit(": ", 1)[-1]


def subject(question: str) -> str | None:
    """Whom or what the question asks about: "my X" for one person of the user's life,
    a name ("the Chicago Trail Hike"), "me" for the user, else None."""
    text = core(question)
    named = people(text)
    if len(set(named)) == 1:
        return f"my {named[0]}"
    if named:
        return None
    name = proper_name(text)
    if name is not None:
        return name
    return "me" if re.search(r"\b(?:my|me|I)\b", text) else None


def proper_name(text: str) -> str | None:
    """The name a question ends on: from its first capitalised word that does not
    start the sentence (dates and "I" aside) to its last capitalised word or number."""
    text = DATE_RE.sub("", text)
    start = re.search(r"(?<=\s)(?!I\b)[A-Z0-9]\w*", text)
    if start is None:
        return None
    words = text[start.start() :].rstrip("?.!").split()
    while words and not words[-1][:1].isupper() and not words[-1][:1].isdigit():
        words.pop()
    return " ".join(words) or None


def said(message: Message) -> dt.date | None:
    return day_of(message.time)


def covers(candidate: str, question: str, message: Message) -> bool:
    """Whether the message holds every word of the candidate (question words aside)."""
    days = dates(candidate, said(message))
    if days:  # a day may be told as "this Sunday"
        return days[0] in dates(message.text, said(message))
    own = set(tokenize(candidate))
    own = own - set(tokenize(question)) or own
    numbers = {t for t in own if t.isdigit()}
    # "46 years" is told as "I am 46": a number's unit may go unsaid
    return bool(own) and (numbers or own) <= set(tokenize(message.text))


def pick_number(candidates: Sequence[str], value: float) -> str | None:
    best: tuple[float, str] | None = None
    for c in candidates:
        n = number(c)
        if n is not None and (best is None or abs(n - value) < best[0]):
            best = (abs(n - value), c)
    return None if best is None else best[1]


def pick_day(candidates: Sequence[str], day: dt.date) -> str | None:
    for c in candidates:
        if day in dates(c, day):
            return c
    return None


def pick_word(candidates: Sequence[str], word: str) -> str | None:
    return next((c for c in candidates if c.strip().lower() == word.lower()), None)


def about(message: Message, who: str) -> list[Message]:
    return [message] if mentions(message.text, who) else []


def speaking_of(memory: Sequence[Message], who: str) -> list[Message]:
    """The messages about ``who``, latest first."""
    return [m for m in reversed(memory) if mentions(m.text, who)]


def value_of(attribute: str, message: Message) -> float | None:
    """``attribute``'s value in the message, as a number that orders like it."""
    if attribute in ("birthday",):
        md = month_day(message.text)
        return None if md is None else float(md[0] * 32 + md[1])
    if attribute in ("date", "time", "day"):
        found = dates(message.text, said(message))
        return float(found[0].toordinal()) if found else None
    return measure(attribute, message.text)


def threshold(attribute: str, text: str) -> float | None:
    if attribute == "birthday":
        md = month_day(text)
        return None if md is None else float(md[0] * 32 + md[1])
    if attribute in ("date", "time", "day"):
        found = dates(text, None)
        return float(found[0].toordinal()) if found else None
    if attribute == "education":
        level = education_level(text)
        return None if level is None else float(level)
    if attribute == "duration":
        return duration_hours(text)
    return number(text)


# --- the rules ----------------------------------------------------------------------


def comparative(p: Part) -> str | None:
    match = re.search(r"\bwhose (\w+) is (\w+)", p.question)
    if match is None:
        return None
    entities = [c for c in p.candidates if not never(c) and not same(c)]
    if len(entities) != 2 or len(entities) == len(p.candidates):
        return None
    attribute, lower = match.group(1).lower(), bool(_LOWER_RE.search(match.group(2)))
    values: list[float] = []
    for entity in entities:
        found = [v for m in speaking_of(p.memory, entity) if (v := value_of(attribute, m)) is not None]
        if not found:
            return next((c for c in p.candidates if never(c)), None)
        values.append(found[0])
    if values[0] == values[1]:
        return next((c for c in p.candidates if same(c)), None)
    first = (values[0] < values[1]) if lower else (values[0] > values[1])
    return entities[0] if first else entities[1]


_COUNT_RE = re.compile(
    r"how many\b(.*?)\bis the (\w+) "
    r"(at least|at most|more than|less than|earlier than|later than|)\s*(.+?)\?",
    re.I,
)
_TEST: dict[str, Callable[[float, float], bool]] = {
    "at least": lambda v, t: v >= t,
    "at most": lambda v, t: v <= t,
    "more than": lambda v, t: v > t,
    "less than": lambda v, t: v < t,
    "earlier than": lambda v, t: v < t,
    "later than": lambda v, t: v > t,
    "": lambda v, t: v == t,
}


def aggregative(p: Part) -> str | None:
    match = _COUNT_RE.search(p.question)
    if match is None:
        return None
    group = p.question[: match.end(1)].lower()  # "Counting my relatives ..., for how many"
    attribute, test = match.group(2).lower(), match.group(3).lower()
    limit = threshold(attribute, match.group(4))
    if limit is None:
        return None
    persons = "relative" in group or "colleague" in group
    user = "me and" in group or "of us" in group
    events = "event" in group
    latest: dict[str, float] = {}
    for m in p.memory:  # oldest first: a later statement replaces an earlier one
        value = value_of(attribute, m)
        if value is None:
            continue
        named = people(m.text)
        if named and persons:
            key = f"my {named[0]}"
        elif not named and about_user(m.text) and user and not events:
            key = "me"
        elif not named and events:
            key = m.text
        else:
            continue
        latest[key] = value
    count = sum(_TEST[test](v, limit) for v in latest.values())
    return pick_number(p.candidates, count)


def count_between(p: Part) -> str | None:
    match = re.search(r"how many of my .+? take place from (.+?) to (.+?),? both", p.question, re.I)
    if match is None or p.asked is None:
        return None
    start, end = dates(match.group(1), p.asked), dates(match.group(2), p.asked)
    if not start or not end:
        return None
    events: set[str] = set()
    for m in p.memory:
        if _CHANGE_RE.search(m.text) or not _CLOCK_RE.search(m.text) or people(m.text):
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
        if not covers(match.group(3), "", m) or not _CHANGE_RE.search(m.text):
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


def age_difference(p: Part) -> str | None:
    if not re.search(r"age difference|apart in age", p.question, re.I):
        return None
    who = [f"my {x}" for x in dict.fromkeys(people(core(p.question)))]
    if re.search(r"\bme\b|\band I\b", p.question):
        who.append("me")
    if len(who) != 2:
        return None
    ages = []
    for w in who:
        found = [v for m in speaking_of(p.memory, w) if (v := measure("age", m.text)) is not None]
        if not found:
            return None
        ages.append(found[0])
    return pick_number(p.candidates, abs(ages[0] - ages[1]))


def digit_sum(p: Part) -> str | None:
    match = re.search(r"last (\d+) digits", p.question)
    if match is None:
        return None
    k = int(match.group(1))
    for m in speaking_of(p.memory, subject(p.question) or "me"):
        phone = re.search(r"\+?[A-Z]?\d[\d ().-]{4,}\d", m.text)
        if phone is not None:
            digits = re.sub(r"\D", "", phone.group(0))
            return pick_number(p.candidates, sum(int(d) for d in digits[-k:]))
    return None


def email_domain(p: Part) -> str | None:
    if "domain" not in p.question.lower():
        return None
    for m in speaking_of(p.memory, subject(p.question) or "me"):
        address = re.search(r"[\w.+-]+@([\w-]+(?:\.[\w-]+)+)", m.text)
        if address is not None:
            return pick_word(p.candidates, address.group(1))
    return None


_DAY_RE = r"((?:January|February|March|April|May|June|July|August|September|October|November|December) \d{1,2}, \d{4})"


def timeline(p: Part) -> str | None:
    """A value that changes: now, before a change, or on a day (the statement in force
    then: the latest one said, or dated by its change, on or before the day)."""
    q = p.question
    before = re.search(rf"\bbefore .+? on {_DAY_RE}", q, re.I)
    on = re.search(rf"\bon {_DAY_RE}", q, re.I)
    if before is None and on is None and not re.search(r"\bnow\b|these days", q, re.I):
        return None
    who = subject(q)
    if who is None:
        return None
    # (day it holds from, whether a change says so, order said, option): a change
    # dated D follows whatever else was said on D, which still tells the old value
    told: list[tuple[dt.date, bool, int, str]] = []
    for i, m in enumerate(p.memory):
        if not mentions(m.text, who):
            continue
        day, change = said(m), False
        if _CHANGE_RE.search(m.text) and dates(m.text, day):
            day, change = dates(m.text, day)[0], True
        for c in p.candidates:
            if not never(c) and day is not None and covers(c, q, m):
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


def stated(p: Part) -> str | None:
    """A fact about a person (or, with a "never told" option, about anything): the
    option a message about the asked entity states, the most on-topic such message
    winning; "never told" when no message about the entity states any option."""
    who = subject(p.question)
    unknown = next((c for c in p.candidates if never(c)), None)
    if who is None and unknown is None:
        return None
    asked = set(tokenize(core(p.question)))
    best: tuple[int, int, str] | None = None
    for i, m in enumerate(p.memory):
        if who is not None and not mentions(m.text, who):
            continue
        on_topic = len(asked & set(tokenize(m.text)))
        for c in p.candidates:
            if c != unknown and covers(c, p.question, m):
                key = (on_topic, i, c)
                if best is None or key > best:
                    best = key
    if best is not None:
        return best[2]
    return unknown


RULES: tuple[Callable[[Part], str | None], ...] = (
    comparative,
    count_between,
    aggregative,
    elapsed,
    first_of,
    date_of,
    weekday,
    days_between,
    age_difference,
    digit_sum,
    email_domain,
    season,
    timeline,
    stated,
)


def answer_part(p: Part) -> str | None:
    """The option text the first applicable rule finds, or None (word overlap decides)."""
    for rule in RULES:
        found = rule(p)
        if found is not None:
            return found
    return None
