"""LoCoMo (``locomo.json``): conversations with questions, as memory-system harnesses read it.

A JSON list of conversations (../shared/locomo/README.md)::

    {"sample_id", "conversation": {"speaker_a", "speaker_b", "session_N_date_time",
      "session_N": [{"speaker", "dia_id": "D<N>:<k>", "text"}]},
     "qa": [{"question", "answer", "evidence": [dia_id...], "category": 1..5}]}

Categories are numbered as the upstream evaluation code does; 5 (unanswerable) carries
``adversarial_answer`` instead of ``answer``. Dates are written ``1:56 pm on 8 May, 2023``.

Writing. LoCoMo has no per-question history: questions share their conversation. Our
records each have their own history, so consecutive records whose sessions are equal and
whose ``extra["sample_id"]`` is the same (records read from LoCoMo) make one
conversation, and every other record is a conversation of its own (``sample_id``
``memsim-<tid>``). The user is ``speaker_a`` (named by the profile's user ``name`` when
the profiles folder is known, else "User"), the assistant ``speaker_b`` ("Assistant").
Sessions are dated, turns are not: a session whose turns fall on several days is written
as one session per day (:func:`~memsim.formats._dates.sessions_by_day`), so that a
relative date a turn says still resolves to the same day. Category, first rule that applies:

=========================================================  ========================
record                                                     category
=========================================================  ========================
``extra["category"]`` (read from LoCoMo)                  kept
abstention, unanswerable, LongMemEval ``_abs``             5 unanswerable
temporal, knowledge_update, temporal-reasoning,            2 temporal
knowledge-update
post_processing (needs a lookup or a computation           3 open-domain
beyond what was said)
conditional, comparative, aggregative, multi-session       1 multi-hop
simple, noisy, assistant_said, single-session-*            4 single-hop
any other type: more than one evidence turn                1, else 4
=========================================================  ========================

A category-5 item writes ``adversarial_answer`` from ``extra`` ("" when unknown) and no
``answer`` (unless the read item had one: ``extra["answer_given"]``).

Reading. One record per question (``tid`` counts questions across the file); the
questions of a conversation share the same ``sessions`` tuple (not copies). Turns are
numbered from 0 across the conversation; speaker_a is ``user`` and speaker_b
``assistant``; a turn's time is its session's date (ISO minutes) and the question's time
is the last session's date. ``extra`` holds ``sample_id``, ``category``, ``speakers``
([speaker_a, speaker_b]) and ``dia_ids`` (the dia_id of turn ``i`` at index ``i``; one
list shared by the conversation), plus ``adversarial_answer``, ``answer_given`` (an answer
on a category-5 item) and ``missing_evidence`` (evidence ids naming no turn, kept verbatim
for the audit and written back after the others) when there are any. A category-5 item's
open answer is :data:`UNANSWERABLE`. Images (``img_url``, ``blip_caption``),
``event_summary`` and session dates without a session are not read.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from memsim.formats import FORMATS, ExportInfo, FormatError
from memsim.formats._dates import from_locomo, sessions_by_day, to_locomo
from memsim.formats._fields import (
    Fields,
    UniqueIds,
    json_array_head,
    load_json,
    write_json_array,
)
from memsim.formats._names import UserNames
from memsim.records import ASSISTANT, QA, USER, Record, Session, Turn

FILE = "locomo.json"
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "unanswerable"}
UNANSWERABLE = "Not mentioned in the conversation."
_CATEGORY_OF_TYPE = {
    **{t: 5 for t in ("abstention", "unanswerable")},
    **{t: 2 for t in ("temporal", "knowledge_update", "temporal-reasoning", "knowledge-update")},
    "post_processing": 3,
    "open-domain": 3,
    **{t: 1 for t in ("conditional", "comparative", "aggregative", "multi-session", "multi-hop")},
    **{t: 4 for t in ("simple", "noisy", "single-hop", "assistant_said")},
    **{f"single-session-{t}": 4 for t in ("user", "assistant", "preference")},
}
_SESSION = re.compile(r"session_(\d+)")


def category(record: Record) -> int:
    """LoCoMo's category of a record (the table in the module docstring)."""
    kept = record.extra.get("category")
    if isinstance(kept, int) and kept in CATEGORIES:
        return kept
    if record.extra.get("abstention") is True:
        return 5
    if record.type in _CATEGORY_OF_TYPE:
        return _CATEGORY_OF_TYPE[record.type]
    return 1 if len(record.qa.evidence) > 1 else 4


def _conversations(records: Iterable[Record]) -> Iterator[list[Record]]:
    """Runs of consecutive records with equal sessions (``is`` first: shared tuples) and
    the same ``extra["sample_id"]`` (two conversations read from LoCoMo stay two)."""
    run: list[Record] = []
    for record in records:
        same = run and record.extra.get("sample_id") == run[0].extra.get("sample_id")
        if run and not (
            same and (record.sessions is run[0].sessions or record.sessions == run[0].sessions)
        ):
            yield run
            run = []
        run.append(record)
    if run:
        yield run


def to_conversation(
    run: list[Record], names: UserNames, ids: UniqueIds | None = None
) -> dict[str, Any]:
    """The LoCoMo conversation of records sharing one history (raises ValueError on a
    time no reader knows); ``sample_id`` made unique by ``ids``."""
    first = run[0]
    speakers = first.extra.get("speakers")
    if not (isinstance(speakers, list) and len(speakers) == 2):
        speakers = [names.get(first.profile_id) or "User", "Assistant"]
    sample_id = first.extra.get("sample_id")
    conversation: dict[str, Any] = {"speaker_a": speakers[0], "speaker_b": speakers[1]}
    dia_id: dict[int, str] = {}
    for n, session in enumerate(sessions_by_day(first.sessions), start=1):
        conversation[f"session_{n}_date_time"] = to_locomo(session.start)
        turns = []
        for k, turn in enumerate(session.turns, start=1):
            dia_id[turn.id] = f"D{n}:{k}"
            who = speakers[0] if turn.speaker == USER else speakers[1]
            turns.append({"speaker": who, "dia_id": dia_id[turn.id], "text": turn.text})
        conversation[f"session_{n}"] = turns
    qa = []
    for record in run:
        item: dict[str, Any] = {"question": record.qa.question}
        cat = category(record)
        if cat == 5:
            item["adversarial_answer"] = str(record.extra.get("adversarial_answer", ""))
            if "answer_given" in record.extra:
                item["answer"] = record.extra["answer_given"]
        else:
            item["answer"] = record.qa.answer
        missing = record.extra.get("missing_evidence", [])
        item["evidence"] = [dia_id[e] for e in record.qa.evidence if e in dia_id] + list(missing)
        item["category"] = cat
        qa.append(item)
    return {
        "sample_id": (ids or UniqueIds()).make(
            sample_id if isinstance(sample_id, str) else f"memsim-{first.tid}"
        ),
        "conversation": conversation,
        "qa": qa,
    }


def from_conversation(path: Path, index: int, item: Any, first_tid: int) -> list[Record]:
    """The records (one per question) of the ``index``-th conversation of ``path``."""
    name: str | int = index
    if isinstance(item, dict) and isinstance(item.get("sample_id"), str):
        name = item["sample_id"]
    f = Fields(path, name)
    obj = f.as_obj(item, "conversation")
    sample_id = f.as_str(f.get(obj, "sample_id"), "sample_id")
    conv = f.as_obj(f.get(obj, "conversation"), "conversation")
    speakers = [
        f.as_str(f.get(conv, key, "conversation"), f"conversation.{key}")
        for key in ("speaker_a", "speaker_b")
    ]
    numbers = sorted(int(m.group(1)) for key in conv if (m := _SESSION.fullmatch(key)))
    sessions: list[Session] = []
    dia_ids: list[str] = []
    for n in numbers:
        where = f"conversation.session_{n}"
        date = f.get(conv, f"session_{n}_date_time", "conversation")
        start = f.date(date, f"{where}_date_time", from_locomo)
        turns = []
        for k, turn in enumerate(f.as_list(conv[f"session_{n}"], where)):
            at = f"{where}[{k}]"
            turn = f.as_obj(turn, at)
            who = f.as_str(f.get(turn, "speaker", at), f"{at}.speaker")
            if who not in speakers:
                raise f.error(f"{at}.speaker", f"{who!r} is neither speaker_a nor speaker_b")
            role = USER if who == speakers[0] else ASSISTANT
            text = f.as_str(f.get(turn, "text", at), f"{at}.text")
            turns.append(Turn(len(dia_ids), role, text, start))
            dia_ids.append(f.as_str(f.get(turn, "dia_id", at), f"{at}.dia_id"))
        sessions.append(Session(f"session_{n}", start, tuple(turns)))
    shared = tuple(sessions)
    turn_of = {d: i for i, d in enumerate(dia_ids)}
    asked = shared[-1].start if shared else ""
    common = {"sample_id": sample_id, "speakers": speakers, "dia_ids": dia_ids}
    items = f.as_list(f.get(obj, "qa"), "qa")
    return [
        _question(f, q, item, shared, turn_of, asked, first_tid + q, common)
        for q, item in enumerate(items)
    ]


def _question(
    f: Fields,
    q: int,
    item: Any,
    sessions: tuple[Session, ...],
    turn_of: dict[str, int],
    asked: str,
    tid: int,
    shared: dict[str, Any],
) -> Record:
    where = f"qa[{q}]"
    obj = f.as_obj(item, where)
    cat = f.as_int(f.get(obj, "category", where), f"{where}.category")
    if cat not in CATEGORIES:
        raise f.error(f"{where}.category", f"{cat} is not a LoCoMo category (1-5)")
    evidence_ids = [
        f.as_str(e, f"{where}.evidence")
        for e in f.as_list(f.get(obj, "evidence", where), f"{where}.evidence")
    ]
    extra: dict[str, Any] = {**shared, "category": cat}
    if cat == 5:
        answer = UNANSWERABLE
        adversarial = f.get(obj, "adversarial_answer", where)
        extra["adversarial_answer"] = f.answer(adversarial, f"{where}.adversarial_answer")
        if "answer" in obj:
            extra["answer_given"] = f.answer(obj["answer"], f"{where}.answer")
    else:
        answer = f.answer(f.get(obj, "answer", where), f"{where}.answer")
    missing = [e for e in evidence_ids if e not in turn_of]
    if missing:
        extra["missing_evidence"] = missing
    qa = QA(
        question=f.as_str(f.get(obj, "question", where), f"{where}.question"),
        answer=answer,
        options=(),
        gold=None,
        evidence=tuple(turn_of[e] for e in evidence_ids if e in turn_of),
        time=asked,
        qid=tid,
    )
    return Record(tid, CATEGORIES[cat], "", sessions, qa, extra=extra)


class LocomoFormat:
    name = "locomo"
    summary = "LoCoMo: locomo.json, long two-speaker conversations with questions"
    holds = "dated sessions of two speakers' turns, question, answer, evidence turns, category"
    cannot = (
        "per-question history, options and gold letter, turn times, places, fact ids, provenance"
    )

    def detect(self, path: Path) -> bool:
        if path.is_dir():
            return (path / FILE).is_file()
        head = json_array_head(path)
        if head is None:
            return False
        named = b'"speaker_a"' in head or b'"sample_id"' in head
        return named and b'"haystack_' not in head

    def read(self, path: Path) -> Iterator[Record]:
        file = path / FILE if path.is_dir() else path
        data = load_json(file)
        if not isinstance(data, list):
            raise FormatError(file, "must be a JSON list of conversations")
        tid = 0
        for index, item in enumerate(data):
            records = from_conversation(file, index, item, tid)
            tid += len(records)
            yield from records

    def write(self, records: Iterable[Record], out: Path, info: ExportInfo) -> list[str]:
        path = out / FILE
        names, ids = UserNames(info.profiles), UniqueIds()

        def conversations() -> Iterator[dict[str, Any]]:
            for run in _conversations(records):
                try:
                    yield to_conversation(run, names, ids)
                except ValueError as exc:
                    raise FormatError(path, str(exc), record=run[0].tid, field="time") from None

        write_json_array(path, conversations())
        return [FILE]


FORMATS.register("locomo")(LocomoFormat())
