"""One registry of dataset formats: each format is one module with a reader and a
writer of :mod:`memsim.records` types (pgmpy's readwrite, one pair per format).

A format registers an object satisfying :class:`Format` under its short name
(``native``, ``memdaily``, ``longmemeval``, ``locomo``, ``hf``); ``memsim ls formats``
lists them, and audit, bench and the CLI take their choices and the detection of a
file's format from :data:`FORMATS` and :func:`detect_format`.

Guarantees: a reader raises :class:`FormatError` naming the file, the record (index or
id) and the field for a missing or wrongly typed field, an unknown type or category;
never a KeyError or TypeError. A writer writes into a folder it is given (the caller
makes that folder atomic) and returns the names of the files it wrote.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from memsim._registry import Registry, registry
from memsim.records import Record


class FormatError(ValueError):
    """A file of a known format is not shaped as that format says: exit 2."""

    def __init__(
        self,
        path: str | Path,
        problem: str,
        record: str | int | None = None,
        field: str | None = None,
    ) -> None:
        self.path = str(path)
        self.record = record
        self.field = field
        self.problem = problem
        where = [self.path]
        if record is not None:
            where.append(f"record {record}")
        if field:
            where.append(field)
        super().__init__(": ".join([*where, problem]))


@dataclass(frozen=True)
class ExportInfo:
    """What a writer may need beyond the records."""

    title: str = "memsim dataset"
    locale: str | None = None
    manifest: Mapping[str, Any] = field(default_factory=dict)
    """The native dataset's manifest (seed, schema, options, counts)."""
    profiles: Path | None = None
    """The profiles folder the records were made from (MemDaily's graphs.json needs it)."""


class Format(Protocol):
    name: str
    summary: str
    """One line for ``memsim ls formats``."""
    holds: str
    cannot: str
    """What the format cannot hold (README's table of formats)."""

    def detect(self, path: Path) -> bool:
        """Whether ``path`` (a file or folder) holds data of this format."""
        ...

    def read(self, path: Path) -> Iterator[Record]:
        """Every record of ``path``, streamed where the format allows."""
        ...

    def write(self, records: Iterable[Record], out: Path, info: ExportInfo) -> list[str]:
        """Write ``records`` into the folder ``out``; return the file names written."""
        ...


FORMATS: Registry[Format] = registry("format")


__all__ = ["FORMATS", "ExportInfo", "Format", "FormatError"]
