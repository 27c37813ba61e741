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

from memsim.bench._lexicon import EN
from memsim.bench._reading import STOP, Part, core, covers, marks, never, said
from memsim.bench._tokenize import token_set, tokenize
from memsim.bench._types import Message
from memsim.bench._values import dates, hearsay, may_name_day, people

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


Subject = tuple[str | None, frozenset[str]]
"""What a message speaks of: the first person of the user's life it names (None if
none), and the tokens of the names it writes (:func:`marks`)."""


def _subject_of(text: str) -> Subject:
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
    speak of; None when the question is not so worded or no message matches it."""
    if not described(p.question):
        return None
    asked = set(tokenize(core(p.question))) - STOP
    facts: Sequence[Message] = [m for m in p.memory if not hearsay(m.text)]
    best: tuple[tuple[int, int], bool, int, str] | None = None
    subjects: list[Subject] = []  # each fact's, once needed
    options = [c for c in p.candidates if not never(c)]
    for i, m in enumerate(facts):
        group: list[Message] | None = None  # the messages linked to m, once needed
        for c in options:
            if not covers(c, p.question, m):
                continue
            if group is None:
                subjects = subjects or [_subject_of(k.text) for k in facts]
                group = [
                    k for j, k in enumerate(facts) if k is m or _linked(subjects[i], subjects[j])
                ]
            score = max(_says(p.question, asked, k, c) for k in group)
            # "1 day" is covered by "1 week" (a unit may go unsaid): all words said wins
            whole = token_set(c) <= token_set(m.text)
            if score > (0, 0) and (best is None or (score, whole, i) > best[:3]):
                best = (score, whole, i, c)
    return None if best is None else best[3]
