"""LoCoMo: native -> locomo.json -> records keeps what the format holds; the real
locomo10.json reads (10 conversations, 1,986 questions) and writes back as it was; bad
files are FormatErrors naming file, record and field."""

from __future__ import annotations

import copy
import dataclasses
import datetime as dt
import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from record_strategies import SETTINGS, fixed_records, history_view, records

from memsim.formats import FORMATS, ExportInfo, FormatError
from memsim.formats._dates import from_locomo, iso_minute, sessions_by_day, to_locomo
from memsim.formats.locomo import CATEGORIES, UNANSWERABLE, category
from memsim.records import QA, Record, Session, Turn

LOCOMO = FORMATS.get("locomo")
SHARED = Path(__file__).resolve().parents[2] / ".." / "shared"
REAL = SHARED / "locomo" / "locomo10.json"
needs_real = pytest.mark.skipif(
    not REAL.is_file(), reason=f"no LoCoMo data at {REAL} (../shared beside the clone)"
)


def _export(out: Path, recs: list[Record], info: ExportInfo | None = None) -> list[dict[str, Any]]:
    out.mkdir(exist_ok=True)
    assert LOCOMO.write(recs, out, info or ExportInfo()) == ["locomo.json"]
    data: list[dict[str, Any]] = json.loads((out / "locomo.json").read_text("utf-8"))
    return data


@SETTINGS
@given(recs=records())
def test_native_to_locomo_and_back_keeps_what_the_format_holds(
    tmp_path_factory: pytest.TempPathFactory, recs: list[Record]
) -> None:
    tmp = tmp_path_factory.mktemp("locomo")
    data = _export(tmp / "out", recs)
    for conversation in data:
        conv = conversation["conversation"]
        sessions = [k for k in conv if re.fullmatch(r"session_\d+", k)]
        assert sessions == [f"session_{n}" for n in range(1, len(sessions) + 1)]
        for n, key in enumerate(sessions, start=1):
            assert [t["dia_id"] for t in conv[key]] == [
                f"D{n}:{k}" for k in range(1, len(conv[key]) + 1)
            ]
    back = list(LOCOMO.read(tmp / "out"))
    assert len(back) == len(recs)
    for before, after in zip(recs, back, strict=True):
        assert history_view(after) == history_view(before, by_day=True)
        cat = category(before)
        assert after.type == CATEGORIES[cat] and after.extra["category"] == cat
        assert after.qa.answer == (UNANSWERABLE if cat == 5 else before.qa.answer)
        assert after.qa.time == sessions_by_day(before.sessions)[-1].start
        assert (after.qa.options, after.qa.gold) == ((), None)
    again = tmp / "again"
    _export(again, back)
    assert (again / "locomo.json").read_bytes() == (tmp / "out" / "locomo.json").read_bytes()


@pytest.mark.parametrize(
    ("kind", "evidence", "expected"),
    [
        ("simple", (0,), 4), ("noisy", (0,), 4), ("conditional", (0, 1), 1), ("comparative", (0, 1), 1),
        ("aggregative", (0, 1), 1), ("post_processing", (0,), 3), ("temporal", (0,), 2),
        ("knowledge_update", (0,), 2), ("abstention", (), 5), ("multi-session", (0, 1), 1),
        ("single-session-user", (0,), 4), ("temporal-reasoning", (0,), 2),
        ("something_new", (0,), 4), ("something_new", (0, 1), 1),
    ],
)  # fmt: skip
def test_kinds_map_to_categories_as_the_table_says(
    kind: str, evidence: tuple[int, ...], expected: int
) -> None:
    turns = (Turn(0, "user", "a", "2024-01-01T10:00"), Turn(1, "user", "b", "2024-01-01T10:05"))
    qa = QA("q?", "a", (), None, evidence, "2024-01-02T10:00")
    assert (
        category(Record(0, kind, "roles", (Session("s0", turns[0].time, turns),), qa)) == expected
    )


def test_the_user_is_named_from_the_profile_and_records_sharing_a_history_share_a_conversation(
    tmp_path: Path,
) -> None:
    profiles = tmp_path / "profiles"
    profiles.mkdir()
    user = {
        "id": "user",
        "kind": "user",
        "facts": [{"attribute": "name", "id": "user.name", "value": "Kayla Mcmillan"}],
    }
    (profiles / "p000000.json").write_text(json.dumps({"entities": [user]}), "utf-8")
    a, b, c = fixed_records(3)
    b = Record(b.tid, b.type, b.scenario, a.sessions, b.qa, "p000001")  # same history as a
    data = _export(tmp_path / "out", [a, b, c], ExportInfo(profiles=profiles))
    assert [d["sample_id"] for d in data] == ["memsim-0", "memsim-2"]
    assert [len(d["qa"]) for d in data] == [2, 1]
    assert data[0]["conversation"]["speaker_a"] == "Kayla Mcmillan"
    assert data[1]["conversation"]["speaker_a"] == "User"  # p000002 has no profile file
    assert data[0]["conversation"]["session_1"][0]["speaker"] == "Kayla Mcmillan"
    assert data[0]["qa"][0] == {
        "question": "Question 0?",
        "answer": "B value",
        "evidence": ["D1:2"],
        "category": 4,
    }
    one, two, _ = LOCOMO.read(tmp_path / "out")
    assert one.sessions is two.sessions


@needs_real
def test_the_real_locomo10_reads_with_every_question() -> None:
    assert LOCOMO.detect(REAL)
    recs = list(LOCOMO.read(REAL))
    assert len(recs) == 1986 and [r.tid for r in recs] == list(range(1986))
    assert len({id(r.sessions) for r in recs}) == 10
    assert Counter(r.extra["category"] for r in recs) == {1: 282, 2: 321, 3: 96, 4: 841, 5: 446}
    conversations = {r.extra["sample_id"]: r for r in recs}
    assert sum(len(r.sessions) for r in conversations.values()) == 272
    assert sum(len(r.turns) for r in conversations.values()) == 5882
    missing = [e for r in recs for e in r.extra.get("missing_evidence", [])]
    assert len(missing) == 9 and "D30:05" in missing and "D8:6; D9:17" in missing
    assert sum("answer_given" in r.extra for r in recs) == 2
    assert {r.qa.answer for r in recs if r.extra["category"] == 5} == {UNANSWERABLE}
    assert "2022" in {r.qa.answer for r in recs}  # numbers are read as text
    first = recs[0]
    assert first.extra["speakers"] == ["Caroline", "Melanie"]
    assert first.sessions[0].start == "2023-05-08T13:56"  # 1:56 pm on 8 May, 2023
    assert all(r.extra["dia_ids"][e].startswith("D") for r in recs for e in r.qa.evidence)
    assert recs[1].extra["dia_ids"] is first.extra["dia_ids"]  # one list per conversation


@needs_real
def test_the_real_locomo10_writes_back_as_it_was(tmp_path: Path) -> None:
    """Up to what the reader documents it drops: images, event summaries, session dates
    without a session, numbers in answers (read as text); evidence ids naming no turn are
    written after the others."""
    data = _export(tmp_path / "out", list(LOCOMO.read(REAL)))
    original = json.loads(REAL.read_text("utf-8"))
    expected = copy.deepcopy(original)
    for conv in expected:
        conv.pop("event_summary", None)
        c = conv["conversation"]
        for key in list(c):
            if key.endswith("_date_time") and key.removesuffix("_date_time") not in c:
                del c[key]
            elif re.fullmatch(r"session_\d+", key):
                c[key] = [{k: t[k] for k in ("speaker", "dia_id", "text")} for t in c[key]]
        known = {t["dia_id"] for key in c if re.fullmatch(r"session_\d+", key) for t in c[key]}
        for q in conv["qa"]:
            q["evidence"] = sorted(q["evidence"], key=lambda e: e not in known)
            if "answer" in q:
                q["answer"] = str(q["answer"])
    norm = json.dumps(expected, sort_keys=True)
    assert json.dumps(data, sort_keys=True) == norm


def _conversation() -> list[dict[str, Any]]:
    return [
        {
            "sample_id": "conv-1",
            "conversation": {
                "speaker_a": "Ann",
                "speaker_b": "Bob",
                "session_1_date_time": "1:56 pm on 8 May, 2023",
                "session_1": [
                    {"speaker": "Ann", "dia_id": "D1:1", "text": "I moved to Oslo."},
                    {"speaker": "Bob", "dia_id": "D1:2", "text": "Nice!", "img_url": ["x"]},
                ],
            },
            "qa": [
                {
                    "question": "Where did Ann move?",
                    "answer": "Oslo",
                    "evidence": ["D1:1"],
                    "category": 4,
                },
                {
                    "question": "Where did Bob move?",
                    "adversarial_answer": "Oslo",
                    "evidence": ["D1:9"],
                    "category": 5,
                },
            ],
        }
    ]


@pytest.mark.parametrize(
    ("change", "record", "field"),
    [
        (lambda d: d[0]["conversation"].pop("speaker_b"), "conv-1", "conversation.speaker_b"),
        (lambda d: d[0]["conversation"].update(session_1="hi"), "conv-1", "conversation.session_1"),
        (
            lambda d: d[0]["conversation"].pop("session_1_date_time"),
            "conv-1",
            "conversation.session_1_date_time",
        ),
        (
            lambda d: d[0]["conversation"].update(session_1_date_time="May 8"),
            "conv-1",
            "conversation.session_1_date_time",
        ),
        (
            lambda d: d[0]["conversation"]["session_1"][0].update(speaker="Eve"),
            "conv-1",
            "conversation.session_1[0].speaker",
        ),
        (
            lambda d: d[0]["conversation"]["session_1"][1].pop("dia_id"),
            "conv-1",
            "conversation.session_1[1].dia_id",
        ),
        (lambda d: d[0]["qa"][0].update(category=6), "conv-1", "qa[0].category"),
        (lambda d: d[0]["qa"][0].update(category="4"), "conv-1", "qa[0].category"),
        (lambda d: d[0]["qa"][0].pop("answer"), "conv-1", "qa[0].answer"),
        (lambda d: d[0]["qa"][1].pop("adversarial_answer"), "conv-1", "qa[1].adversarial_answer"),
        (lambda d: d[0]["qa"][1].update(evidence="D1:1"), "conv-1", "qa[1].evidence"),
        (lambda d: d[0].pop("sample_id"), 0, "sample_id"),
        (lambda d: d[0].pop("qa"), "conv-1", "qa"),
    ],
)
def test_bad_input_names_file_record_and_field(
    tmp_path: Path, change: Any, record: str | int, field: str
) -> None:
    data = _conversation()
    change(data)
    path = tmp_path / "locomo.json"
    path.write_text(json.dumps(data), "utf-8")
    with pytest.raises(FormatError) as caught:
        list(LOCOMO.read(tmp_path))
    assert (caught.value.path, caught.value.record, caught.value.field) == (
        str(path),
        record,
        field,
    )


def test_a_small_conversation_reads_as_documented(tmp_path: Path) -> None:
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(_conversation()), "utf-8")
    one, two = LOCOMO.read(path)
    assert [t.speaker for t in one.turns] == ["user", "assistant"]
    assert (
        one.qa.evidence == (0,) and one.type == "single-hop" and one.qa.time == "2023-05-08T13:56"
    )
    assert two.qa.evidence == () and two.extra["missing_evidence"] == ["D1:9"]
    assert two.extra["adversarial_answer"] == "Oslo" and two.qa.answer == UNANSWERABLE


@SETTINGS
@given(minutes=st.integers(0, 60 * 24 * 365 * 200))
def test_dates_round_trip(minutes: int) -> None:
    iso = iso_minute(dt.datetime(1950, 1, 1) + dt.timedelta(minutes=minutes))
    assert re.fullmatch(r"\d{1,2}:\d{2} [ap]m on \d{1,2} [A-Z][a-z]+, \d{4}", to_locomo(iso))
    assert from_locomo(to_locomo(iso)) == iso


def test_dates_in_the_real_forms() -> None:
    assert from_locomo("1:56 pm on 8 May, 2023") == "2023-05-08T13:56"
    assert from_locomo("12:09 am on 13 September, 2023") == "2023-09-13T00:09"
    assert from_locomo("12:30 pm on 1 Jan, 2024") == "2024-01-01T12:30"
    for bad in ("13:00 pm on 8 May, 2023", "1:56 pm on 31 June, 2023", "8 May 2023"):
        with pytest.raises(ValueError, match=r"not|out of range|day"):
            from_locomo(bad)


def test_sample_ids_stay_unique_when_tids_repeat(tmp_path: Path) -> None:
    recs = [dataclasses.replace(r, tid=7) for r in fixed_records(3)]
    data = _export(tmp_path / "out", recs)
    assert [d["sample_id"] for d in data] == ["memsim-7", "memsim-7-2", "memsim-7-3"]
