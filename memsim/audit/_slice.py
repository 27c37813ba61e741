"""``memsim audit --shard I/N``: audit items ``[I*total//N, (I+1)*total//N)`` of an
input, so N machines share the audit of one large dataset.

Items keep their index in the whole input (findings name the same item as a whole
audit would). Each check sees only the slice: a per-item check finds exactly the
findings a whole audit finds for those items, and a whole-dataset statistic (the
shortcut baselines) is that statistic on the slice. The manifest's per-kind counts
describe the whole file, so they are not compared with a slice (the data file's
sha256 still is).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from dataclasses import dataclass

from memsim._shard import Shard
from memsim.audit._source import AuditSource
from memsim.audit._types import AuditItem


@dataclass(frozen=True)
class SlicedSource(AuditSource):
    start: int = 0
    stop: int = 0

    def items(self) -> Iterator[AuditItem]:
        for item in super().items():
            if item.index >= self.stop:
                break
            if item.index >= self.start:
                yield item


def source_total(source: AuditSource) -> int:
    """Items in the input: the manifest's count when memsim wrote it, else counted."""
    counted = source.manifest.get("counts", {}).get("trajectories")
    if isinstance(counted, int):
        return counted
    return sum(1 for _ in source.items())


def slice_source(source: AuditSource, shard: Shard) -> SlicedSource:
    total = source_total(source)
    shard.check_size(total, "items")
    start, stop = shard.bounds(total)
    manifest = {k: v for k, v in source.manifest.items() if k != "counts"}
    fields = {f.name: getattr(source, f.name) for f in dataclasses.fields(source)}
    return SlicedSource(**{**fields, "manifest": manifest}, start=start, stop=stop)


__all__ = ["SlicedSource", "slice_source", "source_total"]
