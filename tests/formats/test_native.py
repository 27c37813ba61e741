"""The native format: the one reader and writer of dataset.jsonl."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest
from formats_run import memsim

from memsim.formats import FORMATS, ExportInfo, FormatError, detect_format, read_located
from memsim.formats.native import data_file


def test_read_write_read_is_the_same_records_and_bytes(made: Path, tmp_path: Path) -> None:
    native = FORMATS.get("native")
    records = list(native.read(made / "dataset"))
    assert len(records) == 60
    assert native.write(records, tmp_path, ExportInfo()) == ["dataset.jsonl"]
    assert list(native.read(tmp_path)) == records
    assert (tmp_path / "dataset.jsonl").read_bytes() == data_file(made / "dataset").read_bytes()


def test_located_records_name_their_line(made: Path) -> None:
    first = next(read_located("native", made / "dataset"))
    assert first.where.endswith("dataset.jsonl:1") and first.record.tid == 0


def test_detection(made: Path, tmp_path: Path) -> None:
    assert detect_format(made / "dataset") == "native"
    assert detect_format(made / "dataset" / "dataset.jsonl") == "native"
    assert detect_format(made / "dataset" / "memdaily.json") == "memdaily"
    assert detect_format(made / "dataset", "memdaily") == "memdaily"
    with pytest.raises(FormatError, match="does not exist"):
        detect_format(tmp_path / "nope")
    with pytest.raises(FormatError, match="empty folder"):
        detect_format(tmp_path)
    (tmp_path / "notes.txt").write_text("hello", encoding="utf-8")
    with pytest.raises(FormatError, match="holds no data of a format memsim reads"):
        detect_format(tmp_path)


def broken(made: Path, tmp_path: Path, edit: str) -> Path:
    """The dataset with its third record edited: ``edit`` is a dotted field to drop,
    or ``field=json`` to set."""
    lines = data_file(made / "dataset").read_bytes().splitlines()
    record = orjson.loads(lines[2])
    key, _, value = edit.partition("=")
    *parents, last = key.split(".")
    target = record
    for part in parents:
        target = target[int(part)] if part.isdigit() else target[part]
    if value:
        target[last] = orjson.loads(value)
    else:
        del target[last]
    lines[2] = orjson.dumps(record)
    out = tmp_path / "bad"
    out.mkdir()
    (out / "dataset.jsonl").write_bytes(b"\n".join(lines) + b"\n")
    return out


@pytest.mark.parametrize(
    ("command", "edit", "field"),
    [
        ("audit", "QA.choices", "QA.choices"),
        ("audit", "QA.ground_truth=7", "QA.ground_truth"),
        ("audit", "message_list.1.time=12", "message_list[1].time"),
        ("audit", "tid", "tid"),
        ("bench", "QA.target_step_id=3", "QA.target_step_id"),
        ("export", "message_list.0.mid", "message_list[0].mid"),
    ],
)
def test_a_broken_record_exits_2_naming_file_record_and_field(
    made: Path, tmp_path: Path, command: str, edit: str, field: str
) -> None:
    folder = broken(made, tmp_path, edit)
    args: list[str | Path] = [command, folder]
    if command == "bench":
        args += ["--mechanisms", "recent_k", "--noise", "1", "--out", tmp_path / "b"]
    if command == "export":
        args += ["--to", "memdaily", "--out", tmp_path / "e"]
    result = memsim(*args)
    assert result.returncode == 2, result.stdout + result.stderr
    assert f"{folder / 'dataset.jsonl'}:3: {field}:" in result.stderr
    assert "Traceback" not in result.stderr
