"""What the audit reads: any dataset in a registered format (:mod:`memsim.formats`),
read through that format's one reader: our dataset folders (``dataset.jsonl`` with
provenance, streamed so memory stays flat), MemDaily-format data made by anyone (a
merged ``memdaily.json`` or a folder of per-type files, with ``graphs.json`` when it
is beside them), and the other formats as they register.

Guarantees: the format is detected from the path when not given (one function,
:func:`memsim.formats.detect_format`), and an input no format reads gets a
:class:`~memsim.formats.FormatError` naming the path (and the record and field, for a
broken record); records keep everything their format holds.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memsim._io import DATASET_FILE, GRAPHS_FILE, MEMDAILY_FILE
from memsim.audit._types import AuditItem
from memsim.formats import detect_format, read_located
from memsim.formats._export import EXPORT_KIND, source_manifest

Format = str
"""A name in :data:`memsim.formats.FORMATS`."""


@dataclass(frozen=True)
class AuditSource:
    """An input of the audit; :meth:`items` streams it (each call starts again)."""

    path: Path
    format: Format
    data_file: Path | None
    """The file or folder the format's reader is given."""
    manifest: dict[str, Any] = field(default_factory=dict)
    """The manifest when memsim wrote the data (a dataset or an export; {} otherwise)."""
    graphs: Path | None = None
    """MemDaily's graphs.json found beside the files, if any."""

    @property
    def own(self) -> bool:
        """Whether memsim made this data (its shortcuts are then errors, not reports)."""
        return self.format == "native" or self.manifest.get("kind") in ("dataset", EXPORT_KIND)

    @property
    def graphs_by_position(self) -> bool:
        """Whether graphs.json holds one profile per trajectory, in file order (memsim's
        MemDaily export), rather than MemDaily's ``tid // k`` mapping."""
        return self.manifest.get("graphs_by") == "position"

    def items(self) -> Iterator[AuditItem]:
        data = self.data_file or self.path
        for index, x in enumerate(read_located(self.format, data)):
            yield AuditItem(index=index, record=x.record, where=x.where, source=x.source)


def open_source(path: str | Path, fmt: Format | None = None) -> AuditSource:
    """Detect what ``path`` holds (or take ``fmt``) and find what lies beside it."""
    path = Path(path)
    fmt = detect_format(path, fmt)
    data: Path = path
    if fmt == "memdaily" and path.is_dir() and (path / DATASET_FILE).is_file():
        data = path / MEMDAILY_FILE  # our own dataset folder read as MemDaily
    elif fmt == "native" and (path / DATASET_FILE).is_file():
        data = path / DATASET_FILE  # the file the manifest's sha256 names
    folder = data if data.is_dir() else data.parent
    graphs = folder / GRAPHS_FILE
    return AuditSource(
        path,
        fmt,
        data,
        source_manifest(data),
        graphs if fmt == "memdaily" and graphs.is_file() else None,
    )


__all__ = ["GRAPHS_FILE", "AuditSource", "Format", "open_source"]
