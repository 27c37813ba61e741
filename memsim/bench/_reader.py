"""Readers: turn a question, its options and the retrieved memory into a chosen letter.

A reader receives a batch of :class:`ReaderItem` and returns one letter (or None, an
unanswered item, scored as wrong) per item, in order. Batches let a reader that calls
a model run its items concurrently; the benchmark sends up to :data:`BATCH` items per
call. Every reader renders the memory it receives with :func:`render_memory`, so the
benchmark's count of reader prompt tokens is the count of that text.

``lexical`` is an offline, deterministic, non-LLM baseline: it picks the option whose
words are best covered by the memory. It says how far plain word overlap gets, and is
labelled as a baseline wherever its results appear.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar

from memsim._registry import Registry, registry
from memsim.bench._tokenize import tokenize
from memsim.bench._types import Message

BATCH = 32
"""Items per call of :meth:`Reader.answer`."""
BASELINE = "non-LLM baseline"


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
    """Picks the option whose words the memory covers best.

    An option's score is the share of its distinct tokens (see :func:`tokenize`) that
    occur in the memory, leaving out tokens the question itself contains (unless that
    leaves nothing). Ties, including the all-zero tie of an empty memory, go to the
    option with the smallest hash of (question, option text): deterministic, and
    independent of the letter, so ties do not favour any position.
    """

    name = "lexical"
    kind = BASELINE

    def answer(self, items: Sequence[ReaderItem]) -> list[str | None]:
        return [self.choose(item) for item in items]

    def choose(self, item: ReaderItem) -> str | None:
        if not item.choices:
            return None
        seen: set[str] = set()
        for text in {message.text for message in item.memory}:  # noise repeats texts
            seen.update(tokenize(text))
        asked = set(tokenize(item.question))
        best: tuple[float, str] | None = None
        letter_of_best: str | None = None
        for letter, option in sorted(item.choices.items()):
            score = overlap(option, asked, seen)
            key = (-score, tie_break(item.question, option))
            if best is None or key < best:
                best, letter_of_best = key, letter
        return letter_of_best


def overlap(option: str, asked: set[str], seen: set[str]) -> float:
    tokens = set(tokenize(option))
    own = tokens - asked or tokens
    if not own:
        return 0.0
    return len(own & seen) / len(own)


def tie_break(question: str, option: str) -> str:
    return hashlib.blake2b(f"{question}\x00{option}".encode(), digest_size=8).hexdigest()
