"""Write a dataset folder in one atomic step, streaming: memory stays flat however
many trajectories there are.

Files: ``dataset.jsonl`` (native records with provenance, always), one file set per
other format asked for (by default ``memdaily.json``, the MemDaily layout
``{type: {scenario: [{tid, message_list, QA}]}}``), the data card (``data_card.md`` and
``data_card.csv``) and ``manifest.json``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from memsim._io import DATASET_FILE, MANIFEST, atomic_output_dir, dumps
from memsim.dataset._card import CARD_TOKENIZER, CardTally, data_card, write_data_card
from memsim.formats import FORMATS, ExportInfo
from memsim.formats.native import read_located, record_line
from memsim.records import Record
from memsim.verbalize import LocaleData

DATASET_KIND = "dataset"
DEFAULT_FORMATS = ("memdaily",)
"""Formats written beside dataset.jsonl unless told otherwise."""


def write_card(
    folder: Path, title: str, notes: Iterable[str] = (), tally: CardTally | None = None
) -> list[str]:
    """Write data_card.md/.csv from ``tally`` (the records counted as they were written)
    or else from the folder's dataset.jsonl (streamed); without the optional tokenizer,
    a card that says how to get token counts. ``notes`` are lines added under the table
    (the dataset's locale)."""
    md, csv = folder / "data_card.md", folder / "data_card.csv"
    try:
        if tally is not None:
            card = tally.card()
        else:
            card = data_card(x.record for x in read_located(folder / DATASET_FILE))
    except ImportError as exc:
        md.write_text(f"# {title}\n\nNo data card: {exc}\n", encoding="utf-8")
        return [md.name]
    write_data_card(card, md, csv, title=title, extra_lines=notes)
    return [md.name, csv.name]


def digests(folder: Path, names: Iterable[str]) -> dict[str, str]:
    """sha256 of the data files, for the manifest: the audit proves it read what
    generate wrote, not a cut or edited copy."""
    out = {}
    for name in sorted(set(names)):
        if not (folder / name).is_file():
            continue
        h = hashlib.sha256()
        with open(folder / name, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                h.update(block)
        out[name] = h.hexdigest()
    return out


def write_dataset(
    records: Iterable[Record],
    out: str | Path,
    loc: LocaleData,
    manifest: Callable[[dict[str, Any], list[str]], dict[str, Any]],
    card_title: str | None = "Data card",
    card_notes: Iterable[str] = (),
    formats: Sequence[str] = DEFAULT_FORMATS,
) -> dict[str, Any]:
    """Stream records into ``out``; return the counts. ``manifest`` builds the manifest
    from the counts and the other formats' files.

    Each record goes to ``dataset.jsonl``, to the first other format asked for and to
    the data card's tally as it comes (with worker processes, while they make the next
    ones), not by reading the written lines back: a record reads back equal to itself, so
    the files are those read back would make (``tests/dataset/test_write.py``, and
    ``memsim merge``, which reads back, makes the same bytes: ``tests/merge``). Further
    formats are made by reading the lines back, as :func:`finish_dataset` does."""
    counts: dict[str, Any] = {"trajectories": 0, "messages": 0, "by_type": {}}
    writers = [(name, FORMATS.get(name)) for name in formats if name != "native"]
    tally = _Tally() if card_title else None
    with atomic_output_dir(out, DATASET_KIND) as stage:
        with open(stage / DATASET_FILE, "wb") as native:

            def written() -> Iterator[Record]:
                for record in records:
                    native.write(record_line(record))
                    counts["trajectories"] += 1
                    counts["messages"] += len(record.turns)
                    by_type = counts["by_type"].setdefault(record.type, {})
                    by_type[record.scenario] = by_type.get(record.scenario, 0) + 1
                    if tally is not None:
                        tally.add(record)
                    yield record

            stream = written()
            done: dict[str, list[str]] = {}
            if writers:
                name, writer = writers[0]
                done[name] = writer.write(stream, stage, ExportInfo(locale=loc.code))
            for _ in stream:  # every record is written, whatever the writer read
                pass
        finish_dataset(
            stage, counts, loc.code, manifest, card_title, card_notes, formats, done,
            tally.tally if tally is not None and tally.error is None else None,
        )  # fmt: skip
    return counts


class _Tally:
    """The data card's tally as records are written; without the optional tokenizer,
    nothing is counted and :func:`write_card` says how to get it (as it would reading
    the file back)."""

    def __init__(self) -> None:
        self.tally = CardTally(CARD_TOKENIZER)
        self.error: ImportError | None = None

    def add(self, record: Record) -> None:
        if self.error is None:
            try:
                self.tally.add(record)
            except ImportError as exc:
                self.error = exc


def finish_dataset(
    stage: Path,
    counts: dict[str, Any],
    locale: str,
    manifest: Callable[[dict[str, Any], list[str]], dict[str, Any]],
    card_title: str | None = "Data card",
    card_notes: Iterable[str] = (),
    formats: Sequence[str] = DEFAULT_FORMATS,
    done: Mapping[str, list[str]] | None = None,
    tally: CardTally | None = None,
) -> None:
    """Write everything a dataset folder holds beside ``dataset.jsonl`` (already in
    ``stage``): the other formats and the data card, both read back from it, and the
    manifest. ``memsim merge`` calls it on the joined lines of the shards, so a merged
    folder is made by the very code that makes a whole one. ``done``: the files of the
    formats already written from the records as they came (by :func:`write_dataset`);
    ``tally``: the card's counts made then, or None to read the lines back."""
    writers = [(name, FORMATS.get(name)) for name in formats if name != "native"]
    files: list[str] = []
    info = ExportInfo(locale=locale)
    for name, writer in writers:
        if done is not None and name in done:
            files += done[name]
            continue
        again = (x.record for x in read_located(stage / DATASET_FILE))
        files += writer.write(again, stage, info)
    written = write_card(stage, card_title, card_notes, tally) if card_title else []
    made = {**manifest(counts, files), "card_files": written}
    made["sha256"] = digests(stage, [DATASET_FILE, *files])
    (stage / MANIFEST).write_bytes(dumps(made))
