"""LongMemEval (``longmemeval.json``): the fields its evaluation and retrieval scripts read.

A JSON array, one instance per question::

    {"question_id", "question_type", "question", "answer", "question_date",
     "haystack_session_ids", "haystack_dates", "haystack_sessions", "answer_session_ids"}

``haystack_sessions`` are lists of ``{"role", "content", "has_answer"}``. Dates are written
``2023/05/30 (Tue) 23:40``. The retrieval scorer finds gold sessions by the ``answer_``
prefix of their ids and gold turns by ``has_answer``.

How our kinds map onto LongMemEval's six types (first rule that applies):

========================================  ==============================================
record                                    question_type
========================================  ==============================================
type already one of the six (read here)   kept
knowledge_update                          knowledge-update
temporal                                  temporal-reasoning
assistant_said                            single-session-assistant
evidence in more than one session         multi-session
an evidence turn said by the assistant    single-session-assistant
anything else (simple, conditional,       single-session-user
noisy, post_processing, comparative and
aggregative with one evidence session)
========================================  ==============================================

A session whose id already begins with ``answer_`` (read from LongMemEval) stays an
answer session. An abstention (type ``abstention`` or ``unanswerable``, or
``extra["abstention"]`` from a read file) keeps the type the rules give and its
``question_id`` ends in ``_abs``.

Sessions are dated, turns are not: a session whose turns fall on several days (today's
native one-session histories span two or three) is written as one session per day
(``<id>``, ``<id>.2``...: :func:`~memsim.formats._dates.sessions_by_day`), so that a turn's
date is its own day and a relative date it says resolves as before; the rules above count
those sessions.

What the format cannot hold: options and the gold letter (the open answer is written),
turn times (a turn takes its session's date), places, fact ids, purposes other than
evidence, provenance. The reader gives ``QA.options == ()``, ``gold is None``, turns
numbered from 0 across the haystack, ``purpose="evidence"`` on ``has_answer`` turns,
the record's ``type`` set to the question_type, and ``extra`` holding ``question_id``
(and ``abstention: true`` for an ``_abs`` id; ``missing_answer_sessions`` for
answer_session_ids not in the haystack).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import orjson

from memsim.formats import FORMATS, ExportInfo, FormatError
from memsim.formats._dates import from_longmemeval, sessions_by_day, to_longmemeval
from memsim.formats._fields import Fields, UniqueIds, json_array_head, load_json
from memsim.records import ASSISTANT, QA, SPEAKERS, Record, Session, Turn

FILE = "longmemeval.json"
QUESTION_TYPES = (
    "single-session-user", "single-session-assistant", "single-session-preference",
    "multi-session", "knowledge-update", "temporal-reasoning",
)  # fmt: skip
KIND_TYPES = {
    "knowledge_update": "knowledge-update",
    "temporal": "temporal-reasoning",
    "assistant_said": "single-session-assistant",
}
ABSTENTION_SUFFIX = "_abs"
ANSWER_PREFIX = "answer_"


def question_type(record: Record) -> str:
    """LongMemEval's question_type of a record (the table in the module docstring)."""
    if record.type in QUESTION_TYPES:
        return record.type
    if record.type in KIND_TYPES:
        return KIND_TYPES[record.type]
    evidence = set(record.qa.evidence)
    days = sessions_by_day(record.sessions)
    if sum(any(t.id in evidence for t in s.turns) for s in days) > 1:
        return "multi-session"
    if any(t.speaker == ASSISTANT for t in record.turns if t.id in evidence):
        return "single-session-assistant"
    return "single-session-user"


def is_abstention(record: Record) -> bool:
    return record.type in ("abstention", "unanswerable") or record.extra.get("abstention") is True


def to_instance(record: Record, ids: UniqueIds | None = None) -> dict[str, Any]:
    """The LongMemEval instance of one record (raises ValueError on a time no reader
    knows). ``question_id`` is the one read (``extra``) or the tid, made unique by ``ids``."""
    evidence = set(record.qa.evidence)
    read = record.extra.get("question_id")
    base = read if isinstance(read, str) else str(record.tid)
    suffix = ABSTENTION_SUFFIX if is_abstention(record) else ""
    base = base.removesuffix(ABSTENTION_SUFFIX)
    qid = (ids or UniqueIds()).make(base, suffix)
    sessions = sessions_by_day(record.sessions)
    session_ids, answer_ids = [], []
    for session in sessions:
        gold = session.id.startswith(ANSWER_PREFIX) or any(t.id in evidence for t in session.turns)
        sid = session.id
        if gold and not sid.startswith(ANSWER_PREFIX):
            sid = ANSWER_PREFIX + sid
        session_ids.append(sid)
        if gold:
            answer_ids.append(sid)
    return {
        "question_id": qid,
        "question_type": question_type(record),
        "question": record.qa.question,
        "answer": record.qa.answer,
        "question_date": to_longmemeval(record.qa.time),
        "haystack_session_ids": session_ids,
        "haystack_dates": [to_longmemeval(s.start) for s in sessions],
        "haystack_sessions": [[_turn(t, t.id in evidence) for t in s.turns] for s in sessions],
        "answer_session_ids": answer_ids,
    }


def _turn(turn: Turn, gold: bool) -> dict[str, Any]:
    return {"role": turn.speaker, "content": turn.text, "has_answer": gold}


def from_instance(path: Path, index: int, item: Any) -> Record:
    """The record of the ``index``-th instance of ``path``."""
    record_name: str | int = index
    if isinstance(item, dict) and isinstance(item.get("question_id"), str):
        record_name = item["question_id"]
    f = Fields(path, record_name)
    obj = f.as_obj(item, "instance")
    qid = f.as_str(f.get(obj, "question_id"), "question_id")
    qtype = f.as_str(f.get(obj, "question_type"), "question_type")
    if qtype not in QUESTION_TYPES:
        raise f.error("question_type", f"{qtype!r} is not one of {', '.join(QUESTION_TYPES)}")
    ids = f.as_list(f.get(obj, "haystack_session_ids"), "haystack_session_ids")
    dates = f.as_list(f.get(obj, "haystack_dates"), "haystack_dates")
    haystack = f.as_list(f.get(obj, "haystack_sessions"), "haystack_sessions")
    if not len(ids) == len(dates) == len(haystack):
        raise f.error(
            "haystack_sessions",
            f"{len(haystack)} sessions, {len(ids)} haystack_session_ids and "
            f"{len(dates)} haystack_dates: the three lists must be as long",
        )
    sessions: list[Session] = []
    evidence: list[int] = []
    next_id = 0
    for s, (sid, date, turns) in enumerate(zip(ids, dates, haystack, strict=True)):
        start = f.date(date, f"haystack_dates[{s}]", from_longmemeval)
        built = []
        for t, turn in enumerate(f.as_list(turns, f"haystack_sessions[{s}]")):
            where = f"haystack_sessions[{s}][{t}]"
            turn = f.as_obj(turn, where)
            role = f.as_str(f.get(turn, "role", where), f"{where}.role")
            if role not in SPEAKERS:
                raise f.error(f"{where}.role", f"{role!r} is not user or assistant")
            text = f.as_str(f.get(turn, "content", where), f"{where}.content")
            gold = f.as_bool(turn.get("has_answer", False), f"{where}.has_answer")
            built.append(Turn(next_id, role, text, start, purpose="evidence" if gold else ""))
            if gold:
                evidence.append(next_id)
            next_id += 1
        sessions.append(Session(f.as_str(sid, f"haystack_session_ids[{s}]"), start, tuple(built)))
    answer_ids = f.as_list(f.get(obj, "answer_session_ids"), "answer_session_ids")
    known = {s.id for s in sessions}
    missing = [a for a in answer_ids if f.as_str(a, "answer_session_ids") not in known]
    extra: dict[str, Any] = {"question_id": qid}
    if qid.endswith(ABSTENTION_SUFFIX):
        extra["abstention"] = True
    if missing:
        extra["missing_answer_sessions"] = missing
    qa = QA(
        question=f.as_str(f.get(obj, "question"), "question"),
        answer=f.answer(f.get(obj, "answer"), "answer"),
        options=(),
        gold=None,
        evidence=tuple(evidence),
        time=f.date(f.get(obj, "question_date"), "question_date", from_longmemeval),
        qid=index,
    )
    return Record(index, qtype, "", tuple(sessions), qa, extra=extra)


class LongMemEvalFormat:
    name = "longmemeval"
    summary = "LongMemEval: longmemeval.json, one instance per question with its haystack"
    holds = "question, open answer, question_type, dated sessions of user/assistant turns, evidence turns and sessions"  # noqa: E501
    cannot = "options and gold letter, turn times, places, fact ids, provenance"

    def detect(self, path: Path) -> bool:
        if path.is_dir():
            return (path / FILE).is_file()
        head = json_array_head(path)
        if head is None:
            return False
        return b'"question_type"' in head and b'"haystack_' in head

    def read(self, path: Path) -> Iterator[Record]:
        file = path / FILE if path.is_dir() else path
        data = load_json(file)
        if not isinstance(data, list):
            raise FormatError(file, "must be a JSON array of instances")
        for index, item in enumerate(data):
            yield from_instance(file, index, item)

    def write(self, records: Iterable[Record], out: Path, info: ExportInfo) -> list[str]:
        path = out / FILE
        ids = UniqueIds()
        with path.open("wb") as fh:
            fh.write(b"[")
            for n, record in enumerate(records):
                try:
                    instance = to_instance(record, ids)
                except ValueError as exc:
                    raise FormatError(path, str(exc), record=record.tid, field="time") from None
                fh.write((b",\n" if n else b"\n") + orjson.dumps(instance))
            fh.write(b"\n]\n")
        return [FILE]


FORMATS.register("longmemeval")(LongMemEvalFormat())
