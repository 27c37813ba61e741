"""``memsim audit``: re-derive answers, verify messages, measure shortcuts.

Exit status: 0 when no check found an error, 1 when one did, 2 on bad input (a path
that is neither format, a broken record, profiles or a schema that do not match).
"""

from __future__ import annotations

import sys

import click


@click.command("audit")
@click.argument("path", type=click.Path())
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["native", "memdaily"]),
    default=None,
    help="native = a memsim dataset folder (dataset.jsonl); memdaily = memdaily.json or a "
    "folder of NN_type_scenario.json files. Detected when not given.",
)
@click.option(
    "--profiles",
    "profiles",
    type=click.Path(),
    help="A memsim profiles folder, or MemDaily's graphs.json (found beside the files).",
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
    "--progress/--no-progress", default=None, help="Progress bar (default: on a terminal)."
)
@click.option(
    "--workers",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Processes to share the checks between; the report is the same for any number.",
)
def audit_cmd(
    path: str,
    fmt: str | None,
    profiles: str | None,
    schema_path: str | None,
    report_dir: str | None,
    checks: tuple[str, ...],
    progress: bool | None,
    workers: int,
) -> None:
    """Audit a dataset at PATH: every answer re-derived from the profiles, every message
    checked against its facts, structural defects, and memory-free shortcut baselines."""
    from memsim._registry import UnknownPluginError
    from memsim.audit import CHECKS, load_context, open_source, run_audit
    from memsim.audit._markdown import summary_lines
    from memsim.cli._main import _progress, fail, user_errors

    unknown = [c for c in checks if c not in CHECKS]
    if unknown:
        fail(f"unknown check(s) {unknown} (known: {', '.join(CHECKS.names())})")
    with user_errors():
        try:
            source = open_source(path, fmt)  # type: ignore[arg-type]
            ctx = load_context(source, profiles, schema_path)
            total = int(source.manifest.get("counts", {}).get("trajectories") or 0)
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
    by_reason: dict[str, list[str]] = {}
    for name, reason in sorted(report.skipped.items()):
        by_reason.setdefault(reason, []).append(name)
    for reason, names in by_reason.items():
        click.echo(f"skipped {', '.join(names)}: {reason}")
    if report_dir:
        click.echo(f"wrote {report_dir}/report.json and report.md")
    sys.exit(report.exit_status)
