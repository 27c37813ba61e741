"""``run_audit(..., workers=N)``: the checks shared out between N processes.

Each check already keeps its own statistics and findings and sees every item in the
dataset's order, so the work splits by check, not by item: every worker reads the
dataset once and runs its share of the checks, exactly as a single process would run
them, and the parent puts the results back in the checks' order. The report is the
same, byte for byte (bar its wall-clock ``seconds``), whatever the number of workers.

Checks are shared out by their measured cost (longest first, each to the least loaded
worker), so two workers get about half the work each. Workers are forked (the context,
with its profiles and schema, is inherited, not pickled); where fork is not available
the audit runs in one process.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from typing import TYPE_CHECKING

from memsim.audit._context import AuditContext
from memsim.audit._report import AuditReport, CheckResult
from memsim.audit._types import AuditItem

if TYPE_CHECKING:
    from memsim.audit._framework import Check

COST: dict[str, float] = {
    "shortcut_prior": 3.45,
    "messages_state_facts": 2.0,
    "messages_faithful": 1.9,
    "shortcut_format_classifier": 1.2,
    "shortcut_evidence_text": 1.2,
    "shortcut_blind_classifier": 1.2,
    "answer_rederived": 0.6,
    "answer_dates_resolved": 0.6,
    "shortcut_centroid": 0.45,
    "message_garbage": 0.4,
    "history_session_classifier": 0.35,
    "shortcut_mentioned_option": 0.3,
    "relative_times": 0.25,
    "tautological_statements": 0.25,
    "values_in_force": 0.2,
    "option_dates_valid": 0.2,
    "noise_facts": 0.2,
    "shortcut_format_cue": 0.2,
    "options_correct": 0.15,
    "whitespace_cues": 0.15,
}
"""CPU seconds of the costly checks on `make dataset`'s 4,500 questions (issue 17;
`benchmarks/audit_checks.py`, the mean of two runs on a loaded machine, 2026-11-27, after
the fifth speed pass. Reading the profiles, about 1.5 s, is left out: every worker pays it
once, in whichever of its checks reads a profile first); a check not listed counts 0.1."""

DEFAULT_COST = 0.1
Progress = Callable[[Iterator[AuditItem]], Iterable[AuditItem]]
RunOne = Callable[[AuditContext, list[str], "Progress | None"], AuditReport]
_INHERITED: tuple[AuditContext, RunOne, Progress | None] | None = None
"""What the forked workers inherit (a context and a progress callback do not pickle)."""


def share(checks: list[Check], workers: int) -> list[list[str]]:
    """The checks' names in ``workers`` groups of about equal cost (deterministic)."""
    groups: list[list[str]] = [[] for _ in range(max(1, min(workers, len(checks))))]
    loads = [0.0] * len(groups)
    for check in sorted(checks, key=lambda c: (-COST.get(c.name, DEFAULT_COST), c.name)):
        least = loads.index(min(loads))
        groups[least].append(check.name)
        loads[least] += COST.get(check.name, DEFAULT_COST)
    return groups


def fork_available() -> bool:
    return "fork" in multiprocessing.get_all_start_methods() and os.name == "posix"


def run_shared(
    ctx: AuditContext,
    checks: list[Check],
    report: AuditReport,
    run_one: RunOne,
    progress: Progress | None,
    workers: int,
) -> None:
    """Fill ``report`` with the results of ``checks``, run in ``workers`` processes by
    ``run_one(ctx, names, progress)`` (the progress bar follows the first group)."""
    global _INHERITED
    groups = share(checks, workers)
    _INHERITED = (ctx, run_one, progress)
    try:
        with ProcessPoolExecutor(
            len(groups), mp_context=multiprocessing.get_context("fork")
        ) as pool:
            futures = [pool.submit(_child, group, k == 0) for k, group in enumerate(groups)]
            done = [f.result() for f in futures]
    finally:
        _INHERITED = None
    found: dict[str, CheckResult] = {}
    for items, messages, results in done:
        report.items, report.messages = items, messages
        found.update(results)
    for check in checks:
        report.results[check.name] = found[check.name]


def _child(names: list[str], with_progress: bool) -> tuple[int, int, dict[str, CheckResult]]:
    assert _INHERITED is not None  # set by the parent before the fork
    ctx, run_one, progress = _INHERITED
    part = run_one(ctx, names, progress if with_progress else None)
    return part.items, part.messages, part.results
