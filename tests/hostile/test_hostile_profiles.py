"""Profiles that do not match their schema are bad input wherever they are read
(generate, audit): the file and the field are named, exit 2, no traceback, even when
no question reads the broken value."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hostile_run import SCHEMA, assert_refused, audit_args, memsim

from memsim.profile import ProfileError, read_profile
from memsim.schema import load_schema


def edit_fact(folder: Path, index: int, fact_id: str, value: Any) -> Path:
    path = folder / "profiles" / f"p{index:06d}.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    for entity in data["entities"]:
        for fact in entity["facts"]:
            if fact["id"] == fact_id:
                fact["value"] = value
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def edit_json(folder: Path, index: int, change: Callable[[dict[str, Any]], None]) -> Path:
    path = folder / "profiles" / f"p{index:06d}.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def _unknown_kind(d: dict[str, Any]) -> None:
    d["entities"][1]["kind"] = "dragon"


def _drop_attr(d: dict[str, Any]) -> None:
    d["entities"][0]["facts"].pop()


def _bad_type(d: dict[str, Any]) -> None:
    d["entities"][0]["facts"][0]["type"] = "integer"


BROKEN: dict[str, tuple[Callable[[Path, int], Path], str]] = {
    "forty-two": (lambda f, i: edit_fact(f, i, "user.age", "forty-two"), "user.age: value 'forty-two' is not an integer"),
    "age as float": (lambda f, i: edit_fact(f, i, "user.age", 41.5), "is not an integer"),
    "age out of range": (lambda f, i: edit_fact(f, i, "user.age", -7), "outside"),
    "unknown city": (lambda f, i: edit_fact(f, i, "user.work_city", "Atlantis"), "'Atlantis' is not one of"),
    "null gender": (lambda f, i: edit_fact(f, i, "user.gender", None), "user.gender: value None"),
    "bad birthday": (lambda f, i: edit_fact(f, i, "user.birthday", "13-45"), "not a month and day"),
    "unknown kind": (lambda f, i: edit_json(f, i, _unknown_kind), "no entity kind 'dragon'"),
    "missing attribute": (lambda f, i: edit_json(f, i, _drop_attr), ": missing"),
    "wrong fact type": (lambda f, i: edit_json(f, i, _bad_type), "the schema says 'text'"),
    "not an object": (lambda f, i: (f / "profiles" / f"p{i:06d}.json").write_text("[1]") and f / "profiles" / f"p{i:06d}.json", "not a valid profile"),
    "truncated": (lambda f, i: (f / "profiles" / f"p{i:06d}.json").write_text('{"id": "p0') and f / "profiles" / f"p{i:06d}.json", "not a valid profile"),
}  # fmt: skip


@pytest.mark.parametrize("case", list(BROKEN))
def test_every_break_is_named(small: Path, case: str) -> None:
    make, needle = BROKEN[case]
    path = make(small, 3)
    with pytest.raises(ProfileError, match=re.escape(needle)) as info:
        read_profile(path, load_schema(SCHEMA))
    assert str(info.value).startswith(str(path))


@pytest.mark.parametrize("case", ["forty-two", "unknown kind", "truncated"])
def test_generate_names_file_and_field(small: Path, case: str) -> None:
    make, needle = BROKEN[case]
    path = make(small, 3)
    out = small / "again"
    proc = memsim(
        "generate", "--schema", SCHEMA, "--profiles", small / "profiles", "--out", out,
        "--per-type", 10, "--types", "simple", "--no-progress",
    )  # fmt: skip
    assert_refused(proc, str(path), needle)
    assert not out.exists()


@pytest.mark.parametrize("case", ["forty-two", "missing attribute"])
def test_audit_names_file_and_field(small: Path, case: str) -> None:
    make, needle = BROKEN[case]
    first = json.loads((small / "dataset" / "dataset.jsonl").read_text().splitlines()[0])
    path = make(small, int(first["profile_id"][1:]))
    proc = memsim(*audit_args(small), "--check", "messages_state_facts")
    assert_refused(proc, str(path), needle)


def test_a_value_no_question_reads_is_caught(small: Path) -> None:
    # the user's email is asked only by post-processing questions; a simple-only run
    # reading the profile still refuses it
    path = edit_fact(small, 0, "user.email", 12345)
    proc = memsim(
        "generate", "--schema", SCHEMA, "--profiles", small / "profiles", "--out",
        small / "again", "--per-type", 1, "--types", "simple", "--no-progress",
    )  # fmt: skip
    assert_refused(proc, str(path), "user.email: value 12345 is not a non-empty string")


def test_profile_id_is_not_a_path(small: Path) -> None:
    file = small / "dataset" / "dataset.jsonl"
    lines = file.read_text(encoding="utf-8").splitlines()
    record = json.loads(lines[0])
    record["profile_id"] = "../../../etc/passwd"
    file.write_text("\n".join([json.dumps(record), *lines[1:]]) + "\n", encoding="utf-8")
    proc = memsim(*audit_args(small), "--check", "messages_state_facts")
    assert_refused(proc, "is not a memsim profile id")
