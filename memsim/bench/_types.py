"""The small frozen types the benchmark passes around.

A :class:`BenchItem` is one trajectory after noise infusion: its messages in order,
with ids ``0..n-1`` equal to their positions, the question, and the labels (which
messages are evidence, which are infused noise). Memory mechanisms see
:class:`Message` objects only; the labels reach the two control mechanisms
(``oracle``, ``noise_only``) and the metrics, never a real mechanism.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import NamedTuple


class Message(NamedTuple):
    """One user message as a memory stores it: ``mid`` is its position in the
    (noise-infused) trajectory; ``time`` and ``place`` are the strings of the input's
    own format.

    A named tuple (immutable, compared and hashed by its fields, as a frozen dataclass
    would be) because a 100x run makes millions of them: one costs about 60% of a
    frozen dataclass's construction."""

    mid: int
    text: str
    time: str
    place: str


@dataclass(frozen=True, slots=True)
class Labels:
    """What only the controls and the metrics may look at."""

    evidence: frozenset[int]
    noise: frozenset[int]


@dataclass(frozen=True, slots=True)
class Query:
    """A retrieval request: the question and when it is asked."""

    question: str
    time: str


@dataclass(frozen=True)
class BenchItem:
    """One trajectory with its question, ready for the memory mechanisms."""

    key: str
    """Where it comes from (``type/scenario/tid``), for error messages."""
    qa_type: str
    scenario: str
    messages: tuple[Message, ...]
    query: Query
    choices: Mapping[str, str]
    ground_truth: str
    labels: Labels

    @property
    def evidence_ids(self) -> list[int]:
        """Evidence message ids in ascending order."""
        return sorted(self.labels.evidence)
