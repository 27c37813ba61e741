"""Rows of the hf format: one Arrow schema for every file, and records to rows and back.

Every key is on every row (``None`` only where the record itself holds None: a profile
id, a locale, a gold letter without options, a question without provenance), so
``datasets`` infers nothing and loads the declared features. Values of no fixed type are
JSON text with sorted keys, so the bytes do not depend on dict order.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson

from memsim.formats import FormatError
from memsim.records import QA, SPEAKERS, Provenance, Record, Session, Turn


def row_schema(pa: Any) -> Any:
    """The Arrow schema of a row (``pa`` is the pyarrow module, imported lazily)."""
    text, integer, texts = pa.string(), pa.int64(), pa.list_(pa.string())
    turn = pa.struct(
        [
            ("id", integer),
            ("speaker", text),
            ("text", text),
            ("time", text),
            ("place", text),
            ("purpose", text),
            ("facts", texts),
            ("verbalizer", text),
        ]
    )
    session = pa.struct([("id", text), ("start", text), ("topic", text), ("turns", pa.list_(turn))])
    provenance = pa.struct(
        [
            ("fact_ids", texts),
            ("withheld", texts),
            ("transform", text),
            ("params", text),
            ("reference_time", text),
            ("answer_value", text),
            ("extra", text),
        ]
    )
    return pa.schema(
        [
            ("tid", integer),
            ("type", text),
            ("scenario", text),
            ("profile_id", text),
            ("locale", text),
            ("flags", texts),
            ("sessions", pa.list_(session)),
            ("question", text),
            ("answer", text),
            ("options", texts),
            ("gold", text),
            ("evidence", pa.list_(integer)),
            ("question_time", text),
            ("qid", integer),
            ("question_verbalizer", text),
            ("provenance", provenance),
            ("extra", text),
        ]
    )


NULLABLE = ("profile_id", "locale", "gold", "provenance")
"""Columns that hold None where the record does; every other value is required."""


def check_schema(path: Path, found: Any, expected: Any) -> None:
    """A FormatError naming the first column missing from ``found`` or of another type."""
    for column in expected:
        if column.name not in found.names:
            raise FormatError(path, "missing", field=column.name)
        actual = found.field(column.name).type
        if actual != column.type:
            raise FormatError(path, f"must be {column.type}, not {actual}", field=column.name)


def _json(value: Any) -> str:
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS).decode()


def row_of_record(record: Record) -> dict[str, Any]:
    qa, p = record.qa, record.qa.provenance
    return {
        "tid": record.tid,
        "type": record.type,
        "scenario": record.scenario,
        "profile_id": record.profile_id,
        "locale": record.locale,
        "flags": list(record.flags),
        "sessions": [
            {
                "id": s.id,
                "start": s.start,
                "topic": s.topic,
                "turns": [
                    {
                        "id": t.id,
                        "speaker": t.speaker,
                        "text": t.text,
                        "time": t.time,
                        "place": t.place,
                        "purpose": t.purpose,
                        "facts": list(t.facts),
                        "verbalizer": t.verbalizer,
                    }
                    for t in s.turns
                ],
            }
            for s in record.sessions
        ],
        "question": qa.question,
        "answer": qa.answer,
        "options": list(qa.options),
        "gold": qa.gold,
        "evidence": list(qa.evidence),
        "question_time": qa.time,
        "qid": qa.qid,
        "question_verbalizer": qa.verbalizer,
        "provenance": None
        if p is None
        else {
            "fact_ids": list(p.fact_ids),
            "withheld": list(p.withheld),
            "transform": p.transform,
            "params": _json(p.params),
            "reference_time": p.reference_time,
            "answer_value": _json(p.answer_value),
            "extra": _json(p.extra),
        },
        "extra": _json(record.extra),
    }


def record_from_row(path: Path, row: dict[str, Any]) -> Record:
    """The record of a row read back with pyarrow (types are the schema's; the JSON text
    fields and the speakers are checked)."""
    tid = row.get("tid")
    for column, value in row.items():
        if value is None and column not in NULLABLE:
            raise FormatError(path, "missing (null)", record=tid, field=column)

    def load(text: Any, field: str) -> Any:
        try:
            return orjson.loads(text)
        except (orjson.JSONDecodeError, TypeError):
            raise FormatError(path, "not JSON text", record=tid, field=field) from None

    sessions = []
    for i, s in enumerate(row["sessions"]):
        turns = []
        for t in s["turns"]:
            if t["speaker"] not in SPEAKERS:
                where = f"sessions[{i}].turns.speaker"
                raise FormatError(path, f"{t['speaker']!r} is not user or assistant", tid, where)
            turns.append(Turn(**{**t, "facts": tuple(t["facts"])}))
        sessions.append(Session(s["id"], s["start"], tuple(turns), s["topic"]))
    p = row["provenance"]
    provenance = None
    if p is not None:
        provenance = Provenance(
            fact_ids=tuple(p["fact_ids"]),
            withheld=tuple(p["withheld"]),
            transform=p["transform"],
            params=load(p["params"], "provenance.params"),
            reference_time=p["reference_time"],
            answer_value=load(p["answer_value"], "provenance.answer_value"),
            extra=load(p["extra"], "provenance.extra"),
        )
    qa = QA(
        question=row["question"],
        answer=row["answer"],
        options=tuple(row["options"]),
        gold=row["gold"],
        evidence=tuple(row["evidence"]),
        time=row["question_time"],
        qid=row["qid"],
        provenance=provenance,
        verbalizer=row["question_verbalizer"],
    )
    return Record(
        tid=row["tid"],
        type=row["type"],
        scenario=row["scenario"],
        sessions=tuple(sessions),
        qa=qa,
        profile_id=row["profile_id"],
        locale=row["locale"],
        flags=tuple(row["flags"]),
        extra=load(row["extra"], "extra"),
    )
