"""The record types: native JSON round trip on generated data, version 1 read, errors
that name the field."""

from __future__ import annotations

import copy
import dataclasses
import pickle
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memsim.dataset import GenerateOptions, generate_records
from memsim.graph import BRNet
from memsim.profile import write_profiles
from memsim.records import (
    QA,
    USER,
    Record,
    RecordError,
    Session,
    Turn,
    record_from_json,
    record_to_json,
)
from memsim.sampling import ProfileSampler
from memsim.schema import load_schema

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = ROOT / "schemas" / "daily_life.en.yaml"


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> list[Record]:
    schema = load_schema(SCHEMA)
    folder = tmp_path_factory.mktemp("records") / "profiles"
    options = GenerateOptions(seed=3, per_type=5)
    n = len(options.types) * options.per_type
    profiles = ProfileSampler(BRNet(schema)).profiles(3, 0, n)
    write_profiles(profiles, folder, {"schema": {"name": schema.name}, "start": 0})
    return list(generate_records(schema, folder, options))


def test_generated_records_round_trip(generated: list[Record]) -> None:
    assert len(generated) == 5 * len(GenerateOptions().types)
    for record in generated:
        data = record_to_json(record)
        assert data["format_version"] == 2
        assert record_from_json(data) == record
        assert record.qa.provenance is not None and record.qa.gold in ("A", "B", "C", "D")
        assert set(record.qa.evidence) <= {t.id for t in record.turns}


def test_records_pickle_as_constructor_calls_and_load_equal(generated: list[Record]) -> None:
    """Workers send their records to the parent pickled: each type pickles as a call of
    its constructor on every field, in order, and loads equal, field for field, to
    what the dataclasses module's own field-by-field state gives."""
    for record in generated:
        objects = [record, record.qa, record.qa.provenance, *record.sessions, *record.turns]
        for obj in objects:
            cls, args = obj.__reduce__()  # type: ignore[misc]
            assert cls is type(obj)
            assert args == tuple(getattr(obj, f.name) for f in dataclasses.fields(obj))
        back = pickle.loads(pickle.dumps(record, protocol=pickle.HIGHEST_PROTOCOL))
        assert back == record and record_to_json(back) == record_to_json(record)
        assert type(back.turns[0]) is Turn and type(back.qa.provenance).__name__ == "Provenance"


def test_an_llm_rewrite_keeps_its_template() -> None:
    turn = Turn(0, USER, "my mom's 61 now", "2024-04-01T08:00", template="My mother is 61.")
    qa = QA("How old?", "61", ("61", "62", "63", "64"), "A", (0,), "2024-04-02T08:00")
    record = Record(1, "simple", "roles", (Session("s0", turn.time, (turn,)),), qa)
    data = record_to_json(record)
    assert data["message_list"][0]["template"] == "My mother is 61."
    assert "template" not in data["QA"]
    assert record_from_json(data) == record


def v1_record() -> dict[str, Any]:
    """A line of dataset.jsonl as memsim wrote it before format version 2."""
    return {
        "format_version": 1,
        "tid": 4,
        "type": "simple",
        "scenario": "roles",
        "profile_id": "p000004",
        "locale": "en",
        "message_list": [
            {
                "mid": 0,
                "message": "My mother is 61.",
                "time": "2024-04-01T07:50",
                "place": "home",
                "role": "evidence",
                "facts": ["relative[0].age"],
                "verbalizer": "template",
            },
            {
                "mid": 1,
                "message": "Nice day.",
                "time": "2024-04-01T09:00",
                "place": "park",
                "role": "chit_chat",
                "facts": [],
                "verbalizer": "template",
            },
        ],
        "QA": {
            "qid": 0,
            "question": "How old is my mother?",
            "answer": "61",
            "choices": {"A": "58", "B": "61", "C": "64", "D": "70"},
            "ground_truth": "B",
            "target_step_id": [0],
            "time": "2024-04-02T10:00",
            "provenance": {
                "fact_ids": ["relative[0].age"],
                "withheld": [],
                "transform": "identity",
                "params": {"entity": "relative[0]", "attribute": "age"},
                "reference_time": "2024-04-02T10:00",
                "answer_value": 61,
            },
            "verbalizer": "template",
        },
    }


def test_version_1_is_read_as_one_session_of_user_turns() -> None:
    record = record_from_json(v1_record())
    assert len(record.sessions) == 1 and record.sessions[0].start == "2024-04-01T07:50"
    assert [t.speaker for t in record.turns] == [USER, USER]
    assert [t.purpose for t in record.turns] == ["evidence", "chit_chat"]
    assert record.qa.options == ("58", "61", "64", "70") and record.qa.gold == "B"
    assert record.qa.choices["B"] == record.qa.answer
    assert record.qa.provenance is not None and record.qa.provenance.answer_value == 61
    again = record_to_json(record)
    assert again["format_version"] == 2 and record_from_json(again) == record


@pytest.mark.parametrize(
    ("path", "value", "field", "problem"),
    [
        (("QA",), None, "QA", "missing"),
        (("QA", "choices"), None, "QA.choices", "missing"),
        (("QA", "choices"), ["58"], "QA.choices", "must be an object"),
        (("QA", "ground_truth"), "E", "QA.ground_truth", "not one of the choices"),
        (("QA", "target_step_id"), "0", "QA.target_step_id", "must be a list"),
        (("message_list", 1, "time"), 900, "message_list[1].time", "must be a string"),
        (("message_list", 0, "mid"), None, "message_list[0].mid", "missing"),
        (("message_list", 0, "speaker"), "bot", "message_list[0].speaker", "not user"),
        (("tid",), "4", "tid", "must be an integer"),
        (("format_version",), 9, "format_version", "not a version"),
    ],
)
def test_errors_name_the_field(path: tuple[Any, ...], value: Any, field: str, problem: str) -> None:
    data = copy.deepcopy(v1_record())
    target = data
    for key in path[:-1]:
        target = target[key]
    if value is None:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    with pytest.raises(RecordError) as err:
        record_from_json(data)
    assert err.value.field == field and problem in err.value.problem


_FIELDS = ("mid", "message", "time", "session", "speaker", "facts", "place", "role",
           "verbalizer", "template")  # fmt: skip
_ODD = [None, 1, True, 2.5, "x", "user", "assistant", [], ["a"], ["a", 1], {}, ("a",)]


def _read_turn(m: Any) -> tuple[str, Turn] | str:
    from memsim.records import _plain_turn, _turn_checked

    fast = _plain_turn(m)
    try:
        slow = _turn_checked(m, 0)
    except RecordError as exc:
        assert fast is None  # the quick path never accepts what the full one refuses
        return str(exc)
    assert fast is None or fast == slow
    return slow


@given(
    st.fixed_dictionaries(
        {},
        optional={f: st.sampled_from(_ODD) for f in _FIELDS},
    )
)
def test_quick_turn_path_reads_as_the_field_by_field_one(m: dict[str, Any]) -> None:
    base = {"mid": 3, "message": "Hi.", "time": "2024-05-01T09:00", "facts": ["user.age"]}
    _read_turn(m)
    _read_turn(base | m)
    _read_turn([base])


def test_quick_turn_path_takes_plain_messages() -> None:
    from memsim.records import _plain_turn

    m = {"mid": 0, "message": "Hi.", "time": "2024-05-01T09:00", "speaker": USER}
    assert _plain_turn(m) == ("s0", Turn(0, USER, "Hi.", "2024-05-01T09:00"))
    assert _plain_turn(m | {"mid": True}) is None
