"""The native format's session store: multi-session histories read back whole.

A history dataset holds ``dataset.jsonl`` (one record per question: its own sessions
inline, ``history.sessions`` listing every session of the history in order with its
start) and ``sessions.jsonl`` (each filler session once, turns with minute offsets).
:func:`expand` turns a record into the full history any reader or format can take.

Guarantees: the store is indexed by byte offset (memory: one integer per session, not
the texts); an expanded filler session's turns keep their text, speaker, purpose and
qualified fact ids, take the time ``start + offset`` and ids that follow the record's
own turn ids; a record without ``history`` is returned as it is.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import orjson

from memsim.records import Record, Session, Turn, record_from_json


class SessionStore:
    """``sessions.jsonl`` opened for random access by session id."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._offsets: dict[str, int] = {}
        self._file: IO[bytes] = open(path, "rb")  # noqa: SIM115  (closed by close())
        offset = 0
        for line in self._file:
            start = line.find(b'"id":"') + 6
            self._offsets[line[start : line.find(b'"', start)].decode()] = offset
            offset += len(line)

    def __len__(self) -> int:
        return len(self._offsets)

    def __contains__(self, sid: object) -> bool:
        return sid in self._offsets

    def ids(self) -> Iterator[str]:
        return iter(self._offsets)

    def get(self, sid: str) -> dict[str, Any]:
        try:
            offset = self._offsets[sid]
        except KeyError:
            raise KeyError(f"{self.path}: no session {sid!r}") from None
        self._file.seek(offset)
        data: dict[str, Any] = orjson.loads(self._file.readline())
        return data

    def close(self) -> None:
        self._file.close()

    def __enter__(self) -> SessionStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def stored_session(data: dict[str, Any], start: str, first_id: int) -> Session:
    """A store line as a session starting at ``start``; turn ids from ``first_id``."""
    begin = dt.datetime.fromisoformat(start)
    turns = tuple(
        Turn(
            id=first_id + k,
            speaker=t["speaker"],
            text=t["text"],
            time=(begin + dt.timedelta(minutes=t["offset"])).isoformat(timespec="minutes"),
            place=t["place"],
            purpose=t["purpose"],
            facts=tuple(t["facts"]),
        )
        for k, t in enumerate(data["turns"])
    )
    return Session(data["id"], start, turns, data.get("topic", ""))


def expand(record: Record, store: SessionStore) -> Record:
    """The record with every session of its history, in order."""
    history = record.extra.get("history")
    if not isinstance(history, dict):
        return record
    own = {s.id: s for s in record.sessions}
    next_id = 1 + max((t.id for _, t in record.iter_turns()), default=-1)
    sessions = []
    for ref in history["sessions"]:
        session = own.get(ref["id"])
        if session is None:
            session = stored_session(store.get(ref["id"]), ref["start"], next_id)
            next_id += len(session.turns)
        sessions.append(session)
    return Record(
        tid=record.tid,
        type=record.type,
        scenario=record.scenario,
        sessions=tuple(sessions),
        qa=record.qa,
        profile_id=record.profile_id,
        locale=record.locale,
        flags=record.flags,
        extra=record.extra,
    )


STORE_FILE = "sessions.jsonl"


def has_store(path: Path) -> bool:
    """Whether ``path`` (a dataset folder or its ``dataset.jsonl``) is a history dataset."""
    folder = path if path.is_dir() else path.parent
    return (folder / STORE_FILE).is_file()


def read_histories(folder: Path, expanded: bool = True) -> Iterator[Record]:
    """Every record of a history dataset folder, streamed (expanded by default); the
    native reader of a history dataset when exported (memsim export)."""
    folder = folder if folder.is_dir() else folder.parent
    store_path = folder / STORE_FILE
    store = SessionStore(store_path) if expanded and store_path.is_file() else None
    try:
        with open(folder / "dataset.jsonl", "rb") as lines:
            for line in lines:
                record = record_from_json(orjson.loads(line))
                yield expand(record, store) if store is not None else record
    finally:
        if store is not None:
            store.close()
