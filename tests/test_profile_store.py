"""Profile files: written compact (sorted keys, no indent), read alike whether compact
or indented as older memsim wrote them, and a broken file named, never a crash.

``tests/data/profiles_v1_pretty/`` is a folder the indented writer made (memsim at
202fb8c: ``memsim profiles --schema schemas/daily_life.en.yaml --n 3 --seed 0``); it is
committed so that reading it does not depend on any writer still in the code.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import orjson
import pytest

from memsim._io import dumps
from memsim.graph import BRNet
from memsim.profile import (
    Profile,
    ProfileError,
    load_profile,
    profile_bytes,
    read_profile,
    read_profiles,
    write_profiles,
)
from memsim.profile._check import read_bytes
from memsim.sampling import ProfileSampler
from memsim.schema import Schema, load_schema

ROOT = Path(__file__).resolve().parents[1]
PRETTY = ROOT / "tests" / "data" / "profiles_v1_pretty"


@pytest.fixture(scope="module")
def schema() -> Schema:
    return load_schema(ROOT / "schemas" / "daily_life.en.yaml")


def test_profile_bytes_are_compact_sorted_json(schema: Schema) -> None:
    (profile,) = ProfileSampler(BRNet(schema)).profiles(3, 7, 8)
    data = profile_bytes(profile)
    assert data.endswith(b"}\n") and data.count(b"\n") == 1
    assert data == orjson.dumps(profile.to_json(), option=orjson.OPT_SORT_KEYS) + b"\n"
    # the same document as the indented writer's, with the spaces and newlines gone
    assert json.loads(data) == json.loads(dumps(profile.to_json()))
    assert len(data) < 0.7 * len(dumps(profile.to_json()))


def test_an_indented_folder_reads_as_its_compact_copy(schema: Schema, tmp_path: Path) -> None:
    assert b'\n  "changes": [\n' in (PRETTY / "p000000.json").read_bytes()  # indented
    pretty = list(read_profiles(PRETTY))
    assert [p.index for p in pretty] == [0, 1, 2]
    count = write_profiles(pretty, tmp_path / "compact", {"schema": {"name": "daily_life"}})
    assert count == 3
    for k, profile in enumerate(pretty):
        compact = (tmp_path / "compact" / f"p{k:06d}.json").read_bytes()
        assert compact == profile_bytes(profile)
        assert json.loads(compact) == json.loads((PRETTY / f"p{k:06d}.json").read_bytes())
        # checked against the schema, each reads to the same profile
        assert load_profile(PRETTY, k, schema) == profile
        assert load_profile(tmp_path / "compact", k, schema) == profile


def test_a_rewritten_folder_is_the_same_bytes(schema: Schema, tmp_path: Path) -> None:
    """Written, read and written again: byte-identical (the writer is canonical)."""
    profiles = list(ProfileSampler(BRNet(schema)).profiles(11, 0, 4))
    write_profiles(profiles, tmp_path / "a", {"seed": 11})
    write_profiles(read_profiles(tmp_path / "a"), tmp_path / "b", {"seed": 11})
    for k in range(4):
        name = f"p{k:06d}.json"
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()


def _broken(tmp_path: Path, content: bytes | None) -> Path:
    """A copy of the pretty folder whose p000001.json is ``content`` (None: a folder)."""
    folder = tmp_path / "profiles"
    shutil.copytree(PRETTY, folder)
    path = folder / "p000001.json"
    path.unlink()
    if content is None:
        path.mkdir()
    else:
        path.write_bytes(content)
    return folder


def _compact_with(change: str) -> bytes:
    data = orjson.loads((PRETTY / "p000001.json").read_bytes())
    user = data["entities"][0]
    assert user["id"] == "user"
    if change == "bool age":
        next(f for f in user["facts"] if f["attribute"] == "age")["value"] = True
    elif change == "list value":
        user["facts"][0]["value"] = ["a", "list"]
    elif change == "fact not an object":
        user["facts"][1] = ["user.x", "x"]
    elif change == "facts not a list":
        user["facts"] = 7
    elif change == "entity id a number":
        data["entities"][1]["id"] = 7
    elif change == "entity kind a list":
        data["entities"][1]["kind"] = ["relative"]
    return orjson.dumps(data, option=orjson.OPT_SORT_KEYS) + b"\n"


@pytest.mark.parametrize(
    ("case", "content", "message"),
    [
        ("empty", b"", "not a valid profile"),
        ("half", (PRETTY / "p000001.json").read_bytes()[:9000], "not a valid profile"),
        ("binary", bytes(range(256)), "not a valid profile"),
        ("folder", None, "cannot read: Is a directory"),
        ("bool age", _compact_with("bool age"), "user.age: value True is not an integer"),
        ("list value", _compact_with("list value"), "is not a non-empty string"),
        ("fact not an object", _compact_with("fact not an object"), "not a valid profile"),
        ("facts not a list", _compact_with("facts not a list"), "not a valid profile"),
        ("entity id a number", _compact_with("entity id a number"), "7: an entity's id and"),
        ("entity kind a list", _compact_with("entity kind a list"), "id and kind are strings"),
    ],
)
def test_a_broken_file_is_named(
    schema: Schema, tmp_path: Path, case: str, content: bytes | None, message: str
) -> None:
    folder = _broken(tmp_path, content)
    with pytest.raises(ProfileError, match=message) as caught:
        load_profile(folder, 1, schema)
    assert str(caught.value).startswith(f"{folder / 'p000001.json'}: ")
    assert isinstance(load_profile(folder, 2, schema), Profile)  # the others still read


def test_read_bytes_reads_the_whole_file(tmp_path: Path) -> None:
    for size in (0, 1, 65535, 65536, 65537, 300_001):
        path = tmp_path / f"f{size}"
        path.write_bytes(bytes(k % 251 for k in range(size)))
        assert read_bytes(path) == path.read_bytes()
    with pytest.raises(FileNotFoundError):
        read_bytes(tmp_path / "nothing")
    with pytest.raises(FileNotFoundError, match="too few profiles"):
        load_profile(tmp_path, 9)
    with pytest.raises(FileNotFoundError):
        read_profile(tmp_path / "nothing")
