"""Stage 8: the audit. Re-derives every answer, verifies every message, measures the
shortcuts a memory-free reader could take, on our data and on MemDaily-format data.

    source = open_source("data/daily_life.en/dataset")
    ctx = load_context(source, profiles="data/daily_life.en/profiles",
                       schema="schemas/daily_life.en.yaml")
    report = run_audit(ctx)
    report.write("audit/")          # report.json + report.md, atomically
    report.exit_status              # 1 when any error was found

Checks are registered in ``registry("audit_check")`` (``memsim ls audit_check``).
"""

from memsim.audit import (  # noqa: F401  (importing a module registers its checks)
    _answer_dates,
    _apart,
    _assistant_turns,
    _blind,
    _classifier,
    _closed,
    _correctness,
    _cues,
    _doubled,
    _evidence_text,
    _faithful,
    _histories,
    _history,
    _history_classifier,
    _manifest,
    _memdaily,
    _mentioned,
    _messages,
    _noise,
    _outcomes,
    _prior,
    _shortcuts,
    _structure,
    _tautology,
    _tense,
    _timeline,
    _unfaithful,
)
from memsim.audit._context import AuditContext, AuditOptions, ProfileStore, load_context
from memsim.audit._framework import CHECKS, Check, check_names, dataset_check, item_check, run_audit
from memsim.audit._report import REPORT_KIND, AuditReport, CheckResult
from memsim.audit._source import AuditSource, Format, open_source
from memsim.audit._types import AuditInputError, AuditItem, CheckStats, Finding, Severity

__all__ = [
    "CHECKS",
    "REPORT_KIND",
    "AuditContext",
    "AuditInputError",
    "AuditItem",
    "AuditOptions",
    "AuditReport",
    "AuditSource",
    "Check",
    "CheckResult",
    "CheckStats",
    "Finding",
    "Format",
    "ProfileStore",
    "Severity",
    "check_names",
    "dataset_check",
    "item_check",
    "load_context",
    "open_source",
    "run_audit",
]
