"""Audit checks: registered by name, run over the items in one streaming pass.

A check is either a function of one item (``@item_check``: it returns the item's
findings, or None when it does not apply to the item) or an accumulator of
whole-dataset statistics (``@dataset_check``: a class with ``visit(item)`` and
``finish()``, e.g. the shortcut baselines). Both are registered in
``registry("audit_check")`` and receive the :class:`AuditContext` (profiles, schema).

Guarantees: the dataset is read once, whatever the number of checks; a check never
stops the run partway (an exception inside a check becomes an error finding of that
check, and the run goes on with the next item and the other checks; only bad input,
such as a profile file the dataset names and the folder lacks, ends the run); a check whose
needs are not met (profiles, schema, provenance) is skipped and the report says why.
"""

from __future__ import annotations

import gc
import time
import traceback
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Protocol

from memsim._registry import Registry, registry
from memsim.audit._context import NEEDS, PREFETCH, AuditContext
from memsim.audit._report import AuditReport, CheckResult
from memsim.audit._types import AuditInputError, AuditItem, CheckStats, Finding, finding


class CheckRun(Protocol):
    def visit(self, item: AuditItem) -> Iterable[Finding] | None: ...

    def finish(self) -> Iterable[Finding]: ...


@dataclass(frozen=True)
class Check:
    name: str
    proves: str
    """One sentence: what a clean result of this check proves."""
    group: str
    """correctness | structure | shortcut | memdaily"""
    needs: tuple[str, ...]
    start: Callable[[AuditContext, CheckStats], CheckRun]


CHECKS: Registry[Check] = registry("audit_check")

ItemFn = Callable[[AuditItem, AuditContext, CheckStats], Iterable[Finding] | None]


class _ItemRun:
    def __init__(self, fn: ItemFn, ctx: AuditContext, stats: CheckStats):
        self.fn, self.ctx, self.stats = fn, ctx, stats

    def visit(self, item: AuditItem) -> Iterable[Finding] | None:
        return self.fn(item, self.ctx, self.stats)

    def finish(self) -> Iterable[Finding]:
        return ()


def item_check(
    name: str, proves: str, group: str, needs: tuple[str, ...] = ()
) -> Callable[[ItemFn], ItemFn]:
    """Register a per-item check: ``fn(item, ctx, stats)`` -> findings, or None when the
    item is outside the check's reach (it is then not counted as checked)."""

    def register(fn: ItemFn) -> ItemFn:
        CHECKS.register(name)(
            Check(name, proves, group, needs, lambda ctx, stats: _ItemRun(fn, ctx, stats))
        )
        return fn

    return register


def dataset_check(
    name: str, proves: str, group: str, needs: tuple[str, ...] = ()
) -> Callable[[type], type]:
    """Register an accumulator class: ``cls(ctx, stats)`` with ``visit`` and ``finish``."""

    def register(cls: type) -> type:
        CHECKS.register(name)(Check(name, proves, group, needs, cls))
        return cls

    return register


def select_checks(
    ctx: AuditContext, names: Iterable[str] | None = None
) -> tuple[list[Check], dict[str, str]]:
    """The checks to run, and the skipped ones with the reason."""
    chosen = [CHECKS.get(n) for n in (names if names is not None else CHECKS.names())]
    run, skipped = [], {}
    for check in chosen:
        missing = [need for need in check.needs if not ctx.has(need)]
        if missing:
            skipped[check.name] = "; ".join(NEEDS[m] for m in missing)
        else:
            run.append(check)
    return run, skipped


def run_audit(
    ctx: AuditContext,
    names: Iterable[str] | None = None,
    progress: Callable[[Iterator[AuditItem]], Iterable[AuditItem]] | None = None,
    workers: int = 1,
) -> AuditReport:
    """Run the checks over the source in one pass and collect the report; with
    ``workers`` > 1 the checks are shared out between processes (``_parallel``), and
    the report is the same."""
    from memsim.audit._parallel import fork_available, run_shared

    checks, skipped = select_checks(ctx, names)
    if workers <= 1 or len(checks) <= 1 or not fork_available():
        report = _run_checks(ctx, [c.name for c in checks], progress)
        report.skipped = skipped
        return report
    report = AuditReport(ctx, skipped=skipped)
    began = time.perf_counter()
    run_shared(ctx, checks, report, _run_checks, progress, workers)
    report.seconds = time.perf_counter() - began
    return report


def _run_checks(
    ctx: AuditContext,
    names: list[str],
    progress: Callable[[Iterator[AuditItem]], Iterable[AuditItem]] | None,
) -> AuditReport:
    """The named checks (whose needs are met) over the source, in one pass."""
    with _fewer_collections():
        return _run_checks_once(ctx, names, progress)


GC_THRESHOLDS = (10_000_000, 50, 100)
"""The collector's thresholds during a run. The audit keeps what it reads for a while
(profiles, caches, samples): with the default (700, 10, 10) the collector walked those
objects again and again, about 3 of 25 CPU seconds of a one-worker audit at MemDaily
scale; at 100,000 new objects it still walked each of them once, 0.5 s of CPU on
`make dataset`'s 4,500 questions, though most are freed before the run ends (a profile
leaves the cache, a memo starts afresh). The audit makes almost no cyclic garbage (10
objects in that run, with collection off), so a collection waits for ten million new
objects; the one after the run walks only the survivors (about 0.2 s). Cycles are still
collected."""


@contextmanager
def _fewer_collections() -> Iterator[None]:
    before = gc.get_threshold()
    gc.set_threshold(*GC_THRESHOLDS)
    try:
        yield
    finally:
        # the run's survivors go to the oldest generation unwalked (freeze and unfreeze
        # move whole lists): with the thresholds back, the next young collection would
        # otherwise walk every object made since the run began; a full collection
        # still finds any cycle among them. A caller that froze objects itself keeps
        # them (and these) frozen until it unfreezes.
        frozen_before = gc.get_freeze_count()
        gc.freeze()
        gc.set_threshold(*before)
        if not frozen_before:
            gc.unfreeze()


def _run_checks_once(
    ctx: AuditContext,
    names: list[str],
    progress: Callable[[Iterator[AuditItem]], Iterable[AuditItem]] | None,
) -> AuditReport:
    checks = [CHECKS.get(n) for n in names]
    report = AuditReport(ctx)
    runs: list[tuple[CheckResult, CheckRun | None]] = []
    for check in checks:
        result = report.start(check.name, check.proves, check.group)
        try:
            runs.append((result, check.start(ctx, result.stats)))
        except Exception as exc:  # a broken check must not stop the others
            result.add(_crash(check.name, None, exc), ctx.options.max_findings)
            runs.append((result, None))
    began = time.perf_counter()
    items: Iterable[AuditItem] = ctx.source.items()
    if progress is not None:
        items = progress(iter(items))
    cap = ctx.options.max_findings
    # the loop runs once per item and check (200,000 times on make dataset's data):
    # what it reads of each run is looked up once, and an empty list of findings is
    # not walked
    visits = [(result, result.stats, run.visit) for result, run in runs if run is not None]
    # the profiles are read ahead only for checks that read them (a run of checks
    # that need none reads none, as before)
    store = ctx.profiles if any("profiles" in c.needs for c in checks) else None
    for batch in _batches(items, PREFETCH):
        if store is not None:
            store.prefetch([item.profile_id for item in batch])
        for item in batch:
            report.items += 1
            report.messages += len(item.messages)
            for result, stats, visit in visits:
                try:
                    found = visit(item)
                    if found is not None:
                        stats.items += 1
                        if found:
                            result.extend(found, cap)
                except AuditInputError:
                    raise  # bad input (a missing profile) stops the audit: exit 2
                except Exception as exc:
                    result.add(_crash(result.name, item, exc), cap)
    for result, run in runs:
        if run is None:
            continue
        try:
            result.extend(run.finish(), ctx.options.max_findings)
        except Exception as exc:
            result.add(_crash(result.name, None, exc), ctx.options.max_findings)
    report.seconds = time.perf_counter() - began
    return report


def _batches(items: Iterable[AuditItem], size: int) -> Iterator[list[AuditItem]]:
    """The items in lists of ``size`` (the last may be shorter), in order."""
    batch: list[AuditItem] = []
    for item in items:
        batch.append(item)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


def _crash(name: str, item: AuditItem | None, exc: Exception) -> Finding:
    frame = traceback.extract_tb(exc.__traceback__)[-1] if exc.__traceback__ else None
    at = f" at {frame.filename.rsplit('/', 1)[-1]}:{frame.lineno}" if frame else ""
    return finding(name, "error", item, f"the check failed: {type(exc).__name__}: {exc}{at}")


def check_names() -> list[str]:
    return CHECKS.names()


__all__ = [
    "CHECKS",
    "Check",
    "CheckRun",
    "check_names",
    "dataset_check",
    "item_check",
    "run_audit",
    "select_checks",
]
