"""Readers: turn a question, its options and the retrieved memory into a chosen letter.

A reader receives a batch of :class:`ReaderItem` and returns one letter (or None, an
unanswered item, scored as wrong) per item, in order. Batches let a reader that calls
a model run its items concurrently; the benchmark sends up to :data:`BATCH` items per
call. Every reader renders the memory it receives with :func:`render_memory`, so the
benchmark's count of reader prompt tokens is the count of that text.

``lexical`` is an offline, deterministic, non-LLM baseline: it reads the retrieved
messages with the rules of :mod:`memsim.bench._rules` (compare two values, count,
take the latest statement, do the calendar arithmetic, say "never told" when no
message speaks of the asked entity) and otherwise picks the option whose words are
best covered by the memory. It is labelled as a baseline wherever its results appear.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import compress
from operator import attrgetter
from typing import ClassVar

from memsim._registry import Registry, registry
from memsim.bench._index import facts_of
from memsim.bench._lexicon import EVERY
from memsim.bench._reading import Part, relevant
from memsim.bench._rules import answer_part
from memsim.bench._tokenize import has_cjk, token_set, tokenize
from memsim.bench._types import Message
from memsim.bench._values import day_of

_MID = attrgetter("mid")
BATCH = 32
"""Items per call of :meth:`Reader.answer`."""
BASELINE = "non-LLM baseline"
QUESTION_JOINS = tuple((lx.question_join, lx.answer_join) for lx in EVERY if lx.question_join)
"""How a hybrid question joins its two questions, and its options their two answers,
in each language the reader knows."""


@dataclass(frozen=True)
class ReaderItem:
    question: str
    question_time: str
    choices: Mapping[str, str]
    memory: tuple[Message, ...]
    """Retrieved messages, oldest first (each with its time and place)."""


def render_memory(memory: Sequence[Message]) -> str:
    """The memory block a reader is given: one line per message, oldest first,
    ``[time, place] text``. Empty memory gives the empty string."""
    return "".join(memory_line(m) for m in memory)


def memory_line(message: Message) -> str:
    return f"[{message.time}, {message.place}] {message.text}\n"


class Reader:
    name: ClassVar[str] = ""
    kind: ClassVar[str] = "LLM"
    """``non-LLM baseline`` or ``LLM``: shown next to the reader's name everywhere."""

    @property
    def label(self) -> str:
        return f"{self.name} ({self.kind})"

    def answer(self, items: Sequence[ReaderItem]) -> list[str | None]:
        raise NotImplementedError

    def describe(self) -> dict[str, object]:
        """What the results depend on (goes into the manifest)."""
        return {"name": self.name, "kind": self.kind}

    def run_stats(self) -> dict[str, object]:
        """What this run did (calls, cache hits...): shown, never written, since a rerun
        that finds everything cached differs here and nowhere else."""
        return {}

    def close(self) -> None:
        """Release what the reader holds (an LLM client's connections)."""


READER: Registry[type[Reader]] = registry("reader")


@READER.register("lexical")
class LexicalReader(Reader):
    """Reads the memory with rules, then falls back to word overlap.

    Each question (a hybrid question's two, each with its options' halves) goes
    through :func:`memsim.bench._rules.answer_part`, which names the option the
    messages support, or nothing. An option's key is then: how many of its parts the
    rules named, then the share of its distinct tokens (see :func:`tokenize`) that
    occur in the memory, leaving out tokens the question itself contains (unless that
    leaves nothing), then the smallest hash of (question, option text): deterministic,
    and independent of the letter, so ties do not favour any position.

    An empty memory (``no_memory``) is no evidence of anything, not even that a fact
    was never told: the reader then picks by the hash alone, so that row stays the
    chance floor the other mechanisms are measured against.
    """

    name = "lexical"
    kind = BASELINE

    def answer(self, items: Sequence[ReaderItem]) -> list[str | None]:
        return [self.choose(item) for item in items]

    def describe(self) -> dict[str, object]:
        return {"name": self.name, "kind": self.kind, "rules": 2}

    def choose(self, item: ReaderItem) -> str | None:
        if not item.choices:
            return None
        options = sorted(item.choices.items())
        if not item.memory:
            return min(options, key=lambda lo: tie_break(item.question, lo[1]))[0]
        named = rule_hits(item)
        asked = set(tokenize(item.question))
        # overlap reads only the options' own tokens: those are the ones looked for
        wanted = set().union(*(own_tokens(option, asked) for _, option in options))
        seen: set[str] = set()
        for text in {message.text for message in on_topic(item)}:  # noise repeats texts
            seen |= token_set(text) & wanted
            if len(seen) == len(wanted):
                break
        best: tuple[int, float, str] | None = None
        letter_of_best: str | None = None
        for letter, option in options:
            key = (-named[letter], -overlap(option, asked, seen), tie_break(item.question, option))
            if best is None or key < best:
                best, letter_of_best = key, letter
        return letter_of_best


def questions_of(item: ReaderItem) -> list[str]:
    return item.question.split(joins(item)[0]) if joins(item)[0] else [item.question]


def joins(item: ReaderItem) -> tuple[str, str]:
    """The hybrid joins of the item's language, or ("", "") for a single question."""
    return next((j for j in QUESTION_JOINS if j[0] in item.question), ("", ""))


def on_topic(item: ReaderItem) -> tuple[Message, ...]:
    """The messages word overlap may read: for an English question, those about what
    it asks of (see :func:`memsim.bench._rules.relevant`); a message about something
    else tells nothing, and its words would only favour whichever option it happens
    to name. Other languages: the whole memory."""
    if has_cjk(item.question):
        return item.memory
    keep: set[int] = set()
    for question in questions_of(item):
        keep.update(map(_MID, relevant(question, item.memory)))
    # the memory kept in order, tested in C: a 100x memory holds over a thousand messages
    return tuple(compress(item.memory, map(keep.__contains__, map(_MID, item.memory))))


def rule_hits(item: ReaderItem) -> dict[str, int]:
    """For each letter, how many of its option's parts the rules named."""
    questions = questions_of(item)
    join = joins(item)[1] or "; "
    split = {letter: option.split(join) for letter, option in item.choices.items()}
    if len(questions) > 1 and any(len(parts) != len(questions) for parts in split.values()):
        questions = [item.question]
    if len(questions) == 1:
        split = {letter: [option] for letter, option in item.choices.items()}
    asked = day_of(item.question_time)
    # what others said is no fact of the user's life: the rules do not read it
    facts = facts_of(item.memory)
    hits = dict.fromkeys(item.choices, 0)
    for j, question in enumerate(questions):
        candidates = tuple(dict.fromkeys(parts[j] for _, parts in sorted(split.items())))
        found = answer_part(Part(question, candidates, facts, asked))
        for letter, parts in split.items():
            hits[letter] += found is not None and parts[j] == found
    return hits


def overlap(option: str, asked: set[str], seen: set[str]) -> float:
    """The share of the option's own tokens (:func:`own_tokens`) in ``seen``."""
    own = own_tokens(option, asked)
    if not own:
        return 0.0
    return len(own & seen) / len(own)


def own_tokens(option: str, asked: set[str]) -> set[str]:
    """The option's tokens the question does not hold (all of them if it holds each)."""
    tokens = set(tokenize(option))
    return tokens - asked or tokens


@lru_cache(maxsize=1 << 16)
def tie_break(question: str, option: str) -> str:
    """A hash of the question and option, the reader's last tie-break (cached: each
    option is weighed once per mechanism and noise level)."""
    return hashlib.blake2b(f"{question}\x00{option}".encode(), digest_size=8).hexdigest()
