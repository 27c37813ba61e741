"""Reading and writing the MemDaily format, on the real release and on our own records."""

from __future__ import annotations

import copy
from collections import Counter
from pathlib import Path

import orjson
import pytest

from memsim.formats.memdaily import (
    TYPES,
    MemDailyFormatError,
    MemDailyItem,
    drop_flagged,
    read_memdaily,
    write_memdaily,
)
from memsim.records import record_from_json

REAL = Path(__file__).parents[2].parent / "shared" / "memdaily"

# the release's own data_card_raw.csv (nuster1128/MemSim, data_generation/final_dataset)
RELEASE_QUESTIONS = dict(zip(TYPES, (500, 500, 492, 462, 500, 500), strict=True))
RELEASE_MESSAGES = dict(zip(TYPES, (4215, 4195, 3144, 5536, 4438, 4475), strict=True))


@pytest.fixture(scope="module")
def real_items() -> list[MemDailyItem]:
    if not (REAL / "01_simple_roles.json").is_file():
        pytest.skip(
            f"the MemDaily reference data is not at {REAL} (it is only on the project's machines)"
        )
    return read_memdaily(REAL)


# --------------------------------------------------------------------------- the release


def test_real_folder_reads_all_26_files_flagged_items_included(real_items):
    assert len({item.source for item in real_items}) == 26
    assert len(real_items) == 3000  # 100 trajectories per (type, scenario) and profile split
    assert {item.type for item in real_items} == set(TYPES)
    flagged = [item for item in real_items if item.flags]
    assert len(flagged) == 46
    assert Counter(item.type for item in flagged) == {"comparative": 8, "aggregative": 38}
    # every failure carries [ERRORQ]; 30 also have a broken answer, choices and ground truth
    assert all("error_question" in item.flags for item in flagged)
    assert sum("error_answer" in item.flags for item in flagged) == 30
    assert sum(item.qa["answer"] is None for item in flagged) == 11


def test_real_folder_after_the_filter_matches_the_release(real_items):
    kept = drop_flagged(real_items)
    assert len(kept) == 2954
    assert sum(len(item.messages) for item in kept) == 26003
    assert Counter(item.type for item in kept) == RELEASE_QUESTIONS
    messages = Counter()
    for item in kept:
        messages[item.type] += len(item.messages)
    assert messages == RELEASE_MESSAGES
    assert [t for t in dict.fromkeys(item.type for item in kept)] == list(TYPES)


def test_real_items_have_memdaily_fields(real_items):
    item = real_items[0]
    assert (item.type, item.scenario, item.tid) == ("simple", "roles", 0)
    assert item.source == str(REAL / "01_simple_roles.json")
    assert list(item.messages[0]) == ["mid", "message", "time", "place"]
    assert list(item.qa) == [
        "qid",
        "question",
        "answer",
        "target_step_id",
        "choices",
        "ground_truth",
        "time",
    ]
    assert item.messages[0]["time"] == "2024年04月01日 周一 08:39"
    assert item.qa["ground_truth"] in item.qa["choices"]


def test_single_per_type_file(real_items):
    items = read_memdaily(REAL / "04_aggregative_roles.json")
    assert len(items) == 100
    assert {(i.type, i.scenario) for i in items} == {("aggregative", "roles")}
    assert items == [i for i in real_items if i.source.endswith("04_aggregative_roles.json")]


def test_release_filter_through_our_writer_reads_back_as_merged(real_items, tmp_path):
    """The release's merged form, rebuilt from the per-type files, reads back the same."""
    kept = drop_flagged(real_items)
    merged: dict = {}
    for item in kept:
        bucket = merged.setdefault(item.type, {}).setdefault(item.scenario, [])
        bucket.append({"tid": len(bucket), "message_list": list(item.messages), "QA": item.qa})
    (tmp_path / "memdaily.json").write_bytes(orjson.dumps(merged))
    back = read_memdaily(tmp_path)
    assert len(back) == 2954 and not any(i.flags for i in back)
    assert [(i.messages, i.qa) for i in back] == [(i.messages, i.qa) for i in kept]


# --------------------------------------------------------------------------- our records


def _record(tid: int, type_: str, scenario: str, texts: list[str], day: int) -> dict:
    messages = [
        {
            "mid": j,
            "message": text,
            "time": f"2024-04-{day + j:02d}T0{7 + j}:5{j}",
            "place": "home, Boston",
            "role": "evidence" if j == 0 else "noise",
            "facts": ["relative[0].age"] if j == 0 else [],
        }
        for j, text in enumerate(texts)
    ]
    return {
        "format_version": 1,
        "tid": tid,
        "type": type_,
        "scenario": scenario,
        "profile_id": f"p{tid:06d}",
        "locale": "en",
        "message_list": messages,
        "QA": {
            "qid": 0,
            "question": f"Question {tid}?",
            "answer": f"answer {tid}",
            "choices": {"A": f"answer {tid}", "B": "b", "C": "c", "D": "d"},
            "ground_truth": "A",
            "target_step_id": [0],
            "time": f"2024-04-{day + 5:02d}T10:00",
            "provenance": {
                "fact_ids": ["relative[0].age"],
                "transform": "identity",
                "params": {},
                "reference_time": "2024-04-05T10:00",
                "answer_value": 61,
            },
        },
    }


RAW = [
    _record(12, "simple", "roles", ["My mother is 61.", "Nice weather."], 1),
    _record(40, "noisy", "events", ["The launch is next Friday at 7:30 PM."], 3),
    _record(7, "simple", "roles", ["My boss lives in Denver.", "I like tea.", "Busy day."], 10),
    _record(3, "simple", "hybrid", ["My cousin is 30. And another: my aunt is 50."], 20),
]
RECORDS = [record_from_json(r) for r in RAW]


def test_memdaily_shape_order_and_times(tmp_path):
    write_memdaily(RECORDS, tmp_path / "memdaily.json", "en")
    merged = orjson.loads((tmp_path / "memdaily.json").read_bytes())
    assert list(merged) == ["simple", "noisy"]
    assert list(merged["simple"]) == ["roles", "hybrid"]
    roles = merged["simple"]["roles"]
    assert [t["tid"] for t in roles] == [0, 1]
    assert list(roles[0]) == ["tid", "message_list", "QA"]
    assert roles[0]["message_list"][0] == {
        "mid": 0,
        "message": "My mother is 61.",
        "time": "2024-04-01 Mon 07:50",
        "place": "home, Boston",
    }
    assert roles[0]["QA"] == {
        "qid": 0,
        "question": "Question 12?",
        "answer": "answer 12",
        "target_step_id": [0],
        "choices": {"A": "answer 12", "B": "b", "C": "c", "D": "d"},
        "ground_truth": "A",
        "time": "2024-04-06 Sat 10:00",
    }
    assert list(roles[0]["QA"]) == [
        "qid",
        "question",
        "answer",
        "target_step_id",
        "choices",
        "ground_truth",
        "time",
    ]
    assert merged["noisy"]["events"][0]["tid"] == 0


def test_round_trip_and_byte_identical_rewrite(tmp_path):
    loc = "en"
    out = tmp_path / "out" / "memdaily.json"
    write_memdaily(RECORDS, out, loc)
    first = out.read_bytes()
    assert first.endswith(b"}\n") and b'\n  "simple": {\n' in first
    for gone in (b'"provenance"', b'"facts"', b'"role"', b'"profile_id"', b'"format_version"'):
        assert gone not in first

    back = read_memdaily(out)
    assert read_memdaily(out.parent) == back  # a folder holding memdaily.json
    assert [(i.type, i.scenario, i.tid) for i in back] == [
        ("simple", "roles", 0),
        ("simple", "roles", 1),
        ("simple", "hybrid", 0),
        ("noisy", "events", 0),
    ]
    by_tid = {12: back[0], 7: back[1], 3: back[2], 40: back[3]}
    for record in RAW:
        item = by_tid[record["tid"]]
        assert item.flags == () and item.source == str(out)
        for key in ("mid", "message", "place"):
            assert [m[key] for m in item.messages] == [m[key] for m in record["message_list"]]
        qa = record["QA"]
        assert {
            k: item.qa[k]
            for k in ("qid", "question", "answer", "choices", "ground_truth", "target_step_id")
        } == {
            k: qa[k]
            for k in ("qid", "question", "answer", "choices", "ground_truth", "target_step_id")
        }
    assert back[0].messages[1]["time"] == "2024-04-02 Tue 08:51"

    write_memdaily(RECORDS, out, loc)
    assert out.read_bytes() == first
    assert [p.name for p in out.parent.iterdir()] == ["memdaily.json"]  # no temp files left


def test_write_memdaily_keeps_a_time_that_is_not_iso(tmp_path):
    """Records read from MemDaily or another format keep their own time strings."""
    foreign = copy.deepcopy(RAW[0])
    foreign["message_list"][0]["time"] = "2024年04月03日 周三 07:53"
    write_memdaily([record_from_json(foreign)], tmp_path / "m.json", "en")
    written = orjson.loads((tmp_path / "m.json").read_bytes())["simple"]["roles"][0]
    assert written["message_list"][0]["time"] == "2024年04月03日 周三 07:53"
    assert written["message_list"][1]["time"] == "2024-04-02 Tue 08:51"


# --------------------------------------------------------------------------- bad input


def test_missing_path(tmp_path):
    missing = tmp_path / "nope" / "memdaily.json"
    with pytest.raises(MemDailyFormatError, match="does not exist") as err:
        read_memdaily(missing)
    assert str(missing) in str(err.value)


def test_invalid_json_names_file_and_position(tmp_path):
    bad = tmp_path / "memdaily.json"
    bad.write_text('{"simple": {"roles": [\n  {"tid": 0,, }\n]}}\n', encoding="utf-8")
    with pytest.raises(MemDailyFormatError) as err:
        read_memdaily(bad)
    assert str(bad) in str(err.value)
    assert "line 2, column" in str(err.value) and "invalid JSON" in str(err.value)
    with pytest.raises(MemDailyFormatError, match="invalid JSON"):
        read_memdaily(tmp_path)  # the same file found through its folder


def _merged_with(qa_change: dict | None = None, **top) -> dict:
    qa = {
        "qid": 0,
        "question": "q?",
        "answer": "a",
        "target_step_id": [0],
        "choices": {"A": "a", "B": "b"},
        "ground_truth": "A",
        "time": "t",
    }
    qa.update(qa_change or {})
    traj = {
        "tid": 0,
        "message_list": [{"mid": 0, "message": "m", "time": "t", "place": "p"}],
        "QA": qa,
    }
    return top.get("data", {"simple": {"roles": [traj]}})


@pytest.mark.parametrize(
    ("data", "where", "problem"),
    [
        ([1, 2], "$", "expected an object"),
        ({"simple": [1]}, "$.simple", "expected an object"),
        ({"trivia": {"roles": []}}, "$.trivia", "unknown question type"),
        ({"simple": {"roles": {"tid": 0}}}, "$.simple.roles", "expected a list"),
        (
            _merged_with({"choices": ["a", "b"]}),
            "$.simple.roles[0].QA.choices",
            "expected an object",
        ),
        (
            _merged_with({"target_step_id": ["0"]}),
            "$.simple.roles[0].QA.target_step_id[0]",
            "integer",
        ),
        (_merged_with({"answer": 3}), "$.simple.roles[0].QA.answer", "a string or null"),
        (
            _merged_with(data={"simple": {"roles": [{"tid": 0, "message_list": []}]}}),
            "$.simple.roles[0].QA",
            "missing",
        ),
        (
            _merged_with(
                data={
                    "simple": {
                        "roles": [
                            {"tid": 0, "QA": {}, "message_list": [{"mid": 0, "message": None}]}
                        ]
                    }
                }
            ),
            "$.simple.roles[0].message_list[0].message",
            "expected a string",
        ),
    ],
)
def test_wrong_structure_names_file_and_key_path(tmp_path, data, where, problem):
    bad = tmp_path / "memdaily.json"
    bad.write_bytes(orjson.dumps(data))
    with pytest.raises(MemDailyFormatError, match=problem) as err:
        read_memdaily(bad)
    assert str(err.value).startswith(f"{bad}: {where}: ")
    assert err.value.path == str(bad) and err.value.where == where


def test_flagged_items_are_kept_and_marked(tmp_path):
    data = _merged_with(
        {"question": "[ERRORQ]", "answer": None, "choices": "[ERRORC]", "ground_truth": "[ERRORG]"}
    )
    (tmp_path / "memdaily.json").write_bytes(orjson.dumps(data))
    [item] = read_memdaily(tmp_path)
    assert item.flags == ("error_question", "error_answer", "error_choices", "error_ground_truth")
    assert drop_flagged([item]) == []


def test_per_type_folder_problems(tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "graphs.json").write_text("{}", encoding="utf-8")
    with pytest.raises(MemDailyFormatError, match=r"holds neither memdaily\.json") as err:
        read_memdaily(empty)
    assert str(empty) in str(err.value)

    folder = tmp_path / "per_type"
    folder.mkdir()
    traj = {
        "tid": 0,
        "message_list": [],
        "question_list": [
            {
                "qid": 0,
                "question": "q",
                "answer": "a",
                "target_step_id": [],
                "choices": {"A": "a"},
                "ground_truth": "A",
                "time": "t",
            }
        ]
        * 2,
    }
    bad = folder / "02_conditional_items.json"
    bad.write_bytes(orjson.dumps([traj]))
    with pytest.raises(MemDailyFormatError, match="exactly one question, got 2") as err:
        read_memdaily(folder)
    assert str(err.value).startswith(f"{bad}: $[0].question_list: ")

    bad.write_bytes(orjson.dumps({"tid": 0}))
    with pytest.raises(MemDailyFormatError, match="expected a list of trajectories"):
        read_memdaily(folder)

    traj["question_list"] = traj["question_list"][:1]
    bad.write_bytes(orjson.dumps([traj]))
    [item] = read_memdaily(folder)
    assert (item.type, item.scenario, item.source) == ("conditional", "items", str(bad))

    # both forms in one folder: say which one to read
    (folder / "memdaily.json").write_bytes(orjson.dumps(_merged_with()))
    with pytest.raises(MemDailyFormatError, match=r"both memdaily\.json and per-type files"):
        read_memdaily(folder)
    assert read_memdaily(folder, form="per_type") == [item]
    assert [i.type for i in read_memdaily(folder, form="merged")] == ["simple"]
