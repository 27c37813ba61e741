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

Severity = Literal["error", "warning", "info"]
SEVERITIES: tuple[Severity, ...] = ("error", "warning", "info")


class AuditInputError(ValueError):
    """The audit cannot read its input (a path, a format, a profile, a schema): exit 2."""


@dataclass(frozen=True)
class AuditItem:
    """One trajectory and its question, from our native records or MemDaily files.

    ``messages`` are dicts with at least ``mid``, ``message``, ``time``, ``place`` (our
    records also have ``role`` and ``facts``); ``qa`` holds ``question``, ``answer``,
    ``choices``, ``ground_truth``, ``target_step_id``, ``time`` and, in our records,
    ``provenance``. ``where`` names the place in the input ("dataset.jsonl:12").
    """

    index: int
    """Position in the input, from 0."""
    type: str
    scenario: str
    tid: int
    messages: tuple[dict[str, Any], ...]
    qa: dict[str, Any]
    where: str
    flags: tuple[str, ...] = ()
    """MemDaily's failure markers found by the reader (``error_question``...)."""
    profile_id: str | None = None
    locale: str | None = None
    source: str = ""
    """The file the item comes from (per-type MemDaily files: which one)."""

    @property
    def qid(self) -> int:
        qid = self.qa.get("qid", 0)
        return qid if isinstance(qid, int) else 0

    @property
    def provenance(self) -> dict[str, Any] | None:
        prov = self.qa.get("provenance")
        return prov if isinstance(prov, dict) else None

    def choices(self) -> dict[str, str]:
        """The options as letter -> text ({} when the item has no usable choices)."""
        raw = self.qa.get("choices")
        if not isinstance(raw, dict):
            return {}
        return {str(k): v for k, v in raw.items() if isinstance(v, str)}


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
