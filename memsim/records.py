"""Typed records: what a dataset holds, from generation through rewrite, writing, audit
and bench. Every format (``memsim.formats``) reads into and writes from these types.

A :class:`Record` is one question with its history: a sequence of :class:`Session`
objects, each a sequence of :class:`Turn` objects said by the user or the assistant,
and one :class:`QA`. Today's one-session trajectory is the case ``len(sessions) == 1``.
Records read from other formats keep what those formats hold and leave the rest at its
default (a LongMemEval item has no options: ``QA.options == ()`` and ``gold is None``).

Guarantees: every type is frozen; ``record_from_json(record_to_json(r)) == r`` for any
record (tested); :func:`record_from_json` reads format versions 1 and 2 and raises
:class:`RecordError` naming the field for a missing or wrongly typed one, never a
``KeyError`` or ``TypeError``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any, TypeVar

RECORD_FORMAT = 2
"""Native JSONL format version written; version 1 (one session of user messages,
no ``speaker``/``session`` on messages, no ``sessions``) is still read."""
LETTERS = ("A", "B", "C", "D")
USER, ASSISTANT = "user", "assistant"
SPEAKERS = (USER, ASSISTANT)
PURPOSES = ("evidence", "negative", "filler", "chit_chat", "noise", "")
"""What a turn is for in its question's history ("" when a format does not say)."""


class RecordError(ValueError):
    """A record is missing a field or holds one of the wrong type.

    ``field`` is the JSON path inside the record ("QA.choices", "message_list[3].time");
    the formats add the file and the record's index or id.
    """

    def __init__(self, field_path: str, problem: str) -> None:
        self.field = field_path
        self.problem = problem
        super().__init__(f"{field_path}: {problem}")


_T = TypeVar("_T")


def _pickled_by_constructor(cls: type[_T]) -> type[_T]:
    """Pickle ``cls`` as a call of its constructor on its fields, in order. Without
    it, a slotted dataclass pickles through the ``dataclasses`` module's own state
    functions, which look its fields up in Python for every object: records made in
    worker processes are pickled there and unpickled in the parent (about 20 objects a
    record: its turns, its QA), and the constructor call loads them in half the time
    (``tests/test_records.py`` checks the round trip)."""
    fields_of = attrgetter(*cls.__slots__)  # type: ignore[attr-defined]

    def __reduce__(self: _T) -> tuple[type[_T], tuple[Any, ...]]:
        return cls, fields_of(self)

    setattr(cls, "__reduce__", __reduce__)  # noqa: B010
    return cls


@_pickled_by_constructor
@dataclass(frozen=True, slots=True)
class Turn:
    id: int
    """Unique within its record; what ``QA.evidence`` (MemDaily's ``target_step_id``) names."""
    speaker: str
    """``user`` or ``assistant``."""
    text: str
    time: str
    """ISO date-time to the minute in native data; other formats' own strings when read."""
    place: str = ""
    purpose: str = ""
    """evidence | negative | filler | chit_chat | noise ("" when unknown)."""
    facts: tuple[str, ...] = ()
    """Ids of the profile facts the turn states."""
    verbalizer: str = "template"
    template: str = ""
    """The template sentence an LLM rewrite replaced ("" when the text is the template)."""


@_pickled_by_constructor
@dataclass(frozen=True, slots=True)
class Session:
    id: str
    start: str
    """Time of the session's first turn (same form as Turn.time)."""
    turns: tuple[Turn, ...]
    topic: str = ""


@_pickled_by_constructor
@dataclass(frozen=True, slots=True)
class Provenance:
    """Why the answer is right: computed by code from these facts of the profile."""

    fact_ids: tuple[str, ...]
    withheld: tuple[str, ...] = ()
    transform: str = "identity"
    params: Mapping[str, Any] = field(default_factory=dict)
    reference_time: str = ""
    answer_value: Any = None
    extra: Mapping[str, Any] = field(default_factory=dict)
    """Keys a later version adds (value-history entries...), kept as they are."""


@_pickled_by_constructor
@dataclass(frozen=True, slots=True)
class QA:
    question: str
    answer: str
    """The open answer."""
    options: tuple[str, ...]
    """Options in letter order (A, B, C, D); () for a format without options."""
    gold: str | None
    """The correct letter; None without options."""
    evidence: tuple[int, ...]
    """Ids of the evidence turns."""
    time: str
    """When the question is asked."""
    qid: int = 0
    provenance: Provenance | None = None
    verbalizer: str = "template"
    template: str = ""
    """The template question an LLM paraphrase replaced ("" when it is the template)."""

    @property
    def choices(self) -> dict[str, str]:
        return dict(zip(LETTERS, self.options, strict=False))


@_pickled_by_constructor
@dataclass(frozen=True, slots=True)
class Record:
    tid: int
    type: str
    """The QA kind (simple, comparative, knowledge_update...) or the format's own type."""
    scenario: str
    sessions: tuple[Session, ...]
    qa: QA
    profile_id: str | None = None
    locale: str | None = None
    flags: tuple[str, ...] = ()
    """Failure markers a reader found (MemDaily's ``[ERRORQ]``...)."""
    extra: Mapping[str, Any] = field(default_factory=dict)
    """What a format holds that the types do not (LoCoMo's category, LongMemEval's
    question_type, a native record's unknown keys), kept for writing back."""

    @property
    def turns(self) -> tuple[Turn, ...]:
        if len(self.sessions) == 1:
            return self.sessions[0].turns
        return tuple(t for s in self.sessions for t in s.turns)

    def iter_turns(self) -> Iterator[tuple[Session, Turn]]:
        for session in self.sessions:
            for turn in session.turns:
                yield session, turn


# ---- native JSON (one record per line of dataset.jsonl) ------------------------------


def record_to_json(record: Record) -> dict[str, Any]:
    """The native JSON object of a record (format version 2).

    Messages stay a flat ``message_list`` (MemDaily's shape, so a native record is a
    MemDaily item with more fields); ``sessions`` lists the sessions' ids and starts.
    """
    qa = record.qa
    out: dict[str, Any] = {
        "format_version": RECORD_FORMAT,
        "tid": record.tid,
        "type": record.type,
        "scenario": record.scenario,
        "profile_id": record.profile_id,
        "locale": record.locale,
        "sessions": [{"id": s.id, "start": s.start, "topic": s.topic} for s in record.sessions],
        "message_list": [turn_json(t, s.id) for s, t in record.iter_turns()],
        "QA": qa_json(qa),
    }
    if record.flags:
        out["flags"] = list(record.flags)
    out.update(record.extra)
    return out


def turn_json(t: Turn, session: str) -> dict[str, Any]:
    """One turn as a native ``message_list`` entry."""
    out = {
        "mid": t.id,
        "message": t.text,
        "time": t.time,
        "place": t.place,
        "role": t.purpose,
        "speaker": t.speaker,
        "session": session,
        "facts": list(t.facts),
        "verbalizer": t.verbalizer,
    }
    if t.template:
        out["template"] = t.template
    return out


def qa_json(qa: QA) -> dict[str, Any]:
    """A question as the native ``QA`` object."""
    out = {
        "qid": qa.qid,
        "question": qa.question,
        "answer": qa.answer,
        "choices": qa.choices,
        "ground_truth": qa.gold,
        "target_step_id": list(qa.evidence),
        "time": qa.time,
        "provenance": None if qa.provenance is None else _provenance_json(qa.provenance),
        "verbalizer": qa.verbalizer,
    }
    if qa.template:
        out["template"] = qa.template
    return out


def _provenance_json(p: Provenance) -> dict[str, Any]:
    return {
        "fact_ids": list(p.fact_ids),
        "withheld": list(p.withheld),
        "transform": p.transform,
        "params": dict(p.params),
        "reference_time": p.reference_time,
        "answer_value": p.answer_value,
        **p.extra,
    }


_RECORD_KEYS = {
    "format_version", "tid", "type", "scenario", "profile_id", "locale", "sessions",
    "message_list", "QA", "flags",
}  # fmt: skip
_PROVENANCE_KEYS = {
    "fact_ids", "withheld", "transform", "params", "reference_time", "answer_value",
}  # fmt: skip


def record_from_json(data: Any) -> Record:
    """A record from its native JSON object (format version 1 or 2)."""
    obj = _dict(data, "record")
    version = obj.get("format_version", 1)
    if version not in (1, 2):
        raise RecordError(
            "format_version", f"{version!r} is not a version this memsim reads (1, 2)"
        )
    messages = _list(_get(obj, "message_list"), "message_list")
    qa_obj = _dict(_get(obj, "QA"), "QA")
    session_meta = (
        [_dict(s, f"sessions[{i}]") for i, s in enumerate(_list(obj["sessions"], "sessions"))]
        if version == 2 and "sessions" in obj
        else []
    )
    by_session: dict[str, list[Turn]] = {}
    for i, m in enumerate(messages):
        sid, turn = _plain_turn(m) or _turn_checked(m, i)
        by_session.setdefault(sid, []).append(turn)
    if not session_meta:
        session_meta = [{"id": sid} for sid in by_session] or [{"id": "s0"}]
    sessions = []
    for i, meta in enumerate(session_meta):
        sid = _str(_get(meta, "id", f"sessions[{i}]"), f"sessions[{i}].id")
        turns = tuple(by_session.pop(sid, ()))
        start = meta.get("start", turns[0].time if turns else "")
        topic = meta.get("topic", "")
        sessions.append(
            Session(
                sid, _str(start, f"sessions[{i}].start"), turns, _str(topic, f"sessions[{i}].topic")
            )
        )
    if by_session:
        raise RecordError(
            "message_list", f"messages name sessions not listed: {sorted(by_session)}"
        )
    flags = tuple(_str(f, "flags") for f in _list(obj.get("flags", []), "flags"))
    extra = {k: v for k, v in obj.items() if k not in _RECORD_KEYS}
    return Record(
        tid=_int(_get(obj, "tid"), "tid"),
        type=_str(_get(obj, "type"), "type"),
        scenario=_str(_get(obj, "scenario"), "scenario"),
        sessions=tuple(sessions),
        qa=_qa_from_json(qa_obj),
        profile_id=_opt_str(obj.get("profile_id"), "profile_id"),
        locale=_opt_str(obj.get("locale"), "locale"),
        flags=flags,
        extra=extra,
    )


def _plain_turn(m: Any) -> tuple[str, Turn] | None:
    """A message whose every field has its plain JSON type, without naming a place per
    field (what :func:`_turn_checked` does, formatting ten error places per message
    before it knows of any error); None for anything else, which that then reads."""
    if type(m) is not dict:
        return None
    get = m.get
    mid, text, time, sid = get("mid"), get("message"), get("time"), get("session", "s0")
    speaker, facts = get("speaker", USER), get("facts", [])
    place, purpose = get("place", ""), get("role", "")
    verbalizer, template = get("verbalizer", "template"), get("template", "")
    if (
        type(mid) is int
        and type(text) is str
        and type(time) is str
        and type(sid) is str
        and type(speaker) is str
        and speaker in SPEAKERS
        and type(place) is str
        and type(purpose) is str
        and type(verbalizer) is str
        and type(template) is str
        and type(facts) is list
        and all(type(f) is str for f in facts)
    ):
        return sid, Turn(
            mid, speaker, text, time, place, purpose, tuple(facts), verbalizer, template
        )
    return None


def _turn_checked(m: Any, i: int) -> tuple[str, Turn]:
    """A message read field by field, naming the first field that is missing or of the
    wrong type."""
    where = f"message_list[{i}]"
    m = _dict(m, where)
    sid = _str(m.get("session", "s0"), f"{where}.session")
    speaker = _str(m.get("speaker", USER), f"{where}.speaker")
    if speaker not in SPEAKERS:
        raise RecordError(f"{where}.speaker", f"{speaker!r} is not user or assistant")
    return sid, Turn(
        id=_int(_get(m, "mid", where), f"{where}.mid"),
        speaker=speaker,
        text=_str(_get(m, "message", where), f"{where}.message"),
        time=_str(_get(m, "time", where), f"{where}.time"),
        place=_str(m.get("place", ""), f"{where}.place"),
        purpose=_str(m.get("role", ""), f"{where}.role"),
        facts=tuple(_str(f, f"{where}.facts") for f in _list(m.get("facts", []), f"{where}.facts")),
        verbalizer=_str(m.get("verbalizer", "template"), f"{where}.verbalizer"),
        template=_str(m.get("template", ""), f"{where}.template"),
    )


def _qa_from_json(qa: dict[str, Any]) -> QA:
    choices = _dict(_get(qa, "choices", "QA"), "QA.choices")
    if list(choices) != list(LETTERS[: len(choices)]):
        raise RecordError(
            "QA.choices", f"keys must be {', '.join(LETTERS)} in order, not {list(choices)}"
        )
    options = tuple(_str(v, f"QA.choices.{k}") for k, v in choices.items())
    gold = qa.get("ground_truth")
    if options and gold not in LETTERS[: len(options)]:
        raise RecordError("QA.ground_truth", f"{gold!r} is not one of the choices' letters")
    if not options and gold is not None:
        raise RecordError("QA.ground_truth", "set, but the item has no choices")
    prov_obj = qa.get("provenance")
    provenance = None
    if prov_obj is not None:
        p = _dict(prov_obj, "QA.provenance")
        provenance = Provenance(
            fact_ids=tuple(
                _str(f, "QA.provenance.fact_ids")
                for f in _list(p.get("fact_ids", []), "QA.provenance.fact_ids")
            ),
            withheld=tuple(
                _str(f, "QA.provenance.withheld")
                for f in _list(p.get("withheld", []), "QA.provenance.withheld")
            ),
            transform=_str(p.get("transform", "identity"), "QA.provenance.transform"),
            params=_dict(p.get("params", {}), "QA.provenance.params"),
            reference_time=_str(p.get("reference_time", ""), "QA.provenance.reference_time"),
            answer_value=p.get("answer_value"),
            extra={k: v for k, v in p.items() if k not in _PROVENANCE_KEYS},
        )
    evidence = _list(_get(qa, "target_step_id", "QA"), "QA.target_step_id")
    return QA(
        question=_str(_get(qa, "question", "QA"), "QA.question"),
        answer=_str(_get(qa, "answer", "QA"), "QA.answer"),
        options=options,
        gold=gold,
        evidence=tuple(_int(e, "QA.target_step_id") for e in evidence),
        time=_str(_get(qa, "time", "QA"), "QA.time"),
        qid=_int(qa.get("qid", 0), "QA.qid"),
        provenance=provenance,
        verbalizer=_str(qa.get("verbalizer", "template"), "QA.verbalizer"),
        template=_str(qa.get("template", ""), "QA.template"),
    )


# ---- field readers that name the field --------------------------------------------


def _get(obj: dict[str, Any], key: str, where: str = "") -> Any:
    try:
        return obj[key]
    except KeyError:
        raise RecordError(f"{where}.{key}" if where else key, "missing") from None


def _dict(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise RecordError(where, f"must be an object, not {type(value).__name__}")
    return value


def _list(value: Any, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise RecordError(where, f"must be a list, not {type(value).__name__}")
    return value


def _str(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise RecordError(where, f"must be a string, not {type(value).__name__}")
    return value


def _opt_str(value: Any, where: str) -> str | None:
    return None if value is None else _str(value, where)


def _int(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RecordError(where, f"must be an integer, not {type(value).__name__}")
    return value


__all__ = [
    "ASSISTANT",
    "LETTERS",
    "PURPOSES",
    "QA",
    "RECORD_FORMAT",
    "SPEAKERS",
    "USER",
    "Provenance",
    "Record",
    "RecordError",
    "Session",
    "Turn",
    "qa_json",
    "record_from_json",
    "record_to_json",
    "turn_json",
]
