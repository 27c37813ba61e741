"""The reader's rule for a question that points at someone or something by what is true
of it ("How tall is the relative or colleague named Robert Rowe?", "What kind of product
is the item I own?", "When is the work event or leisure event for 50 people?").

Messages are grouped by what they speak of (a person of the user's life, else the names
they share); the option a message states wins when another message of its group (or the
rest of the same message) says the most of what the question describes. Only the
question, the options and the retrieved messages are read.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from operator import attrgetter

from memsim.bench._index import facts_of, index_of
from memsim.bench._lexicon import EN
from memsim.bench._reading import STOP, Part, core, covers, marks, needed_tokens, never, said
from memsim.bench._tokenize import token_set, tokenize
from memsim.bench._types import Message
from memsim.bench._values import dates, may_name_day, people

_DESCRIBED_RE = re.compile(
    rf"\bthe (?:[a-z]+ )+?(?:{'|'.join(map(re.escape, EN.descriptions))})\b"
    if EN.descriptions
    else r"(?!)"
)


def described(question: str) -> bool:
    """Whether the question points at its subject by a description: "the" and lower-case
    words (a common noun, not a name) followed by "who", "named", "for", ..."""
    text = core(question)
    return bool(_DESCRIBED_RE.search(text)) and not people(text)


_TEXT = attrgetter("text")
Subject = tuple[str | None, frozenset[str]]
"""What a message speaks of: the first person of the user's life it names (None if
none), and the tokens of the names it writes (:func:`marks`)."""


@lru_cache(maxsize=1 << 16)
def _subject_of(text: str) -> Subject:
    """Cached: a noise text is met in many memories (every mechanism, every level)."""
    named = people(text)
    return (named[0] if named else None), marks(text)


def _linked(a: Subject, b: Subject) -> bool:
    """Whether two messages speak of the same person (of the user's life) or thing: by
    the tokens of its name, more than half of the fewer one writes ("the New York Career
    Fair" is not "the Monthly Book Club Meetup in New York"; "Silver Falls" at a
    sentence's start leaves only "Falls")."""
    (pa, ma), (pb, mb) = a, b
    if pa is not None or pb is not None:
        return pa == pb
    fewer = min(len(ma), len(mb))
    return fewer > 0 and 2 * len(ma & mb) > fewer


def _says(question: str, asked: set[str], message: Message, option: str) -> tuple[int, int]:
    """How much of the description ``message`` says, the option's own words aside: days
    named by both, then shared content words."""
    rest = token_set(message.text) - token_set(option)
    if not may_name_day(question):
        return 0, len(asked & rest)
    day = said(message)
    both = set(dates(question, day)) & set(dates(message.text, day))
    return len(both), len(asked & rest)


def condition(p: Part) -> str | None:
    """The option stated about whatever the messages that best match the description
    speak of; None when the question is not so worded or no message matches it.

    The messages linked to a fact are found per distinct subject, and a group's score
    is taken over its distinct (text, day) pairs: a long memory (every message, at
    100x noise) repeats its noise texts, and comparing every pair of messages was
    quadratic. The result is that of comparing them all: a score is a maximum."""
    if not described(p.question):
        return None
    asked = set(tokenize(core(p.question))) - STOP
    facts = facts_of(p.memory)
    by_day = may_name_day(p.question)  # whether _says reads the message's day
    groups = _Groups(facts, by_day)
    says: dict[tuple[str, str, str], tuple[int, int]] = {}
    covered: dict[tuple[str, str, str], bool] = {}
    best: tuple[tuple[int, int], bool, int, str] | None = None
    stating: dict[int, list[str]] = {}  # fact position -> the options it states, in order
    for c in p.candidates:
        if never(c):
            continue
        if may_name_day(c):
            found = []
            for i, m in enumerate(facts):
                ckey = (m.text, m.time[:10], c)
                hit = covered.get(ckey)
                if hit is None:
                    hit = covered[ckey] = covers(c, p.question, m)
                if hit:
                    found.append(i)
        else:  # covers is then a test of the text's tokens: the index finds them
            needed = needed_tokens(c, p.question)
            found = [] if needed is None else index_of(facts).holding(needed)
        for i in found:
            stating.setdefault(i, []).append(c)
    for i in sorted(stating):
        m = facts[i]
        for c in stating[i]:
            score = (0, 0)
            for k in groups.of(i):
                skey = (k.text, k.time[:10] if by_day else "", c)
                s = says.get(skey)
                if s is None:
                    s = says[skey] = _says(p.question, asked, k, c)
                score = max(score, s)
            # "1 day" is covered by "1 week" (a unit may go unsaid): all words said wins
            whole = token_set(c) <= token_set(m.text)
            if score > (0, 0) and (best is None or (score, whole, i) > best[:3]):
                best = (score, whole, i, c)
    return None if best is None else best[3]


class _Groups:
    """The messages linked to each fact (:func:`_linked`; a fact is in its own group),
    one of each distinct (text, day) pair (the day only when ``by_day``), found per
    distinct subject and remembered.

    Subjects are indexed by their person and by each token of their names, so a
    subject is compared only with those that may be linked to it (the same person, or
    no person and a shared name token: :func:`_linked` needs one): the groups are those
    of comparing every pair, in the same order."""

    def __init__(self, facts: Sequence[Message], by_day: bool) -> None:
        self.facts = facts
        self.subject = list(map(_subject_of, map(_TEXT, facts)))
        # per distinct subject, its distinct (text, day) messages, in first-seen order
        self.members: dict[Subject, dict[tuple[str, str], Message]] = {}
        for m, s in zip(facts, self.subject, strict=True):
            self.members.setdefault(s, {}).setdefault((m.text, m.time[:10] if by_day else ""), m)
        self._order = list(self.members)
        self._by_person: dict[str, list[int]] = {}
        self._by_mark: dict[str, list[int]] = {}
        for j, (person, names) in enumerate(self._order):
            if person is not None:
                self._by_person.setdefault(person, []).append(j)
            else:
                for token in names:
                    self._by_mark.setdefault(token, []).append(j)
        self._linked: dict[Subject, list[Message]] = {}

    def of(self, i: int) -> list[Message]:
        s = self.subject[i]
        group = self._linked.get(s)
        if group is None:
            order, members = self._order, self.members
            if s[0] is not None:  # its candidates name the same person: all are linked
                linked = [order[j] for j in self._candidates(s)]
            else:  # no person on either side: _linked's test of the names, inlined
                names = s[1]
                linked = [
                    other
                    for j in self._candidates(s)
                    if 2 * len(names & (other := order[j])[1]) > min(len(names), len(other[1]))
                ]
            group = self._linked[s] = [m for other in linked for m in members[other].values()]
        # a subject without a person or a name is linked to nothing, not even itself
        return group or [self.facts[i]]

    def _candidates(self, s: Subject) -> list[int]:
        """The subjects (by first-seen order) that may be linked to ``s``."""
        person, names = s
        if person is not None:
            return self._by_person.get(person, [])
        found: set[int] = set()
        for token in names:
            found.update(self._by_mark.get(token, ()))
        return sorted(found)
