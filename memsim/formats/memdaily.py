"""The ``memdaily`` format: MemDaily's merged ``memdaily.json`` (and, read only, its
per-type files), plus its ground truth ``graphs.json``.

Reading: the released data or anyone's files in its layout (see
:mod:`memsim.formats._memdaily_read`); each trajectory becomes a one-session
:class:`Record` of user turns, failed generations kept and flagged (MemDaily's
``[ERRORQ]``...: ``Record.flags``). Writing: ``memdaily.json`` streamed in plan order
(``{type: {scenario: [{tid, message_list, QA}]}}``, ``tid`` numbered within its type
and scenario, times in the locale's message-time form) and, when the profiles are
given, ``graphs.json`` (:mod:`memsim.formats._graphs`): one profile per trajectory, in
file order, in MemDaily's layout, so that the audit re-derives answers from the folder
alone.
"""

from __future__ import annotations

import datetime as dt
import io
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import IO, Any

import orjson

from memsim._io import GRAPHS_FILE, MEMDAILY_FILE, atomic_write_bytes
from memsim.formats import FORMATS, ExportInfo, Located
from memsim.formats._memdaily_read import (
    FLAGS,
    KNOWN_TYPES,
    SCENARIOS,
    TYPES,
    MemDailyFormatError,
    MemDailyItem,
    drop_flagged,
    per_type_name,
    read_memdaily,
)
from memsim.records import QA, USER, Record, Session, Turn
from memsim.verbalize import LocaleData, load_locale, render_message_time


def item_record(item: MemDailyItem) -> Record:
    """A MemDaily trajectory as a record: one session of user turns. A failed item keeps
    what it holds (no options when its choices are a marker, "" for a null answer)."""
    turns = tuple(Turn(m["mid"], USER, m["message"], m["time"], m["place"]) for m in item.messages)
    qa = item.qa
    choices = qa["choices"]
    options = tuple(choices.values()) if isinstance(choices, dict) else ()
    return Record(
        tid=item.tid,
        type=item.type,
        scenario=item.scenario,
        sessions=(Session("s0", turns[0].time if turns else qa["time"], turns),),
        qa=QA(
            question=qa["question"],
            answer=qa["answer"] or "",
            options=options,
            gold=qa["ground_truth"] if options else None,
            evidence=tuple(qa["target_step_id"]),
            time=qa["time"],
            qid=qa.get("qid", 0),
        ),
        flags=item.flags,
    )


def located(items: Iterable[MemDailyItem]) -> Iterator[Located]:
    """Records with where each is: ``01_simple_roles.json $[3]`` or
    ``memdaily.json $.simple.roles[3]``."""
    position: Counter[str] = Counter()
    for item in items:
        name = Path(item.source).name
        key = f"{name}:{item.type}/{item.scenario}"
        at = position[key]
        position[key] += 1
        per_type = per_type_name(name) is not None
        where = f"{name} $[{at}]" if per_type else f"{name} $.{item.type}.{item.scenario}[{at}]"
        yield Located(item_record(item), where, item.source)


def _time_renderer(locale: str | None) -> Callable[[str], str]:
    """ISO times in the locale's message-time form; a time that is not ISO (read from
    MemDaily or another format) is kept as it is."""
    loc: LocaleData = load_locale(locale or "en")

    def when(text: str) -> str:
        try:
            return render_message_time(dt.datetime.fromisoformat(text), loc)
        except ValueError:
            return text

    return when


def memdaily_entry(record: Record, tid: int, when: Callable[[str], str]) -> dict[str, Any]:
    """One record as a MemDaily trajectory: no provenance, purposes or fact ids; times
    rendered by ``when``; ``tid`` numbered within its type and scenario."""
    qa = record.qa
    return {
        "tid": tid,
        "message_list": [
            {"mid": t.id, "message": t.text, "time": when(t.time), "place": t.place}
            for t in record.turns
        ],
        "QA": {
            "qid": qa.qid,
            "question": qa.question,
            "answer": qa.answer,
            "target_step_id": list(qa.evidence),
            "choices": qa.choices,
            "ground_truth": qa.gold,
            "time": when(qa.time),
        },
    }


class MemDailyStream:
    """Writes ``{type: {scenario: [...]}}`` incrementally from records that arrive
    grouped by type, then scenario (the generator's plan order): memory stays flat."""

    def __init__(self, out: IO[bytes], when: Callable[[str], str]):
        self.out = out
        self.when = when
        self.type: str | None = None
        self.scenario: str | None = None
        self.tid = 0
        self.seen: set[tuple[str, str]] = set()
        out.write(b"{")

    def add(self, record: Record) -> None:
        kind, scenario = record.type, record.scenario
        if (kind, scenario) != (self.type, self.scenario):
            if (kind, scenario) in self.seen or (
                kind != self.type and any(k == kind for k, _ in self.seen)
            ):
                raise ValueError(f"records of {kind}/{scenario} are not contiguous")
            self._open(kind, scenario)
        else:
            self.out.write(b",")
        self.out.write(b"\n      " + orjson.dumps(memdaily_entry(record, self.tid, self.when)))
        self.tid += 1

    def _open(self, kind: str, scenario: str) -> None:
        if kind != self.type:
            if self.type is not None:
                self.out.write(b"\n    ]\n  },")
            self.out.write(b"\n  " + orjson.dumps(kind) + b": {")
        else:
            self.out.write(b"\n    ],")
        self.out.write(b"\n    " + orjson.dumps(scenario) + b": [")
        self.type, self.scenario, self.tid = kind, scenario, 0
        self.seen.add((kind, scenario))

    def close(self) -> None:
        if self.type is not None:
            self.out.write(b"\n    ]\n  }")
        self.out.write(b"\n}\n")


def grouped(records: Iterable[Record]) -> list[Record]:
    """Records grouped by type, then scenario, in the order each is first met."""
    groups: dict[str, dict[str, list[Record]]] = {}
    for record in records:
        groups.setdefault(record.type, {}).setdefault(record.scenario, []).append(record)
    return [r for scenarios in groups.values() for members in scenarios.values() for r in members]


def write_memdaily(records: Iterable[Record], path: str | Path, locale: str | None) -> None:
    """Write ``records`` in the merged MemDaily form to ``path`` atomically (grouped by
    type, then scenario, in the order first met; the same records give the same bytes)."""
    buffer = io.BytesIO()
    stream = MemDailyStream(buffer, _time_renderer(locale))
    for record in grouped(records):
        stream.add(record)
    stream.close()
    atomic_write_bytes(path, buffer.getvalue())


class MemDaily:
    name = "memdaily"
    summary = "MemDaily (MemSim): merged memdaily.json or per-type files, with graphs.json"
    holds = (
        "one session of user messages (id, text, time, place) per question; the question "
        "with 4 options, gold letter, open answer and evidence message ids; graphs.json: "
        "the profiles in MemDaily's layout"
    )
    cannot = (
        "provenance, fact ids, message purposes, assistant turns or several sessions; "
        "kinds other than MemDaily's six"
    )

    def detect(self, path: Path) -> bool:
        if path.is_dir():
            return (path / MEMDAILY_FILE).is_file() or any(
                per_type_name(f.name) for f in path.iterdir()
            )
        if per_type_name(path.name) is not None or path.name == MEMDAILY_FILE:
            return True
        if path.suffix != ".json":
            return False
        with open(path, "rb") as f:
            return f.read(64).lstrip()[:1] == b"{"

    def read(self, path: Path) -> Iterator[Record]:
        return (x.record for x in self.read_located(path))

    def read_located(self, path: Path) -> Iterator[Located]:
        return located(read_memdaily(path))

    def write(self, records: Iterable[Record], out: Path, info: ExportInfo) -> list[str]:
        """Stream ``records`` (grouped by type, then scenario, as generated) into
        ``memdaily.json`` and, with ``info.profiles``, ``graphs.json``."""
        locale = info.locale or info.manifest.get("schema", {}).get("locale")
        graphs = None
        if info.profiles is not None:
            from memsim.formats._graphs import GraphWriter

            graphs = GraphWriter(info)
        with ExitStack() as files:
            stream = MemDailyStream(
                files.enter_context(open(out / MEMDAILY_FILE, "wb")), _time_renderer(locale)
            )
            sink = files.enter_context(open(out / GRAPHS_FILE, "wb")) if graphs else None
            for record in records:
                stream.add(record)
                if graphs is not None and sink is not None:
                    graphs.add(record, sink)
            stream.close()
            if graphs is not None and sink is not None:
                graphs.close(sink)
        return [MEMDAILY_FILE, GRAPHS_FILE] if graphs else [MEMDAILY_FILE]


FORMATS.register("memdaily")(MemDaily())

__all__ = [
    "FLAGS",
    "KNOWN_TYPES",
    "SCENARIOS",
    "TYPES",
    "MemDaily",
    "MemDailyFormatError",
    "MemDailyItem",
    "MemDailyStream",
    "drop_flagged",
    "grouped",
    "item_record",
    "memdaily_entry",
    "read_memdaily",
    "write_memdaily",
]
