"""Write a dataset folder in one atomic step, streaming: memory stays flat however
many trajectories there are.

Files: ``dataset.jsonl`` (native records with provenance), ``memdaily.json`` (the
MemDaily layout, ``{type: {scenario: [{tid, message_list, QA}]}}``), the data card
(``data_card.md`` and ``data_card.csv``) and ``manifest.json``.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import IO, Any

import orjson

from memsim._io import MANIFEST, atomic_output_dir, dumps
from memsim.verbalize import LocaleData, render_message_time

DATASET_KIND = "dataset"


def memdaily_entry(record: dict[str, Any], tid: int, loc: LocaleData) -> dict[str, Any]:
    """One native record in MemDaily's form (no provenance, roles or fact ids; times
    rendered per locale; ``tid`` numbered within its type and scenario)."""

    def when(text: str) -> str:
        return render_message_time(dt.datetime.fromisoformat(text), loc)

    qa = record["QA"]
    return {
        "tid": tid,
        "message_list": [
            {"mid": m["mid"], "message": m["message"], "time": when(m["time"]), "place": m["place"]}
            for m in record["message_list"]
        ],
        "QA": {
            "qid": qa["qid"],
            "question": qa["question"],
            "answer": qa["answer"],
            "target_step_id": qa["target_step_id"],
            "choices": qa["choices"],
            "ground_truth": qa["ground_truth"],
            "time": when(qa["time"]),
        },
    }


class MemDailyStream:
    """Writes ``{type: {scenario: [...]}}`` incrementally from records that arrive
    grouped by type, then scenario (the generator's plan order)."""

    def __init__(self, out: IO[bytes], loc: LocaleData):
        self.out, self.loc = out, loc
        self.type: str | None = None
        self.scenario: str | None = None
        self.tid = 0
        self.seen: set[tuple[str, str]] = set()
        out.write(b"{")

    def add(self, record: dict[str, Any]) -> None:
        kind, scenario = record["type"], record["scenario"]
        if (kind, scenario) != (self.type, self.scenario):
            if (kind, scenario) in self.seen or (kind != self.type and any(k == kind for k, _ in self.seen)):
                raise ValueError(f"records of {kind}/{scenario} are not contiguous")
            self._open(kind, scenario)
        elif self.tid:
            self.out.write(b",")
        self.out.write(b"\n      " + orjson.dumps(memdaily_entry(record, self.tid, self.loc)))
        self.tid += 1

    def _open(self, kind: str, scenario: str) -> None:
        if kind != self.type:
            if self.type is not None:
                self.out.write(b"\n    ]\n  },")
            self.out.write(b"\n  " + orjson.dumps(kind) + b": {")
        else:
            self.out.write(b"\n    ],")
        self.out.write(b"\n    " + orjson.dumps(scenario) + b": [")
        self.type, self.scenario, self.tid = kind, scenario, 0
        self.seen.add((kind, scenario))

    def close(self) -> None:
        if self.type is not None:
            self.out.write(b"\n    ]\n  }")
        self.out.write(b"\n}\n")


def write_dataset(records: Iterable[dict[str, Any]], out: str | Path, loc: LocaleData,
                  manifest: Callable[[dict[str, Any]], dict[str, Any]],
                  card: Callable[[Path], list[str]] | None = None) -> dict[str, Any]:
    """Stream records into ``out``; return the counts. ``manifest`` builds the manifest
    from the counts; ``card`` writes the data card into the staging folder and returns
    the names of the files it wrote."""
    counts: dict[str, Any] = {"trajectories": 0, "messages": 0, "by_type": {}}
    with atomic_output_dir(out, DATASET_KIND) as stage:
        with open(stage / "dataset.jsonl", "wb") as native, open(stage / "memdaily.json", "wb") as md:
            stream = MemDailyStream(md, loc)
            for record in records:
                native.write(orjson.dumps(record) + b"\n")
                stream.add(record)
                counts["trajectories"] += 1
                counts["messages"] += len(record["message_list"])
                by_type = counts["by_type"].setdefault(record["type"], {})
                by_type[record["scenario"]] = by_type.get(record["scenario"], 0) + 1
            stream.close()
        written = card(stage) if card is not None else []
        (stage / MANIFEST).write_bytes(dumps({**manifest(counts), "card_files": written}))
    return counts
