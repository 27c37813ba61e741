"""LongMemEval: native -> longmemeval.json -> records keeps what the format holds; every
written instance passes a validator written from issue 12's field list; real-shaped files
read; bad files are FormatErrors naming file, record and field."""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from record_strategies import SETTINGS, fixed_records, history_view, records

from memsim.formats import FORMATS, ExportInfo, FormatError
from memsim.formats._dates import from_longmemeval, iso_minute, to_longmemeval
from memsim.formats.longmemeval import QUESTION_TYPES, question_type
from memsim.records import QA, Record, Session, Turn

LME = FORMATS.get("longmemeval")
DATE = re.compile(r"\d{4}/\d{2}/\d{2} \((Mon|Tue|Wed|Thu|Fri|Sat|Sun)\) \d{2}:\d{2}")
KEYS = {
    "question_id", "question_type", "question", "answer", "question_date",
    "haystack_session_ids", "haystack_dates", "haystack_sessions", "answer_session_ids",
}  # fmt: skip


def validate(instance: dict[str, Any]) -> None:
    """Issue 12's field list, as LongMemEval's evaluation and retrieval scripts read it."""
    assert set(instance) == KEYS
    for key in ("question_id", "question_type", "question", "answer", "question_date"):
        assert isinstance(instance[key], str), key
    assert instance["question_type"] in QUESTION_TYPES
    for date in [instance["question_date"], *instance["haystack_dates"]]:
        assert DATE.fullmatch(date), date
        when = dt.datetime.strptime(date[:10] + date[-6:], "%Y/%m/%d %H:%M")
        assert date[12:15] == ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")[when.weekday()]
    ids, sessions = instance["haystack_session_ids"], instance["haystack_sessions"]
    assert len(ids) == len(instance["haystack_dates"]) == len(sessions)
    assert len(set(ids)) == len(ids)
    gold_sessions = []
    for sid, session in zip(ids, sessions, strict=True):
        assert isinstance(sid, str) and isinstance(session, list)
        for turn in session:
            assert set(turn) == {"role", "content", "has_answer"}
            assert turn["role"] in ("user", "assistant") and isinstance(turn["content"], str)
            assert isinstance(turn["has_answer"], bool)
        if any(t["has_answer"] for t in session):
            assert sid.startswith("answer_"), "the scorer finds gold sessions by the prefix"
        if sid.startswith("answer_"):
            gold_sessions.append(sid)
    assert instance["answer_session_ids"] == gold_sessions


def _export(tmp: Path, recs: list[Record]) -> list[dict[str, Any]]:
    out = tmp / "lme"
    out.mkdir(exist_ok=True)
    assert LME.write(recs, out, ExportInfo()) == ["longmemeval.json"]
    data: list[dict[str, Any]] = json.loads((out / "longmemeval.json").read_text("utf-8"))
    return data


@SETTINGS
@given(recs=records())
def test_native_to_longmemeval_and_back_keeps_what_the_format_holds(
    tmp_path_factory: pytest.TempPathFactory, recs: list[Record]
) -> None:
    tmp = tmp_path_factory.mktemp("lme")
    for instance in _export(tmp, recs):
        validate(instance)
    back = list(LME.read(tmp / "lme"))
    assert len(back) == len(recs)
    for before, after in zip(recs, back, strict=True):
        assert history_view(after) == history_view(before, by_day=True)
        assert (after.qa.answer, after.qa.time) == (before.qa.answer, before.qa.time)
        assert (after.qa.options, after.qa.gold) == ((), None)
        assert after.type == question_type(before)
        abstains = before.type == "abstention"
        assert after.extra.get("abstention", False) is abstains
        assert after.extra["question_id"].endswith("_abs") is abstains
    assert list(LME.read(tmp / "lme")) == back
    again = tmp / "again"
    again.mkdir()
    LME.write(back, again, ExportInfo())
    assert (again / "longmemeval.json").read_bytes() == (
        tmp / "lme" / "longmemeval.json"
    ).read_bytes()


def _record(kind: str, speakers: tuple[str, ...], evidence_sessions: tuple[int, ...]) -> Record:
    sessions = tuple(
        Session(f"s{s}", f"2024-01-0{s + 1}T10:00", (Turn(s, who, "text", "2024-01-01T10:00"),))
        for s, who in enumerate(speakers)
    )
    qa = QA("q?", "a", (), None, evidence_sessions, "2024-02-01T10:00")
    return Record(0, kind, "roles", sessions, qa)


@pytest.mark.parametrize(
    ("kind", "speakers", "evidence", "expected"),
    [
        ("simple", ("user",), (0,), "single-session-user"),
        ("conditional", ("user",), (0,), "single-session-user"),
        ("noisy", ("user", "user"), (1,), "single-session-user"),
        ("post_processing", ("user",), (0,), "single-session-user"),
        ("comparative", ("user", "user"), (0,), "single-session-user"),
        ("comparative", ("user", "user"), (0, 1), "multi-session"),
        ("aggregative", ("user", "user", "user"), (0, 2), "multi-session"),
        ("simple", ("assistant",), (0,), "single-session-assistant"),
        ("knowledge_update", ("user", "user"), (0, 1), "knowledge-update"),
        ("temporal", ("user",), (0,), "temporal-reasoning"),
        ("abstention", ("user",), (), "single-session-user"),
        ("single-session-preference", ("user",), (0,), "single-session-preference"),
    ],
)
def test_kinds_map_to_question_types_as_the_table_says(
    kind: str, speakers: tuple[str, ...], evidence: tuple[int, ...], expected: str
) -> None:
    assert question_type(_record(kind, speakers, evidence)) == expected


def test_the_written_export_of_fixed_records_validates(tmp_path: Path) -> None:
    data = _export(tmp_path, fixed_records(12))
    assert [d["question_id"] for d in data] == [str(i) for i in range(12)]
    for instance in data:
        validate(instance)


REAL_SHAPED = [
    {
        "question_id": "e47becba",
        "question_type": "single-session-user",
        "question": "What degree did I graduate with?",
        "answer": "Business Administration",
        "question_date": "2023/05/30 (Tue) 23:40",
        "haystack_session_ids": ["sharegpt_yywfGZB_0", "answer_280352e9"],
        "haystack_dates": ["2023/05/20 (Sat) 02:21", "2023/05/20 (Sat) 02:57"],
        "haystack_sessions": [
            [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello"}],
            [
                {
                    "role": "user",
                    "content": "I graduated with a degree in Business Administration",
                    "has_answer": True,
                },
                {"role": "assistant", "content": "Congratulations!", "has_answer": False},
            ],
        ],
        "answer_session_ids": ["answer_280352e9"],
    },
    {
        "question_id": "gpt4_2655b836_abs",
        "question_type": "multi-session",
        "question": "How many bikes do I own?",
        "answer": 3,
        "question_date": "2023/06/01 (Thu) 09:05",
        "haystack_session_ids": ["answer_a", "answer_b"],
        "haystack_dates": ["2023/05/21 (Sun) 10:00", "2023/05/22 (Mon) 11:00"],
        "haystack_sessions": [
            [{"role": "user", "content": "a"}],
            [{"role": "user", "content": "b"}],
        ],
        "answer_session_ids": ["answer_a", "answer_b", "answer_gone"],
    },
]


def test_a_real_shaped_file_reads_without_options(tmp_path: Path) -> None:
    path = tmp_path / "longmemeval_s.json"
    path.write_text(json.dumps(REAL_SHAPED), "utf-8")
    assert LME.detect(path) and LME.detect(tmp_path / "x") is False
    first, second = LME.read(path)
    assert (first.type, first.qa.options, first.qa.gold) == ("single-session-user", (), None)
    assert first.qa.evidence == (2,) and first.turns[2].purpose == "evidence"
    assert first.sessions[1].id == "answer_280352e9" and first.qa.time == "2023-05-30T23:40"
    assert first.extra == {"question_id": "e47becba"}
    assert second.qa.answer == "3" and second.qa.evidence == ()
    assert second.extra == {
        "question_id": "gpt4_2655b836_abs",
        "abstention": True,
        "missing_answer_sessions": ["answer_gone"],
    }
    out = tmp_path / "out"
    out.mkdir()
    LME.write([first, second], out, ExportInfo())
    written = json.loads((out / "longmemeval.json").read_text("utf-8"))
    assert written[0] == {**REAL_SHAPED[0], "haystack_sessions": [
        [{**t, "has_answer": t.get("has_answer", False)} for t in s] for s in REAL_SHAPED[0]["haystack_sessions"]
    ]}  # fmt: skip
    assert written[1]["question_id"] == "gpt4_2655b836_abs"
    assert written[1]["answer_session_ids"] == ["answer_a", "answer_b"]


def _broken(change: Any) -> list[Any]:
    data = json.loads(json.dumps(REAL_SHAPED))
    change(data)
    return data


@pytest.mark.parametrize(
    ("change", "record", "field"),
    [
        (lambda d: d[0].pop("question"), "e47becba", "question"),
        (lambda d: d[1].update(question_type="preference"), "gpt4_2655b836_abs", "question_type"),
        (lambda d: d[0].update(answer=["x"]), "e47becba", "answer"),
        (lambda d: d[0].update(question_date="May 30"), "e47becba", "question_date"),
        (lambda d: d[0]["haystack_dates"].pop(), "e47becba", "haystack_sessions"),
        (
            lambda d: d[0]["haystack_sessions"][1][0].update(role="system"),
            "e47becba",
            "haystack_sessions[1][0].role",
        ),
        (
            lambda d: d[0]["haystack_sessions"][1][0].update(has_answer="yes"),
            "e47becba",
            "haystack_sessions[1][0].has_answer",
        ),
        (
            lambda d: d[0]["haystack_sessions"][0][0].pop("content"),
            "e47becba",
            "haystack_sessions[0][0].content",
        ),
        (
            lambda d: d[1].update(haystack_session_ids="answer_a"),
            "gpt4_2655b836_abs",
            "haystack_session_ids",
        ),
        (lambda d: d[1].pop("question_id"), 1, "question_id"),
        (lambda d: d.__setitem__(0, "instance"), 0, "instance"),
    ],
)
def test_bad_input_names_file_record_and_field(
    tmp_path: Path, change: Any, record: str | int, field: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(_broken(change)), "utf-8")
    with pytest.raises(FormatError) as caught:
        list(LME.read(path))
    assert (caught.value.path, caught.value.record, caught.value.field) == (
        str(path),
        record,
        field,
    )
    assert str(path) in str(caught.value) and field in str(caught.value)


def test_a_file_that_is_not_an_array_or_not_json_is_a_format_error(tmp_path: Path) -> None:
    for text in ("{}", "[{", ""):
        (tmp_path / "longmemeval.json").write_text(text, "utf-8")
        with pytest.raises(FormatError, match=r"longmemeval\.json"):
            list(LME.read(tmp_path))


@SETTINGS
@given(minutes=st.integers(0, 60 * 24 * 365 * 200))
def test_dates_round_trip(minutes: int) -> None:
    iso = iso_minute(dt.datetime(1950, 1, 1) + dt.timedelta(minutes=minutes))
    assert DATE.fullmatch(to_longmemeval(iso))
    assert from_longmemeval(to_longmemeval(iso)) == iso


def test_times_other_readers_leave_in_records_are_written_too() -> None:
    assert to_longmemeval("2024年04月01日 周一 08:30") == "2024/04/01 (Mon) 08:30"
    assert to_longmemeval("1:56 pm on 8 May, 2023") == "2023/05/08 (Mon) 13:56"
    assert to_longmemeval("2024-01-01T00:05:59") == "2024/01/01 (Mon) 00:05"
    with pytest.raises(ValueError, match="not a time memsim reads"):
        to_longmemeval("yesterday")


LOCOMO = Path(__file__).resolve().parents[2] / ".." / "shared" / "locomo" / "locomo10.json"


@pytest.mark.skipif(not LOCOMO.is_file(), reason=f"no LoCoMo data at {LOCOMO}")
def test_locomo_questions_export_to_valid_longmemeval(tmp_path: Path) -> None:
    from memsim.formats import locomo  # noqa: F401  (registers the reader)

    recs = list(FORMATS.get("locomo").read(LOCOMO))[:200:10]
    data = _export(tmp_path, recs)
    for instance in data:
        validate(instance)
    types = {d["question_type"] for d in data}
    assert {"multi-session", "single-session-user"} & types
    abstentions = [d for d, r in zip(data, recs, strict=True) if r.extra["category"] == 5]
    assert abstentions and all(d["question_id"].endswith("_abs") for d in abstentions)


def test_question_ids_stay_unique_when_tids_repeat(tmp_path: Path) -> None:
    """Records read from MemDaily's per-type files repeat their tids."""
    recs = fixed_records(3)
    recs = [dataclasses.replace(r, tid=7) for r in recs]
    recs[2] = dataclasses.replace(recs[2], type="abstention")
    data = _export(tmp_path, recs)
    assert [d["question_id"] for d in data] == ["7", "7-2", "7_abs"]
