"""What the audit reads: our dataset folders (``dataset.jsonl`` with provenance, read
line by line so memory stays flat) or MemDaily-format data made by anyone (a merged
``memdaily.json`` or a folder of per-type ``NN_type_scenario.json`` files).

Guarantees: the format is detected from the path when not given, and an input that is
neither gets an :class:`AuditInputError` naming the path (and the line, for a broken
record); native records keep everything they hold (roles, fact ids, provenance).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import orjson

from memsim.audit._types import AuditInputError, AuditItem
from memsim.dataset import MemDailyFormatError, read_memdaily

Format = Literal["native", "memdaily"]
NATIVE_FILE = "dataset.jsonl"
MERGED_FILE = "memdaily.json"
GRAPHS_FILE = "graphs.json"
_QA_KEYS = ("question", "answer", "choices", "ground_truth", "target_step_id", "time")


@dataclass(frozen=True)
class AuditSource:
    """An input of the audit; :meth:`items` streams it (each call starts again)."""

    path: Path
    format: Format
    data_file: Path | None
    """dataset.jsonl (native) or the MemDaily file or folder that is read."""
    manifest: dict[str, Any] = field(default_factory=dict)
    """The dataset manifest when memsim wrote the data ({} otherwise)."""
    graphs: Path | None = None
    """MemDaily's graphs.json found beside the files, if any."""

    @property
    def own(self) -> bool:
        """Whether memsim made this data (its shortcuts are then errors, not reports)."""
        return self.format == "native" or self.manifest.get("kind") == "dataset"

    def items(self) -> Iterator[AuditItem]:
        if self.format == "native":
            assert self.data_file is not None
            return _native_items(self.data_file)
        return _memdaily_items(self.data_file or self.path)


def open_source(path: str | Path, fmt: Format | None = None) -> AuditSource:
    """Detect what ``path`` holds (or check it holds ``fmt``)."""
    path = Path(path)
    if not path.exists():
        raise AuditInputError(f"{path}: does not exist")
    if fmt not in (None, "native", "memdaily"):
        raise AuditInputError(f"unknown format {fmt!r} (native or memdaily)")
    native = path / NATIVE_FILE if path.is_dir() else path
    if fmt == "native" or (fmt is None and native.suffix == ".jsonl" and native.is_file()):
        if not native.is_file() or native.suffix != ".jsonl":
            raise AuditInputError(f"{path}: no {NATIVE_FILE}; is this a memsim dataset folder?")
        return AuditSource(path, "native", native, _manifest(native.parent))
    if path.is_dir() and not any(path.iterdir()):
        raise AuditInputError(f"{path}: empty folder")
    data: Path = path
    if path.is_dir() and (path / MERGED_FILE).is_file() and (path / NATIVE_FILE).is_file():
        data = path / MERGED_FILE  # our own folder read as MemDaily
    folder = data if data.is_dir() else data.parent
    graphs = folder / GRAPHS_FILE
    return AuditSource(
        path, "memdaily", data, _manifest(folder), graphs if graphs.is_file() else None
    )


def _manifest(folder: Path) -> dict[str, Any]:
    file = folder / "manifest.json"
    if not file.is_file():
        return {}
    try:
        data = orjson.loads(file.read_bytes())
    except orjson.JSONDecodeError as exc:
        raise AuditInputError(f"{file}: not valid JSON: {exc}") from None
    return data if isinstance(data, dict) and data.get("kind") == "dataset" else {}


def _native_items(file: Path) -> Iterator[AuditItem]:
    with open(file, "rb") as lines:
        index = 0
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            where = f"{file}:{number}"
            try:
                record = orjson.loads(line)
            except orjson.JSONDecodeError as exc:
                raise AuditInputError(f"{where}: not valid JSON: {exc}") from None
            yield _native_item(record, index, where, str(file))
            index += 1


def _native_item(record: Any, index: int, where: str, source: str) -> AuditItem:
    if not isinstance(record, dict):
        raise AuditInputError(f"{where}: a record must be a JSON object")
    missing = [k for k in ("type", "scenario", "tid", "message_list", "QA") if k not in record]
    qa = record.get("QA")
    if isinstance(qa, dict):
        missing += [f"QA.{k}" for k in _QA_KEYS if k not in qa]
    elif "QA" not in missing:
        missing.append("QA (an object)")
    messages = record.get("message_list")
    if not isinstance(messages, list):
        messages = None
    if messages is None or not all(
        isinstance(m, dict) and {"mid", "message", "time"} <= m.keys() for m in messages
    ):
        missing.append("message_list (objects with mid, message, time)")
    if missing:
        raise AuditInputError(f"{where}: not a memsim record: missing {', '.join(missing)}")
    wrong = _wrong_types(record, messages or [])
    if wrong:
        raise AuditInputError(f"{where}: not a memsim record: {'; '.join(wrong[:3])}")
    return AuditItem(
        index=index,
        type=str(record["type"]),
        scenario=str(record["scenario"]),
        tid=int(record["tid"]),
        messages=tuple(messages or ()),
        qa=qa,  # type: ignore[arg-type]
        where=where,
        profile_id=record.get("profile_id"),
        locale=record.get("locale"),
        source=source,
    )


_TYPES: dict[str, tuple[type, ...]] = {"tid": (int,), "type": (str,), "scenario": (str,)}
_MESSAGE_TYPES: dict[str, tuple[type, ...]] = {
    "mid": (int,),
    "message": (str,),
    "time": (str,),
    "facts": (list,),
    "place": (str,),
}
_QA_TYPES: dict[str, tuple[type, ...]] = {
    "question": (str,),
    "choices": (dict,),
    "ground_truth": (str,),
    "target_step_id": (list,),
    "time": (str,),
    "provenance": (dict,),
}


def _wrong_types(record: dict[str, Any], messages: list[dict[str, Any]]) -> list[str]:
    """The fields of a native record that hold a value of the wrong JSON type (checks
    may then trust the types: a finding, never a crash, for wrong values)."""

    def bad(data: dict[str, Any], types: dict[str, tuple[type, ...]], prefix: str) -> list[str]:
        return [
            f"{prefix}{key} is {type(data[key]).__name__}, not {types[key][0].__name__}"
            for key in types
            if key in data
            and (not isinstance(data[key], types[key]) or isinstance(data[key], bool))
        ]

    out = bad(record, _TYPES, "")
    out += bad(record["QA"], _QA_TYPES, "QA.")
    for i, m in enumerate(messages):
        out += bad(m, _MESSAGE_TYPES, f"message_list[{i}].")
        facts = m.get("facts", [])
        if isinstance(facts, list) and not all(isinstance(f, str) for f in facts):
            out.append(f"message_list[{i}].facts holds a non-string")
    if "profile_id" in record and not isinstance(record["profile_id"], str | None):
        out.append("profile_id is not a string")
    return out


def _memdaily_items(path: Path) -> Iterator[AuditItem]:
    try:
        items = read_memdaily(path)
    except MemDailyFormatError as exc:
        raise AuditInputError(str(exc)) from None
    position: Counter[str] = Counter()
    for index, item in enumerate(items):
        name = Path(item.source).name
        key = f"{name}:{item.type}/{item.scenario}"
        at = position[key]
        position[key] += 1
        where = (
            f"{name} $[{at}]"
            if item.source.endswith(f"_{item.scenario}.json")
            else (f"{name} $.{item.type}.{item.scenario}[{at}]")
        )
        yield AuditItem(
            index=index,
            type=item.type,
            scenario=item.scenario,
            tid=item.tid,
            messages=item.messages,
            qa=item.qa,
            where=where,
            flags=item.flags,
            source=item.source,
        )


__all__ = ["GRAPHS_FILE", "AuditSource", "Format", "open_source"]
