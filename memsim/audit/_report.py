"""The audit report: every check's findings and statistics, as JSON and Markdown.

Guarantees: every finding is counted, and the first ``max_findings`` of each check are
kept in full (the rest are counted as omitted, so a broken 100x dataset does not fill
memory); the report folder is written through a staging folder and renamed into place
(``report.json``, ``report.md``, ``manifest.json``), so it appears complete or not at all.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memsim import __version__
from memsim._io import MANIFEST, atomic_output_dir, dumps
from memsim.audit._types import SEVERITIES, CheckStats, Finding

if TYPE_CHECKING:
    from memsim.audit._context import AuditContext

REPORT_KIND = "audit_report"


@dataclass
class CheckResult:
    name: str
    proves: str
    group: str
    stats: CheckStats = field(default_factory=CheckStats)
    severities: Counter[str] = field(default_factory=Counter)
    findings: list[Finding] = field(default_factory=list)
    omitted: int = 0

    def add(self, f: Finding, cap: int) -> None:
        self.severities[f.severity] += 1
        if len(self.findings) < cap:
            self.findings.append(f)
        else:
            self.omitted += 1

    def extend(self, found: Iterable[Finding], cap: int) -> None:
        for f in found:
            self.add(f, cap)

    @property
    def status(self) -> str:
        return next((s for s in SEVERITIES if self.severities[s]), "ok")

    def to_json(self) -> dict[str, Any]:
        return {
            "proves": self.proves,
            "group": self.group,
            "status": self.status,
            "findings": {s: self.severities[s] for s in SEVERITIES},
            "findings_omitted": self.omitted,
            **self.stats.to_json(),
        }


@dataclass
class AuditReport:
    ctx: AuditContext
    skipped: dict[str, str] = field(default_factory=dict)
    results: dict[str, CheckResult] = field(default_factory=dict)
    items: int = 0
    messages: int = 0
    seconds: float = 0.0

    def start(self, name: str, proves: str, group: str) -> CheckResult:
        result = self.results[name] = CheckResult(name, proves, group)
        return result

    def count(self, severity: str) -> int:
        return sum(r.severities[severity] for r in self.results.values())

    @property
    def exit_status(self) -> int:
        """1 when any error was found, else 0."""
        return 1 if self.count("error") else 0

    def findings(self) -> list[Finding]:
        return [f for r in self.results.values() for f in r.findings]

    def input_json(self) -> dict[str, Any]:
        ctx = self.ctx
        return {
            "path": str(ctx.source.path),
            "format": ctx.source.format,
            "own_data": ctx.own,
            "profiles": str(ctx.profiles.folder) if ctx.profiles else None,
            "graphs": len(ctx.graphs) if ctx.graphs is not None else None,
            "schema": f"{ctx.schema.name} {ctx.schema.version}" if ctx.schema else None,
            "items": self.items,
            "messages": self.messages,
        }

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": REPORT_KIND,
            "memsim_version": __version__,
            "input": self.input_json(),
            "verdict": {
                **{f"{s}s": self.count(s) for s in SEVERITIES},
                "exit_status": self.exit_status,
                "seconds": round(self.seconds, 3),
            },
            "checks": {name: r.to_json() for name, r in sorted(self.results.items())},
            "skipped": dict(sorted(self.skipped.items())),
            "findings": [f.to_json() for f in self.findings()],
        }

    def write(self, folder: str | Path) -> Path:
        """Write report.json, report.md and a manifest into ``folder`` atomically."""
        from memsim.audit._markdown import to_markdown

        folder = Path(folder)
        with atomic_output_dir(folder, REPORT_KIND) as stage:
            data = self.to_json()
            (stage / "report.json").write_bytes(dumps(data))
            (stage / "report.md").write_text(to_markdown(self), encoding="utf-8")
            manifest = {
                "kind": REPORT_KIND,
                "memsim_version": __version__,
                "input": data["input"],
                "files": ["report.json", "report.md"],
            }
            (stage / MANIFEST).write_bytes(dumps(manifest))
        return folder


__all__ = ["REPORT_KIND", "AuditReport", "CheckResult"]
