"""What a QA kind hands to the trajectory builder, and what comes out of it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

LETTERS = ("A", "B", "C", "D")


@dataclass(frozen=True)
class FactRef:
    """One fact of the profile: an entity id and an attribute."""

    entity: str
    attribute: str

    @property
    def id(self) -> str:
        return f"{self.entity}.{self.attribute}"


@dataclass(frozen=True)
class Statement:
    """A fact said once inside a time window (while the value it says holds).

    ``told`` is ``plain`` (the value at the message's time, as any message says it) or
    ``change`` (the change that brought that value is said explicitly, with its cause
    and its day: "since my move on April 3, ...")."""

    fact: FactRef
    start: str
    """ISO date-time (minutes) the message may be sent from, inclusive."""
    end: str
    """ISO date-time (minutes) it must be sent before."""
    told: str = "plain"
    role: str = "evidence"
    """``evidence``, or ``negative`` for the history of a hard negative."""


@dataclass(frozen=True)
class Hearsay:
    """A distractor the user says is someone else's.

    ``value`` as an option writes it; ``label`` "" for a sentence repeated as said by
    someone else (the locale's ``hearsay``), else what a ``hearsay_of`` line calls the
    attribute. ``kind`` and ``attribute`` name the attribute the value is of, when it
    is one (not an e-mail's domain): a person's attribute is then said in its own
    phrasings, of a person outside the profile ("My friend Grace is 172 cm tall."), so
    the words around it are those of the user's own facts."""

    value: str
    label: str = ""
    kind: str = ""
    attribute: str = ""


@dataclass(frozen=True)
class Draft:
    """A question before it has a trajectory.

    ``evidence`` are the facts that must be stated for the answer to be known;
    ``negatives`` are look-alike facts (the same attribute of the other entities) that
    must be stated too; ``withheld`` are facts that must never be stated (the "you
    never told me" outcome of a comparison). The answer, every option and the
    correct one are already computed from the profile.
    """

    kind: str
    scenario: str
    question: str
    answer: str
    options: tuple[str, ...]
    """Four options, the correct one first (letters are assigned later)."""
    evidence: tuple[FactRef, ...]
    negatives: tuple[FactRef, ...] = ()
    withheld: tuple[FactRef, ...] = ()
    transform: str = "identity"
    params: dict[str, Any] = field(default_factory=dict)
    answer_value: Any = None
    mentions: tuple[tuple[str, str, str], ...] = ()
    """Facts of another life (profile id, entity id, attribute) that the trajectory
    states as noise: distractors said about other people, so that the answer is not
    the only option the conversation mentions."""
    told: tuple[FactRef, ...] = ()
    """Facts stated as filler because their values are distractors (the people of the
    user's life beside a question about the user, who has no look-alike of a kind)."""
    said: tuple[str, ...] = ()
    """Distractors the trajectory states (values of the hard negatives, of the people
    of ``mentions``): the conversation mentions them as it mentions the answer."""
    hearsay: tuple[Hearsay, ...] = ()
    """Distractors the user says are someone else's: a sentence (opinions,
    descriptions) repeated as said by someone else, or a value of any other type said
    to be someone else's (see :class:`Hearsay`)."""
    statements: tuple[Statement, ...] = ()
    """Evidence said at chosen times (questions that read a value history)."""
    span: tuple[str, str] | None = None
    """(earliest message, the question's time), ISO minutes: a draft that reads
    histories fixes when it is asked; the others are asked when their clock ends."""


@dataclass(frozen=True)
class Message:
    mid: int
    text: str
    time: str
    """ISO date-time, minutes."""
    place: str
    role: str
    """evidence | negative | filler | chit_chat | noise"""
    facts: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "mid": self.mid,
            "message": self.text,
            "time": self.time,
            "place": self.place,
            "role": self.role,
            "facts": list(self.facts),
        }
