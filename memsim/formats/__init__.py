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

import importlib
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
    schema: Path | None = None
    """The schema file the records were made from (labels, units: graphs.json needs it)."""


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


@dataclass(frozen=True)
class Located:
    """A record and where it is in its input, for messages that point at it."""

    record: Record
    where: str
    """``dataset.jsonl:12``, ``01_simple_roles.json $[3]``..."""
    source: str
    """The file the record comes from (MemDaily's per-type files: which one)."""


def read_located(fmt: str, path: Path) -> Iterator[Located]:
    """Every record of ``path`` read as ``fmt``, with where it is. A format may say more
    than its record's index by defining ``read_located(path)``."""
    reader = FORMATS.get(fmt)
    located = getattr(reader, "read_located", None)
    if located is not None:
        yield from located(path)
        return
    for index, record in enumerate(reader.read(path)):
        yield Located(record, f"{path} record {index}", str(path))


DETECTION_ORDER = ("native", "memdaily", "longmemeval", "locomo", "hf")
"""The order formats are tried in when a path's format is not given (a dataset folder
holds native and MemDaily files; native wins)."""


def detect_format(path: str | Path, fmt: str | None = None) -> str:
    """The name of the format ``path`` holds: ``fmt`` when given (checked to be a known
    format; its reader then says what is wrong with the file), else the first format in
    :data:`DETECTION_ORDER` (then the others, by name) whose ``detect`` accepts it."""
    path = Path(path)
    if fmt is not None:
        FORMATS.get(fmt)  # unknown names raise UnknownPluginError listing the known ones
        if not path.exists():
            raise FormatError(path, "does not exist")
        return fmt
    if not path.exists():
        raise FormatError(path, "does not exist")
    if path.is_dir() and not any(path.iterdir()):
        raise FormatError(path, "empty folder")
    names = [n for n in DETECTION_ORDER if n in FORMATS]
    names += [n for n in FORMATS.names() if n not in names]
    for name in names:
        if FORMATS.get(name).detect(path):
            return name
    raise FormatError(
        path, f"holds no data of a format memsim reads ({', '.join(names)}); pass --format"
    )


_MODULES = ("native", "memdaily", "longmemeval", "locomo", "hf")
_OPTIONAL = {"longmemeval", "locomo", "hf"}
"""Format modules written on another branch: absent until it is merged."""


def _load_modules() -> None:
    for module in _MODULES:
        try:
            importlib.import_module(f"{__name__}.{module}")
        except ModuleNotFoundError as exc:
            if module not in _OPTIONAL or exc.name != f"{__name__}.{module}":
                raise


_load_modules()

__all__ = [
    "DETECTION_ORDER",
    "FORMATS",
    "ExportInfo",
    "Format",
    "FormatError",
    "Located",
    "detect_format",
    "read_located",
]
