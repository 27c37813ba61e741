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

import re
from collections.abc import Callable
from functools import lru_cache

from memsim.bench._calendar import (
    count_between,
    date_of,
    days_between,
    elapsed,
    first_of,
    season,
    timeline,
    weekday,
)
from memsim.bench._condition import condition
from memsim.bench._index import mentioning
from memsim.bench._lexicon import EN
from memsim.bench._reading import (
    Part,
    core,
    covers,
    marks,
    needed_tokens,
    never,
    pick_number,
    pick_word,
    same,
    speaking_of,
    subject,
    threshold,
    value_of,
)
from memsim.bench._tokenize import token_set, tokenize
from memsim.bench._values import (
    about_user,
    duration_hours,
    may_name_day,
    measure,
    number,
    people,
)

_LOWER_RE = re.compile(r"\b(?:lower|earlier|younger|shorter|smaller|less|fewer)\b", re.I)
_MARGIN_RE = re.compile(EN.margin, re.I) if EN.margin else None


@lru_cache(maxsize=1 << 14)
def asked_comparison(question: str) -> tuple[bool, tuple[str, ...]] | None:
    """Whether the lower value wins, and what may be compared (tried in order): from
    "whose X is lower", else from the lexicon's comparison words ("Who is older", "Which
    lasts longer"), the longest found deciding.

    Cached: a question is read once per mechanism and noise level (32 times in ``make
    bench``), and every reading tried each comparison word (2.5% of its CPU)."""
    match = re.search(r"\bwhose (\w+) is (\w+)", question)
    if match is not None:
        return bool(_LOWER_RE.search(match.group(2))), (match.group(1).lower(),)
    low = question.lower()
    found = [w for w in EN.comparisons if re.search(rf"\b{re.escape(w)}\b", low)]
    if not found:
        return None
    direction, *attributes = EN.comparisons[max(found, key=len)]
    return direction == "lower", tuple(attributes)


def margin_of(question: str, attribute: str) -> float:
    """The difference a question says counts as the same ("A difference of 50 dollars or
    less counts as the same."), in the unit :func:`value_of` reads; 0 when none is said."""
    match = None if _MARGIN_RE is None else _MARGIN_RE.search(question)
    if match is None:
        return 0.0
    text = match.group(1)
    found = duration_hours(text) if attribute == "duration" else number(text)
    return 0.0 if found is None else found


def comparative(p: Part) -> str | None:
    """ "Of A and B, whose X is higher?", "Who is older, A or B?": both values read from
    the messages about each (the latest), compared in the asked direction; a tie (or a
    difference within the stated margin) is "the same", a missing value "never told you
    both"."""
    asked = asked_comparison(p.question)
    if asked is None:
        return None
    entities = [c for c in p.candidates if not never(c) and not same(c)]
    if len(entities) != 2 or len(entities) == len(p.candidates):
        return None
    lower, attributes = asked
    told: list[tuple[str, list[float | None]]] = []
    for attribute in attributes:
        values: list[float | None] = []
        for entity in entities:
            found = (value_of(attribute, m) for m in speaking_of(p.memory, entity))
            values.append(next((v for v in found if v is not None), None))
        told.append((attribute, values))
    # what both are told of wins, else what either is told of
    attribute, values = max(told, key=lambda t: sum(v is not None for v in t[1]))
    first, second = values
    if first is None or second is None:
        return next((c for c in p.candidates if never(c)), None)
    if abs(first - second) <= margin_of(p.question, attribute):
        return next((c for c in p.candidates if same(c)), None)
    wins = (first < second) if lower else (first > second)
    return entities[0] if wins else entities[1]


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
    """ "For how many of my relatives is the age at least 40?": each person's (or event's)
    latest value of the attribute, counted against the threshold."""
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
    if not (persons or user or events):  # "How many people is the event for?" counts nothing
        return None
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


def age_difference(p: Part) -> str | None:
    """The two people's ages, read from their messages; the option nearest the gap."""
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
    named = people(core(p.question))  # "my Social Security number" names no one else
    for m in speaking_of(p.memory, f"my {named[0]}" if named else "me"):
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


_WHOSE_RE = re.compile(r"\bwhose (?:\w+ )+?is (.+?)(?:[,.?]|$)")


def conditional(p: Part) -> str | None:
    """ "The relative whose name is Kristin Thomas: what is the occupation?": find who
    the message holding the value speaks of, then what the messages about them state."""
    match = _WHOSE_RE.search(p.question)
    if match is None:
        return None
    value = match.group(1)
    best: tuple[int, str] | None = None
    for key in p.memory:
        if not covers(value, "", key):
            continue
        named = people(key.text)
        if named:
            about_it = {p.memory[i].mid for i in mentioning(p.memory, f"my {named[0]}")}
        else:
            key_marks = marks(key.text) - set(tokenize(value))
            need = min(2, len(key_marks))
            about_it = {m.mid for m in p.memory if need and len(key_marks & marks(m.text)) >= need}
        for i, m in enumerate(p.memory):
            if m.mid not in about_it:
                continue
            for c in p.candidates:
                if not never(c) and covers(c, p.question, m) and (best is None or i > best[0]):
                    best = (i, c)
    return None if best is None else best[1]


def stated(p: Part) -> str | None:
    """A fact about a person (or, with a "never told" option, about anything): the
    option a message about the asked entity states, the most on-topic such message
    winning; "never told" when no message about the entity states any option."""
    who = subject(p.question)
    unknown = next((c for c in p.candidates if never(c)), None)
    if who is None and unknown is None:
        return None
    asked = set(tokenize(core(p.question)))
    best: tuple[int, bool, int, str] | None = None
    # covers(c, question, m) is a test of m's tokens unless c may name a day: what it
    # needs is found once per option, not once per message (a 100x memory is long)
    tests = [(c, may_name_day(c), needed_tokens(c, p.question)) for c in p.candidates]
    for i in range(len(p.memory)) if who is None else mentioning(p.memory, who):
        m = p.memory[i]
        words = token_set(m.text)
        on_topic = len(asked & words)
        for c, by_day, needed in tests:
            if c == unknown:
                continue
            if covers(c, p.question, m) if by_day else needed is not None and needed <= words:
                # "1 week" is covered by "1 month" (a unit may go unsaid): all words win
                key = (on_topic, token_set(c) <= words, i, c)
                if best is None or key > best:
                    best = key
    if best is not None:
        return best[3]
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
    condition,  # before timeline: "the event on May 3" describes, it does not date a change
    timeline,
    conditional,
    stated,
)


def answer_part(p: Part) -> str | None:
    """The option text the first applicable rule finds, or None (word overlap decides)."""
    for rule in RULES:
        found = rule(p)
        if found is not None:
            return found
    return None
