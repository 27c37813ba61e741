"""The audit report as Markdown (``report.md``) and as the terminal summary."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from memsim.audit._types import SEVERITIES

if TYPE_CHECKING:
    from memsim.audit._report import AuditReport, CheckResult

GROUPS = ("correctness", "structure", "shortcut", "memdaily")
SHOWN = 20
"""Findings listed per check in report.md (report.json keeps up to max_findings)."""


def _ordered(report: AuditReport) -> list[CheckResult]:
    return sorted(
        report.results.values(),
        key=lambda r: (GROUPS.index(r.group) if r.group in GROUPS else len(GROUPS), r.name),
    )


def summary_lines(report: AuditReport) -> list[str]:
    """The table `memsim audit` prints: one line per check, then the verdict."""
    rows: list[tuple[str, ...]] = [("check", "status", "items", "errors", "warnings", "infos")]
    for r in _ordered(report):
        rows.append(
            (r.name, r.status, str(r.stats.items), *(str(r.severities[s]) for s in SEVERITIES))
        )
    rows += [(name, "skipped", "-", "-", "-", "-") for name in sorted(report.skipped)]
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = [
        "  ".join(
            c.ljust(w) if i < 2 else c.rjust(w)
            for i, (c, w) in enumerate(zip(row, widths, strict=True))
        )
        for row in rows
    ]
    lines.insert(1, "  ".join("-" * w for w in widths))
    errors, warnings = report.count("error"), report.count("warning")
    lines.append("")
    lines.append(
        f"{report.items} items, {report.messages} messages, {report.seconds:.1f} s: "
        f"{errors} error(s), {warnings} warning(s)"
    )
    return lines


def _cell(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.3f}"
    return str(value)


def score_table(scores: dict[str, dict[str, Any]]) -> list[str]:
    columns: list[str] = []
    for row in scores.values():
        columns += [k for k in row if k not in columns]
    lines = ["| | " + " | ".join(columns) + " |", "|---" * (len(columns) + 1) + "|"]
    for name, row in scores.items():
        if all(isinstance(v, dict) for v in row.values()):
            continue
        lines.append(f"| {name} | " + " | ".join(_cell(row.get(c, "")) for c in columns) + " |")
    return lines


def to_markdown(report: AuditReport) -> str:
    meta = report.input_json()
    out = [
        f"# Audit of {meta['path']}",
        "",
        f"- format: {meta['format']} ({'memsim data' if meta['own_data'] else 'external data'})",
        f"- items: {meta['items']}, messages: {meta['messages']}",
        f"- profiles: {meta['profiles'] or meta['graphs'] or '-'}; schema: {meta['schema'] or '-'}",
        f"- verdict: {report.count('error')} error(s), {report.count('warning')} warning(s), "
        f"{report.count('info')} info; exit status {report.exit_status}",
        "",
        "## Checks",
        "",
        "| group | check | status | items | errors | warnings | infos | a clean result proves |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in _ordered(report):
        counts = " | ".join(str(r.severities[s]) for s in SEVERITIES)
        out.append(
            f"| {r.group} | {r.name} | {r.status} | {r.stats.items} | {counts} | {r.proves} |"
        )
    if report.skipped:
        out += ["", "Skipped:", ""]
        out += [f"- {name}: {why}" for name, why in sorted(report.skipped.items())]
    for r in _ordered(report):
        if not (r.stats.scores or r.stats.counts or r.stats.notes or r.findings):
            continue
        out += ["", f"## {r.name}", ""]
        out += [f"{note}" for note in r.stats.notes]
        if r.stats.notes:
            out.append("")
        if r.stats.counts:
            out.append(", ".join(f"{k}: {v}" for k, v in sorted(r.stats.counts.items())))
            out.append("")
        nested = {
            k: v for k, v in r.stats.scores.items() if all(isinstance(x, dict) for x in v.values())
        }
        flat = {k: v for k, v in r.stats.scores.items() if k not in nested}
        if flat:
            out += [*score_table(flat), ""]
        for name, table in nested.items():
            out += [f"{name}:", "", *score_table(table), ""]
        for f in r.findings[:SHOWN]:
            where = f" ({f.where})" if f.where else ""
            out.append(f"- {f.severity}: {f.message}{where}")
        hidden = sum(r.severities.values()) - min(len(r.findings), SHOWN)
        if hidden > 0:
            out.append(f"- ... {hidden} more (report.json keeps {len(r.findings)} in all)")
    return "\n".join(out) + "\n"


__all__ = ["score_table", "summary_lines", "to_markdown"]
