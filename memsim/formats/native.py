"""memsim's own format: ``dataset.jsonl``, one record per line (format version 2, reads 1).

The one reader of ``dataset.jsonl`` (the data card, the audit and the bench all read
through it) and its writer. Both stream: memory stays flat whatever the file's size.

Guarantees: ``read(write(records)) == records``; a line that is not JSON, or a record
missing a field or holding one of the wrong type, raises :class:`FormatError` naming
the file, the line and the field.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO

import orjson

from memsim._io import DATASET_FILE
from memsim.formats import FORMATS, ExportInfo, FormatError, Located
from memsim.records import Record, RecordError, record_from_json, record_to_json


def record_line(record: Record) -> bytes:
    """One line of ``dataset.jsonl`` (the same record gives the same bytes)."""
    return orjson.dumps(record_to_json(record)) + b"\n"


def data_file(path: Path) -> Path:
    """The ``dataset.jsonl`` of a dataset folder, or the file itself."""
    return path / DATASET_FILE if path.is_dir() else path


def read_located(path: Path) -> Iterator[Located]:
    """Every record of a ``dataset.jsonl`` (or a folder holding one) with its line."""
    file = data_file(path)
    if path.is_dir() and not file.is_file():
        raise FormatError(path, f"no {DATASET_FILE}; is this a memsim dataset folder?")
    try:
        lines: IO[bytes] = open(file, "rb")  # noqa: SIM115  (closed by the with below)
    except OSError as exc:
        raise FormatError(file, f"cannot read: {exc.strerror or exc}") from None
    with lines:
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            try:
                record = record_from_json(orjson.loads(line))
            except orjson.JSONDecodeError as exc:  # the record is named by its line
                raise FormatError(f"{file}:{number}", f"not valid JSON: {exc.msg}") from None
            except RecordError as exc:
                raise FormatError(f"{file}:{number}", exc.problem, None, exc.field) from None
            yield Located(record, f"{file}:{number}", str(file))


class Native:
    name = "native"
    summary = "memsim's own JSONL (dataset.jsonl): one record per line, with provenance"
    holds = (
        "everything: sessions and turns (speaker, time, place, purpose, fact ids, "
        "verbalizer), the question with options, gold letter, open answer and provenance"
    )
    cannot = "nothing is lost (the other formats are derived from it)"

    def detect(self, path: Path) -> bool:
        file = data_file(path)
        return file.is_file() and file.suffix == ".jsonl"

    def read(self, path: Path) -> Iterator[Record]:
        return (located.record for located in read_located(path))

    def read_located(self, path: Path) -> Iterator[Located]:
        return read_located(path)

    def write(self, records: Iterable[Record], out: Path, info: ExportInfo) -> list[str]:
        with open(out / DATASET_FILE, "wb") as lines:
            for record in records:
                lines.write(record_line(record))
        return [DATASET_FILE]


FORMATS.register("native")(Native())


__all__ = ["Native", "data_file", "read_located", "record_line"]
