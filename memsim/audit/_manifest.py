"""Did the audit read the whole dataset that was generated?

An empty ``dataset.jsonl``, or one cut to fewer lines, holds no wrong answer, so every
other check passes on it. This check compares what was read with the manifest written
beside it: the number of trajectories (per kind and scenario) and the sha256 of the
data file, when the manifest records them; an input with no trajectory at all is an
error whatever made it.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from memsim.audit._context import AuditContext
from memsim.audit._framework import dataset_check
from memsim.audit._types import AuditItem, CheckStats, Finding, finding

NAME = "manifest_matches"


def file_sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


@dataset_check(
    NAME,
    "the input holds trajectories, as many of each kind and scenario as its manifest "
    "counts, and its data file is the one generate wrote (sha256 in the manifest)",
    "structure",
)
class ManifestMatches:
    def __init__(self, ctx: AuditContext, stats: CheckStats):
        self.ctx, self.stats = ctx, stats
        self.seen: Counter[tuple[str, str]] = Counter()

    def visit(self, item: AuditItem) -> Iterable[Finding] | None:
        self.seen[item.type, item.scenario] += 1
        return None

    def finish(self) -> Iterable[Finding]:
        read = sum(self.seen.values())
        self.stats.items = read
        manifest = self.ctx.source.manifest
        if read == 0:
            return [self._error(f"{self._name()} holds no trajectories")]
        counts = manifest.get("counts")
        out: list[Finding] = []
        if isinstance(counts, dict):
            out += self._counts(counts, read)
        else:
            self.stats.notes.append("no counts in a manifest: the number read is not checked")
        out += self._digest(manifest.get("sha256"))
        return out

    def _name(self) -> str:
        return str(self.ctx.source.data_file or self.ctx.source.path)

    def _error(self, message: str) -> Finding:
        self.stats.counts["mismatches"] += 1
        return finding(NAME, "error", None, message)

    def _counts(self, counts: dict[str, Any], read: int) -> list[Finding]:
        out = []
        wanted = counts.get("trajectories")
        if isinstance(wanted, int) and wanted != read:
            out.append(
                self._error(
                    f"{self._name()} holds {read} trajectories, its manifest counts {wanted} "
                    "(a cut or extended file?)"
                )
            )
        by_type = counts.get("by_type")
        if isinstance(by_type, dict):
            for kind, scenarios in sorted(by_type.items()):
                for scenario, n in sorted((scenarios or {}).items()):
                    have = self.seen.get((kind, scenario), 0)
                    if have != n:
                        out.append(
                            self._error(f"{kind}/{scenario}: {have} trajectories read, {n} made")
                        )
        return out

    def _digest(self, digests: Any) -> list[Finding]:
        source = self.ctx.source
        file = source.data_file
        if file is None or not file.is_file() or not isinstance(digests, dict):
            return []
        wanted = digests.get(file.name)
        if not isinstance(wanted, str):
            return []
        have = file_sha256(file)
        self.stats.counts["files digested"] += 1
        if have == wanted:
            return []
        return [
            self._error(
                f"{file}: sha256 {have[:12]}..., the manifest says {wanted[:12]}... "
                "(the file was changed after generate wrote it)"
            )
        ]


__all__ = ["ManifestMatches", "file_sha256"]
