"""Write a dataset folder in one atomic step, streaming: memory stays flat however
many trajectories there are.

Files: ``dataset.jsonl`` (native records with provenance), ``memdaily.json`` (the
MemDaily layout, ``{type: {scenario: [{tid, message_list, QA}]}}``), the data card
(``data_card.md`` and ``data_card.csv``) and ``manifest.json``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

import orjson

from memsim._io import MANIFEST, atomic_output_dir, dumps
from memsim.dataset._card import data_card, write_data_card
from memsim.dataset._memdaily import MemDailyItem, MemDailyStream
from memsim.verbalize import LocaleData

DATASET_KIND = "dataset"


def native_items(path: Path) -> Iterator[MemDailyItem]:
    """The trajectories of a ``dataset.jsonl`` as MemDaily items, read line by line."""
    with open(path, "rb") as lines:
        for line in lines:
            record = orjson.loads(line)
            yield MemDailyItem(
                type=record["type"],
                scenario=record["scenario"],
                tid=record["tid"],
                messages=tuple(record["message_list"]),
                qa=record["QA"],
                source=str(path),
                flags=(),
            )


def write_card(folder: Path, title: str, notes: Iterable[str] = ()) -> list[str]:
    """Write data_card.md/.csv from the folder's dataset.jsonl (streamed); without the
    optional tokenizer, a card that says how to get token counts. ``notes`` are lines
    added under the table (the dataset's locale)."""
    md, csv = folder / "data_card.md", folder / "data_card.csv"
    try:
        card = data_card(native_items(folder / "dataset.jsonl"))
    except ImportError as exc:
        md.write_text(f"# {title}\n\nNo data card: {exc}\n", encoding="utf-8")
        return [md.name]
    write_data_card(card, md, csv, title=title, extra_lines=notes)
    return [md.name, csv.name]


DIGESTED = ("dataset.jsonl", "memdaily.json")


def digests(folder: Path) -> dict[str, str]:
    """sha256 of the data files, for the manifest: the audit proves it read what
    generate wrote, not a cut or edited copy."""
    out = {}
    for name in DIGESTED:
        h = hashlib.sha256()
        with open(folder / name, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                h.update(block)
        out[name] = h.hexdigest()
    return out


def write_dataset(
    records: Iterable[dict[str, Any]],
    out: str | Path,
    loc: LocaleData,
    manifest: Callable[[dict[str, Any]], dict[str, Any]],
    card_title: str | None = "Data card",
    card_notes: Iterable[str] = (),
) -> dict[str, Any]:
    """Stream records into ``out``; return the counts. ``manifest`` builds the manifest
    from the counts; the data card is computed by reading the written lines back."""
    counts: dict[str, Any] = {"trajectories": 0, "messages": 0, "by_type": {}}
    with atomic_output_dir(out, DATASET_KIND) as stage:
        with (
            open(stage / "dataset.jsonl", "wb") as native,
            open(stage / "memdaily.json", "wb") as md,
        ):
            stream = MemDailyStream(md, loc)
            for record in records:
                native.write(orjson.dumps(record) + b"\n")
                stream.add(record)
                counts["trajectories"] += 1
                counts["messages"] += len(record["message_list"])
                by_type = counts["by_type"].setdefault(record["type"], {})
                by_type[record["scenario"]] = by_type.get(record["scenario"], 0) + 1
            stream.close()
        written = write_card(stage, card_title, card_notes) if card_title else []
        made = {**manifest(counts), "card_files": written, "sha256": digests(stage)}
        (stage / MANIFEST).write_bytes(dumps(made))
    return counts
