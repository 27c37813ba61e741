"""Field access for the readers of other formats: every problem is a :class:`FormatError`
naming the file, the record (index or id) and the field, never a KeyError or TypeError."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import orjson

from memsim.formats import FormatError


def json_array_head(path: Path) -> bytes | None:
    """For format detection: the first 64 KiB of a ``.json`` file that holds a JSON
    array, or None for anything else."""
    if not path.is_file() or path.suffix != ".json":
        return None
    with path.open("rb") as fh:
        head = fh.read(1 << 16)
    return head if head.lstrip().startswith(b"[") else None


def load_json(path: Path) -> Any:
    """The JSON value of ``path``; a missing file or invalid JSON is a FormatError."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise FormatError(path, f"cannot be read: {exc.strerror or exc}") from None
    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        raise FormatError(path, f"not valid JSON: {exc}") from None


def write_json(path: Path, value: Any) -> None:
    """Two-space JSON in the key order built (LoCoMo harnesses iterate the keys of a
    conversation, so they must not be sorted), UTF-8, trailing newline."""
    path.write_bytes(orjson.dumps(value, option=orjson.OPT_INDENT_2) + b"\n")


def write_json_array(path: Path, items: Iterable[Any]) -> None:
    """The bytes :func:`write_json` writes for a list of ``items``, written one item at a
    time (a history export holds one conversation in memory, not all of them)."""
    with path.open("wb") as fh:
        n = 0
        for item in items:
            body = orjson.dumps(item, option=orjson.OPT_INDENT_2)
            fh.write((b",\n" if n else b"[\n") + b"  " + body.replace(b"\n", b"\n  "))
            n += 1
        fh.write(b"\n]\n" if n else b"[]\n")


class Fields:
    """Typed reads inside one record of one file."""

    def __init__(self, path: Path, record: str | int) -> None:
        self.path = path
        self.record = record

    def error(self, field: str, problem: str) -> FormatError:
        return FormatError(self.path, problem, record=self.record, field=field)

    def get(self, obj: dict[str, Any], key: str, where: str = "") -> Any:
        if key not in obj:
            raise self.error(f"{where}.{key}" if where else key, "missing")
        return obj[key]

    def as_obj(self, value: Any, field: str) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.error(field, f"must be an object, not {_kind(value)}")
        return value

    def as_list(self, value: Any, field: str) -> list[Any]:
        if not isinstance(value, list):
            raise self.error(field, f"must be a list, not {_kind(value)}")
        return value

    def as_str(self, value: Any, field: str) -> str:
        if not isinstance(value, str):
            raise self.error(field, f"must be a string, not {_kind(value)}")
        return value

    def as_bool(self, value: Any, field: str) -> bool:
        if not isinstance(value, bool):
            raise self.error(field, f"must be true or false, not {_kind(value)}")
        return value

    def as_int(self, value: Any, field: str) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.error(field, f"must be an integer, not {_kind(value)}")
        return value

    def answer(self, value: Any, field: str) -> str:
        """An answer: real files hold numbers (LoCoMo's ``2022``, LongMemEval's counts)."""
        if isinstance(value, bool) or not isinstance(value, str | int | float):
            raise self.error(field, f"must be a string or a number, not {_kind(value)}")
        return value if isinstance(value, str) else str(value)

    def date(self, value: Any, field: str, parse: Callable[[str], str]) -> str:
        """``parse(text)`` (one of :mod:`memsim.formats._dates`' readers) as a FormatError."""
        try:
            result: str = parse(self.as_str(value, field))
        except ValueError as exc:
            raise self.error(field, str(exc)) from None
        return result


def _kind(value: Any) -> str:
    return "null" if value is None else type(value).__name__


class UniqueIds:
    """Ids unique within one written file: a repeated id gets ``-2``, ``-3``... (records
    read from MemDaily's per-type files repeat their tids), in the order records come."""

    def __init__(self) -> None:
        self._seen: set[str] = set()

    def make(self, base: str, suffix: str = "") -> str:
        """``base + suffix``, or ``base-<n> + suffix`` for the first n that is new."""
        candidate, n = base, 1
        while candidate + suffix in self._seen:
            n += 1
            candidate = f"{base}-{n}"
        self._seen.add(candidate + suffix)
        return candidate + suffix
