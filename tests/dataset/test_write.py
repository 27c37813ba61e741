"""Writing a dataset folder: the formats and the data card made from the records as
they are written are byte for byte those made by reading ``dataset.jsonl`` back."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from memsim.dataset import finish_dataset, write_dataset
from memsim.formats.memdaily import MemDailyItem, item_record
from memsim.records import Record
from memsim.verbalize import load_locale

pytest.importorskip("bpe_openai", reason="token counts need pip install 'memsim[tokens]'")


def _item(type_: str, scenario: str, tid: int, texts: list[str]) -> Record:
    return item_record(
        MemDailyItem(
            type=type_,
            scenario=scenario,
            tid=tid,
            messages=tuple(
                {"mid": j, "message": t, "time": f"2024-04-0{j + 1}T08:00", "place": "home"}
                for j, t in enumerate(texts)
            ),
            qa={
                "qid": 0,
                "question": "How old is my mother?",
                "answer": "61",
                "target_step_id": [0],
                "choices": {"A": "61", "B": "62", "C": "63", "D": "64"},
                "ground_truth": "A",
                "time": "2024-04-09T08:00",
            },
            source="hand-built",
        )
    )


RECORDS = [
    _item("simple", "roles", 0, ["My mother is 61 years old.", "我的上司名叫赵雅琳。"]),
    _item("simple", "roles", 1, ["The weather is nice 🌧️.", "One.", "Two words."]),
    _item("simple", "items", 0, ["I wrote <|endoftext|> in a note, oddly."]),
    _item("comparative", "roles", 0, ["My father is 63.", "My mother is 61 years old."]),
]


def _manifest(counts: dict[str, Any], files: list[str]) -> dict[str, Any]:
    return {"counts": counts, "files": ["dataset.jsonl", *files]}


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


@pytest.mark.parametrize("formats", [("memdaily",), ("memdaily", "longmemeval"), ()])
def test_streamed_files_equal_those_read_back(tmp_path: Path, formats: tuple[str, ...]) -> None:
    loc = load_locale("en")
    counts = write_dataset(
        iter(RECORDS), tmp_path / "streamed", loc, _manifest, "Card", ["a note"], formats
    )
    assert counts["trajectories"] == 4 and counts["messages"] == 8
    # the same folder's lines, every other file made again by reading them back
    again = tmp_path / "read_back"
    again.mkdir()
    shutil.copy(tmp_path / "streamed" / "dataset.jsonl", again / "dataset.jsonl")
    finish_dataset(again, counts, "en", _manifest, "Card", ["a note"], formats)
    streamed = _files(tmp_path / "streamed")
    assert {"data_card.md", "data_card.csv", "manifest.json"} <= set(streamed)
    assert ("memdaily.json" in streamed) == ("memdaily" in formats)
    assert streamed == _files(again)
