"""Write a dataset folder in one atomic step, streaming: memory stays flat however
many trajectories there are.

Files: ``dataset.jsonl`` (native records with provenance, always), one file set per
other format asked for (by default ``memdaily.json``, the MemDaily layout
``{type: {scenario: [{tid, message_list, QA}]}}``), the data card (``data_card.md`` and
``data_card.csv``) and ``manifest.json``.
"""

from __future__ import annotations

import contextlib
import hashlib
import threading
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from memsim._io import DATASET_FILE, MANIFEST, atomic_output_dir, dumps
from memsim.dataset._card import CARD_TOKENIZER, data_card, data_card_encoding, write_data_card
from memsim.formats import FORMATS, ExportInfo
from memsim.formats.native import read_located, record_line
from memsim.records import Record
from memsim.verbalize import LocaleData

DATASET_KIND = "dataset"
DEFAULT_FORMATS = ("memdaily",)
"""Formats written beside dataset.jsonl unless told otherwise."""


def write_card(folder: Path, title: str, notes: Iterable[str] = ()) -> list[str]:
    """Write data_card.md/.csv from the folder's dataset.jsonl (streamed); without the
    optional tokenizer, a card that says how to get token counts. ``notes`` are lines
    added under the table (the dataset's locale)."""
    md, csv = folder / "data_card.md", folder / "data_card.csv"
    try:
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
    from the counts and the other formats' files; those files and the data card are
    made by reading the written lines back."""
    counts: dict[str, Any] = {"trajectories": 0, "messages": 0, "by_type": {}}
    warm: threading.Thread | None = None
    with atomic_output_dir(out, DATASET_KIND) as stage:
        with open(stage / DATASET_FILE, "wb") as native:
            for record in records:
                if warm is None and card_title:
                    # the card's tokenizer takes about a second to import: load it while
                    # the records come (after the first: worker processes are forked
                    # by then, so none inherits a half-done import)
                    warm = threading.Thread(target=_warm_tokenizer, daemon=True)
                    warm.start()
                native.write(record_line(record))
                counts["trajectories"] += 1
                counts["messages"] += len(record.turns)
                by_type = counts["by_type"].setdefault(record.type, {})
                by_type[record.scenario] = by_type.get(record.scenario, 0) + 1
        if warm is not None:
            warm.join()
        finish_dataset(stage, counts, loc.code, manifest, card_title, card_notes, formats)
    return counts


def _warm_tokenizer() -> None:
    with contextlib.suppress(ImportError, ValueError):  # the card says so when written
        data_card_encoding(CARD_TOKENIZER)


def finish_dataset(
    stage: Path,
    counts: dict[str, Any],
    locale: str,
    manifest: Callable[[dict[str, Any], list[str]], dict[str, Any]],
    card_title: str | None = "Data card",
    card_notes: Iterable[str] = (),
    formats: Sequence[str] = DEFAULT_FORMATS,
) -> None:
    """Write everything a dataset folder holds beside ``dataset.jsonl`` (already in
    ``stage``): the other formats and the data card, both read back from it, and the
    manifest. ``memsim merge`` calls it on the joined lines of the shards, so a merged
    folder is made by the very code that makes a whole one."""
    writers = [(name, FORMATS.get(name)) for name in formats if name != "native"]
    files: list[str] = []
    info = ExportInfo(locale=locale)
    for _, writer in writers:
        again = (x.record for x in read_located(stage / DATASET_FILE))
        files += writer.write(again, stage, info)
    written = write_card(stage, card_title, card_notes) if card_title else []
    made = {**manifest(counts, files), "card_files": written}
    made["sha256"] = digests(stage, [DATASET_FILE, *files])
    (stage / MANIFEST).write_bytes(dumps(made))
