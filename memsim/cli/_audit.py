"""``memsim audit``: re-derive answers, verify messages, measure shortcuts.

Exit status: 0 when no check found an error, 1 when one did, 2 on bad input (a path
that is neither format, a broken record, profiles or a schema that do not match).
"""

from __future__ import annotations

import sys
from typing import Any

import click

from memsim._shard import parse_shard
from memsim.cli._common import fail, format_names, shard_option, user_errors
from memsim.cli._common import progress_bar as _progress


@click.command("audit")
@click.argument("path", type=click.Path())
@click.option(
    "--format",
    "fmt",
    type=click.Choice(format_names()),
    default=None,
    help="native = a memsim dataset folder (dataset.jsonl); memdaily = memdaily.json or a "
    "folder of NN_type_scenario.json files (see `memsim ls formats`). Detected when not given.",
)
@click.option(
    "--profiles",
    "profiles",
    type=click.Path(),
    help="A memsim profiles folder (native data), or MemDaily's graphs.json (found beside "
    "the files).",
)
@click.option(
    "--schema",
    "schema_path",
    type=click.Path(dir_okay=False),
    help="The schema the data was generated from (labels, units, orders, priors).",
)
@click.option(
    "--report",
    "report_dir",
    type=click.Path(file_okay=False),
    help="Write report.json and report.md into this folder (atomically).",
)
@click.option(
    "--check",
    "checks",
    multiple=True,
    help="Run only this check (repeatable; see `memsim ls audit_check`).",
)
@click.option(
    "--allow-skip",
    is_flag=True,
    help="Exit 0 even when a correctness check could not run for lack of ground truth "
    "(no --profiles, --schema or graphs.json); without it such an audit exits 1.",
)
@click.option(
    "--progress/--no-progress", default=None, help="Progress bar (default: on a terminal)."
)
@click.option(
    "--workers",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Processes to share the checks between; the report is the same for any number.",
)
@shard_option("the input's items (per-item checks as a whole audit; statistics of the slice)")
def audit_cmd(
    path: str,
    fmt: str | None,
    profiles: str | None,
    schema_path: str | None,
    report_dir: str | None,
    checks: tuple[str, ...],
    allow_skip: bool,
    progress: bool | None,
    workers: int,
    shard_spec: str | None,
) -> None:
    """Audit a dataset at PATH: every answer re-derived from the profiles, every message
    checked against its facts, structural defects, and memory-free shortcut baselines."""
    from memsim._io import check_writable
    from memsim._registry import UnknownPluginError
    from memsim.audit import CHECKS, REPORT_KIND, load_context, open_source, run_audit
    from memsim.audit._markdown import summary_lines

    unknown = [c for c in checks if c not in CHECKS]
    if unknown:
        fail(f"unknown check(s) {unknown} (known: {', '.join(CHECKS.names())})")
    with user_errors():
        if report_dir:  # a report that cannot be written fails before the audit runs
            check_writable(report_dir, REPORT_KIND)
        try:
            source = open_source(path, fmt)
            total = int(source.manifest.get("counts", {}).get("trajectories") or 0)
            shard = parse_shard(shard_spec)
            if shard is not None:
                from memsim.audit._slice import slice_source

                source = sliced = slice_source(source, shard)
                total = sliced.stop - sliced.start
                click.echo(
                    f"shard {shard.index}/{shard.count}: items {sliced.start}..{sliced.stop - 1}"
                )
            ctx = load_context(source, profiles, schema_path)
            report = run_audit(
                ctx,
                checks or None,
                progress=lambda items: _progress(items, total, "items", progress),
                workers=workers,
            )
            if report_dir:
                report.write(report_dir)
        except UnknownPluginError as exc:
            fail(str(exc))
    for line in summary_lines(report):
        click.echo(line)
    for line in first_errors(report):
        click.echo(line)
    by_reason: dict[str, list[str]] = {}
    for name, reason in sorted(report.skipped.items()):
        by_reason.setdefault(reason, []).append(name)
    for reason, names in by_reason.items():
        click.echo(f"skipped {', '.join(names)}: {reason}")
    if report_dir:
        click.echo(f"wrote {report_dir}/report.json and report.md")
    unproven = unverified(report)
    if unproven and report.exit_status == 0 and not allow_skip:
        click.echo(
            f"memsim: error: not proven: {', '.join(unproven)} could not run for lack of "
            "ground truth (see 'skipped' above); give what they need, or --allow-skip to "
            "accept an audit without them",
            err=True,
        )
        sys.exit(1)
    sys.exit(report.exit_status)


GROUND_TRUTH = frozenset({"profiles", "schema", "graphs"})


def unverified(report: Any) -> list[str]:
    """The correctness checks that apply to this input and were skipped only for lack
    of ground truth (profiles, schema, graphs.json): ours on our native records,
    MemDaily's on MemDaily-format files."""
    from memsim.audit import CHECKS

    ctx, out = report.ctx, []
    for name in sorted(report.skipped):
        check = CHECKS.get(name)
        applies = (check.group == "correctness" and ctx.has("provenance")) or (
            check.group == "memdaily" and ctx.source.format == "memdaily"
        )
        missing = {need for need in check.needs if not ctx.has(need)}
        if applies and missing and missing <= GROUND_TRUTH:
            out.append(name)
    return out


def first_errors(report: Any, per_check: int = 3) -> list[str]:
    """The first errors of each check that found any, so that a failed audit says why
    without opening the report."""
    out = []
    for name, result in sorted(report.results.items()):
        errors = [f for f in result.findings if f.severity == "error"]
        for f in errors[:per_check]:
            out.append(f"error: {name}: {f.where + ': ' if f.where else ''}{f.message}")
        more = result.severities["error"] - len(errors[:per_check])
        if more > 0:
            out.append(f"error: {name}: ... and {more} more (see --report)")
    return out
