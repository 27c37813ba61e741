"""What an audit is made of: the items it reads, the findings checks return, and the
statistics each check keeps.

Guarantees: findings are plain frozen data that serialise to JSON as they are; a
check's statistics hold counters and scores only (never the items), so a whole-dataset
check needs memory proportional to what it counts, not to the dataset.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Literal

from memsim.records import Record, qa_json, turn_json

Severity = Literal["error", "warning", "info"]
SEVERITIES: tuple[Severity, ...] = ("error", "warning", "info")


class AuditInputError(ValueError):
    """The audit cannot read its input (a path, a format, a profile, a schema): exit 2."""


@dataclass(frozen=True)
class AuditItem:
    """One record (a history and its question) as the audit reads it, from any format.

    ``record`` is the typed record; ``messages`` and ``qa`` are its native JSON views
    (``message_list`` entries with ``mid``, ``message``, ``time``, ``place``, ``role``,
    ``facts``...; the ``QA`` object with ``question``, ``answer``, ``choices``,
    ``ground_truth``, ``target_step_id``, ``time``, ``provenance``), made once, which the
    checks read. ``where`` names the place in the input ("dataset.jsonl:12").
    """

    index: int
    """Position in the input, from 0."""
    record: Record
    where: str
    source: str = ""
    """The file the item comes from (per-type MemDaily files: which one)."""
    messages: tuple[dict[str, Any], ...] = field(init=False, repr=False, compare=False)
    qa: dict[str, Any] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        record = self.record
        messages = tuple(turn_json(t, s.id) for s, t in record.iter_turns())
        qa = qa_json(record.qa)
        if "error_answer" in record.flags and not record.qa.answer:
            qa["answer"] = None  # MemDaily's null answer
        object.__setattr__(self, "messages", messages)
        object.__setattr__(self, "qa", qa)

    @property
    def type(self) -> str:
        return self.record.type

    @property
    def scenario(self) -> str:
        return self.record.scenario

    @property
    def tid(self) -> int:
        return self.record.tid

    @property
    def flags(self) -> tuple[str, ...]:
        """Failure markers found by the reader (MemDaily's ``error_question``...)."""
        return self.record.flags

    @property
    def profile_id(self) -> str | None:
        return self.record.profile_id

    @property
    def locale(self) -> str | None:
        return self.record.locale

    @property
    def qid(self) -> int:
        return self.record.qa.qid

    @property
    def provenance(self) -> dict[str, Any] | None:
        prov = self.qa.get("provenance")
        return prov if isinstance(prov, dict) else None

    def choices(self) -> dict[str, str]:
        """The options as letter -> text ({} when the item has no usable choices)."""
        return self.record.qa.choices


@dataclass(frozen=True)
class Finding:
    check: str
    severity: Severity
    message: str
    tid: int | None = None
    qid: int | None = None
    type: str | None = None
    scenario: str | None = None
    where: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if v is not None}


def finding(check: str, severity: Severity, item: AuditItem | None, message: str) -> Finding:
    """A finding about ``item`` (None: about the dataset as a whole)."""
    if item is None:
        return Finding(check, severity, message)
    return Finding(
        check, severity, message, item.tid, item.qid, item.type, item.scenario, item.where
    )


@dataclass
class CheckStats:
    """What one check counted: items it applied to, named counts, and scores (per QA
    kind for the shortcut baselines: ``scores[kind][metric]``)."""

    items: int = 0
    counts: Counter[str] = field(default_factory=Counter)
    scores: dict[str, dict[str, Any]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    """How the check measured (method, sample sizes), in sentences for the report."""

    def to_json(self) -> dict[str, Any]:
        return {
            "items": self.items,
            "counts": dict(sorted(self.counts.items())),
            "scores": self.scores,
            "notes": self.notes,
        }


__all__ = [
    "SEVERITIES",
    "AuditInputError",
    "AuditItem",
    "CheckStats",
    "Finding",
    "Severity",
    "finding",
]
