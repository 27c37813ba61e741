"""Rows of the hf format, derived from the record types themselves.

A row is a :class:`~memsim.records.Record` with every field, nested as the types nest
(``sessions[].turns[]``, ``qa``, ``qa.provenance``). The Arrow type of each field comes from
its annotation: ``int`` -> int64, ``str`` -> string, ``bool`` -> bool, ``tuple[X, ...]`` ->
list of X, a record type -> struct, ``X | None`` -> X that may be null; anything else
(``Mapping[str, Any]``, ``Any``) is JSON text with sorted keys. So a field added to a
record type is written and read back with no change here, every row has every key, and
``datasets`` infers nothing.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from functools import cache
from pathlib import Path
from typing import Any

import orjson

from memsim.formats import FormatError
from memsim.records import SPEAKERS, Record


@dataclasses.dataclass(frozen=True)
class _Kind:
    """How one annotation is stored: ``base`` is int, str, bool, "json", "list" or a
    record type; ``item`` the kind of a list's items."""

    base: Any
    optional: bool = False
    item: _Kind | None = None


def _kind(annotation: Any) -> _Kind:
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin in (typing.Union, types.UnionType) and type(None) in args:
        rest = [a for a in args if a is not type(None)]
        inner = _kind(rest[0]) if len(rest) == 1 else _Kind("json")
        return dataclasses.replace(inner, optional=True)
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        return _Kind("list", item=_kind(args[0]))
    if annotation in (int, str, bool) or _is_record_type(annotation):
        return _Kind(annotation)
    return _Kind("json")


def _is_record_type(value: Any) -> bool:
    return isinstance(value, type) and dataclasses.is_dataclass(value)


@cache
def _fields(cls: type) -> tuple[tuple[str, _Kind], ...]:
    hints = typing.get_type_hints(cls)
    return tuple((f.name, _kind(hints[f.name])) for f in dataclasses.fields(cls))


def row_schema(pa: Any) -> Any:
    """The Arrow schema of a row (``pa`` is the pyarrow module, imported lazily)."""
    return pa.schema([(name, _arrow(pa, kind)) for name, kind in _fields(Record)])


def _arrow(pa: Any, kind: _Kind) -> Any:
    if kind.base == "list":
        assert kind.item is not None
        return pa.list_(_arrow(pa, kind.item))
    if _is_record_type(kind.base):
        return pa.struct([(n, _arrow(pa, k)) for n, k in _fields(kind.base)])
    return {int: pa.int64(), str: pa.string(), bool: pa.bool_()}.get(kind.base, pa.string())


class SharedHistory:
    """The last history converted, reused while consecutive records hold the same one
    (LoCoMo's questions share their conversation's sessions: without this, each of its
    1,986 questions would convert the whole conversation again)."""

    def __init__(self) -> None:
        self.key: Any = None
        self.value: Any = None


def row_of_record(record: Record, shared: SharedHistory | None = None) -> dict[str, Any]:
    row = {}
    for name, kind in _fields(Record):
        if name == "sessions" and shared is not None:
            if shared.key is not record.sessions:
                shared.key, shared.value = record.sessions, _to_row(record.sessions, kind)
            row[name] = shared.value
        else:
            row[name] = _to_row(getattr(record, name), kind)
    return row


def _to_row(value: Any, kind: _Kind) -> Any:
    if value is None and kind.optional:
        return None
    if kind.base == "json":
        return orjson.dumps(value, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS).decode()
    if kind.base == "list":
        assert kind.item is not None
        return [_to_row(v, kind.item) for v in value]
    if _is_record_type(kind.base):
        return {n: _to_row(getattr(value, n), k) for n, k in _fields(kind.base)}
    return value


NULLABLE = tuple(name for name, kind in _fields(Record) if kind.optional)
"""Columns that hold None where the record does; every other value is required."""


def check_schema(path: Path, found: Any, expected: Any) -> None:
    """A FormatError naming the first column missing from ``found`` or of another type."""
    for column in expected:
        if column.name not in found.names:
            raise FormatError(path, "missing", field=column.name)
        actual = found.field(column.name).type
        if actual != column.type:
            raise FormatError(path, f"must be {column.type}, not {actual}", field=column.name)


def record_from_row(path: Path, row: dict[str, Any], shared: SharedHistory | None = None) -> Record:
    """The record of a row read back with pyarrow (the file's schema was checked; nulls
    where a record holds none, JSON text and speakers are checked here). With ``shared``,
    consecutive rows with equal sessions share one tuple of them, as LoCoMo's reader gives."""
    record_id = row.get("tid")

    def build(value: Any, kind: _Kind, where: str) -> Any:
        if value is None:
            if kind.optional:
                return None
            raise FormatError(path, "missing (null)", record=record_id, field=where)
        if kind.base == "json":
            try:
                return orjson.loads(value)
            except orjson.JSONDecodeError:
                raise FormatError(path, "not JSON text", record=record_id, field=where) from None
        if kind.base == "list":
            assert kind.item is not None
            return tuple(build(v, kind.item, f"{where}[{i}]") for i, v in enumerate(value))
        if _is_record_type(kind.base):
            made = {n: build(value[n], k, f"{where}.{n}") for n, k in _fields(kind.base)}
            if made.get("speaker", SPEAKERS[0]) not in SPEAKERS:
                problem = f"{made['speaker']!r} is not user or assistant"
                raise FormatError(path, problem, record=record_id, field=f"{where}.speaker")
            return kind.base(**made)
        return value

    fields = {}
    for name, kind in _fields(Record):
        if name == "sessions" and shared is not None:
            if shared.key is None or shared.key != row[name]:
                shared.key, shared.value = row[name], build(row[name], kind, name)
            fields[name] = shared.value
        else:
            fields[name] = build(row[name], kind, name)
    return Record(**fields)
