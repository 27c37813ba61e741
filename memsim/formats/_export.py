"""``memsim export``: any dataset memsim reads, written in any registered format, into
an output folder that appears whole or not at all, with a manifest.

Guarantees: the records are streamed from the reader to the writer (memory stays flat
when both stream); the folder holds the writer's files and ``manifest.json`` (kind
``export``: the format, the source's format and manifest, the files, the record count,
and for MemDaily with ``graphs.json`` how its entries map onto trajectories); the same
input gives the same bytes. A native history dataset (``memsim generate
--history-tokens``) is read with its filler sessions expanded from ``sessions.jsonl``,
so every format gets each question's whole history.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from memsim import __version__
from memsim._io import GRAPHS_FILE, MANIFEST, atomic_output_dir, dumps
from memsim.formats import FORMATS, ExportInfo, FormatError, detect_format
from memsim.formats._store import has_store, read_histories

EXPORT_KIND = "export"


@dataclass(frozen=True)
class ExportResult:
    format: str
    source_format: str
    files: tuple[str, ...]
    records: int


def source_manifest(path: Path) -> dict[str, Any]:
    """The manifest memsim wrote beside the data (a dataset or an export), or {}."""
    folder = path if path.is_dir() else path.parent
    file = folder / MANIFEST
    if not file.is_file():
        return {}
    try:
        data = orjson.loads(file.read_bytes())
    except orjson.JSONDecodeError as exc:
        raise FormatError(file, f"not valid JSON: {exc}") from None
    ok = isinstance(data, dict) and data.get("kind") in ("dataset", EXPORT_KIND)
    return data if ok else {}


def export_dataset(
    source: str | Path,
    to: str,
    out: str | Path,
    source_format: str | None = None,
    profiles: Path | None = None,
    schema: Path | None = None,
) -> ExportResult:
    """Write the records of ``source`` (format detected unless given) as ``to`` into ``out``."""
    source = Path(source)
    writer = FORMATS.get(to)
    fmt = detect_format(source, source_format)
    manifest = source_manifest(source)
    info = ExportInfo(
        title=f"memsim dataset ({manifest.get('schema', {}).get('name', source.name)})",
        locale=manifest.get("schema", {}).get("locale"),
        manifest=manifest,
        profiles=profiles,
        schema=schema,
    )
    counter = _Counter()
    records: Iterable[Any] = FORMATS.get(fmt).read(source)
    if fmt == "native" and has_store(source):
        records = read_histories(source)  # filler sessions expanded from sessions.jsonl
    with atomic_output_dir(out, EXPORT_KIND) as stage:
        files = writer.write(counter.count(records), stage, info)
        made: dict[str, Any] = {
            "kind": EXPORT_KIND,
            "format": to,
            "memsim_version": __version__,
            "source": {"format": fmt, "manifest": manifest},
            "schema": manifest.get("schema", {}),
            "files": files,
            "counts": {"records": counter.n},
        }
        if GRAPHS_FILE in files:
            from memsim.formats._graphs import GRAPHS_BY_POSITION

            made["graphs_by"] = GRAPHS_BY_POSITION
        (stage / MANIFEST).write_bytes(dumps(made))
    return ExportResult(to, fmt, tuple(files), counter.n)


class _Counter:
    def __init__(self) -> None:
        self.n = 0

    def count(self, records: Iterable[Any]) -> Iterator[Any]:
        for record in records:
            self.n += 1
            yield record


__all__ = ["EXPORT_KIND", "ExportResult", "export_dataset", "source_manifest"]
