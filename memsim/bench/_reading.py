"""What the reader's rules share: the question's parts and subject, which messages
speak of what it asks, whether a message states an option, and how an option is
picked from a value (see :mod:`memsim.bench._rules`)."""

from __future__ import annotations

import datetime as dt
import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from memsim.bench._index import index_of, mentioning
from memsim.bench._lexicon import EN, EVERY
from memsim.bench._tokenize import token_set, tokenize
from memsim.bench._types import Message
from memsim.bench._values import (
    DATE_RE,
    dates,
    day_of,
    duration_hours,
    education_level,
    hearsay,
    may_name_day,
    measure,
    month_day,
    number,
    people,
)

_NEVER_RE = re.compile("|".join(re.escape(w) for lx in EVERY for w in lx.never_told), re.I)
_SAME_RE = re.compile("|".join(re.escape(w) for lx in EVERY for w in lx.same), re.I)


CHANGE_RE = re.compile(rf"\b(?:{'|'.join(map(re.escape, EN.change_markers))})\b", re.I)
CLOCK_RE = re.compile(r"\b\d{1,2}(?::\d{2})?\s*(?:AM|PM)\b", re.I)


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


@lru_cache(maxsize=1 << 14)
def subject(question: str) -> str | None:
    """Whom or what the question asks about: "my X" for one person of the user's life,
    a name ("the Chicago Trail Hike"), "me" for the user, else None (cached: several
    rules ask it of each question, once per mechanism and noise level)."""
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
    start = re.search(r"(?<=\s)(?!I\b)[A-Z]\w*", text)
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
    if may_name_day(candidate):
        day = said(message)
        days = dates(candidate, day)
        if days:  # a day may be told as "this Sunday"
            return days[0] in dates(message.text, day)
    needed = needed_tokens(candidate, question)
    return needed is not None and needed <= token_set(message.text)


@lru_cache(maxsize=1 << 16)
def needed_tokens(candidate: str, question: str) -> frozenset[str] | None:
    """The tokens a message must hold to state ``candidate`` (:func:`covers`): its own
    words (those of the question aside, unless none is left), or only its numbers when
    it has any ("46 years" is told as "I am 46": a number's unit may go unsaid); None
    for a candidate without words."""
    own = set(tokenize(candidate))
    own = own - set(tokenize(question)) or own
    if not own:
        return None
    numbers = {t for t in own if t.isdigit()}
    return frozenset(numbers or own)


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


def speaking_of(memory: Sequence[Message], who: str) -> list[Message]:
    """The messages about ``who``, latest first."""
    return [memory[i] for i in reversed(mentioning(memory, who))]


def day_of_year(text: str) -> float | None:
    """The day of the year (of a leap year, so February 29 has one) of the first month and
    day ``text`` writes: a birthday, ordered and measured in days."""
    md = month_day(text)
    if md is None:
        return None
    try:
        return float(dt.date(2000, md[0], md[1]).timetuple().tm_yday)
    except ValueError:
        return None


def value_of(attribute: str, message: Message) -> float | None:
    """``attribute``'s value in the message, as a number that orders like it."""
    if attribute in ("birthday",):
        return day_of_year(message.text)
    if attribute in ("date", "time", "day"):
        found = dates(message.text, said(message))
        return float(found[0].toordinal()) if found else None
    return measure(attribute, message.text)


def threshold(attribute: str, text: str) -> float | None:
    if attribute == "birthday":
        return day_of_year(text)
    if attribute in ("date", "time", "day"):
        found = dates(text, None)
        return float(found[0].toordinal()) if found else None
    if attribute == "education":
        level = education_level(text)
        return None if level is None else float(level)
    if attribute == "duration":
        return duration_hours(text)
    return number(text)


STOP = EN.stop_words


def relevant(question: str, memory: Sequence[Message]) -> list[Message]:
    """The messages about what an English question asks of: about its subject (see
    :func:`subject`), else sharing a content word with it; never hearsay."""
    who = subject(question)
    if who is not None:  # the index finds the few messages about it
        return [m for i in mentioning(memory, who) if not hearsay((m := memory[i]).text)]
    words = frozenset(tokenize(core(question))) - STOP
    return [m for i in index_of(memory).sharing(words) if not hearsay((m := memory[i]).text)]


@lru_cache(maxsize=1 << 16)
def marks(text: str) -> frozenset[str]:
    """The tokens of a message's capitalised words and numbers that do not start a
    sentence (nor are "I"): the words of names ("Apple iPhone 15 Pro", "Heritage Park").

    Cached: the conditional rules compare every pair of messages of a long memory, and
    texts repeat across noise levels and mechanisms."""
    words = text.split()
    out: set[str] = set()
    for before, w in itertools.pairwise(words):
        if before[-1:] in ".?!:" or re.match(r"I\b", w):
            continue
        if w[:1].isupper() or any(ch.isupper() for ch in w[1:]) or w[:1].isdigit():
            out.update(tokenize(w))
    return frozenset(out)
