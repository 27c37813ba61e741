"""Stage 7: datasets (native JSONL, MemDaily layout, data card, manifest)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from memsim.dataset._card import DataCard, data_card, write_data_card
from memsim.dataset._generate import (
    GenerateOptions,
    GenerationError,
    check_profiles,
    generate_records,
    make_context,
    make_record,
    manifest_for,
    plan,
)
from memsim.dataset._memdaily import (
    MemDailyFormatError,
    MemDailyItem,
    MemDailyStream,
    drop_flagged,
    memdaily_entry,
    read_memdaily,
    to_memdaily,
    write_memdaily,
)
from memsim.dataset._write import DATASET_KIND, write_dataset
from memsim.schema import Schema
from memsim.verbalize import load_locale

Progress = Callable[[Iterable[dict[str, Any]], int], Iterable[dict[str, Any]]]


def generate_dataset(
    schema: Schema,
    schema_path: Path,
    profiles: Path,
    out: Path,
    options: GenerateOptions,
    progress: Progress | None = None,
    workers: int = 1,
) -> dict[str, Any]:
    """Generate and write a whole dataset folder atomically; return the counts."""
    total = len(plan(options))
    profiles_manifest = check_profiles(profiles, schema, total)
    records: Iterable[dict[str, Any]] = generate_records(schema, profiles, options, workers)
    if progress is not None:
        records = progress(records, total)
    return write_dataset(
        records,
        out,
        load_locale(schema.locale),
        manifest=lambda counts: manifest_for(
            schema, schema_path, profiles_manifest, options, counts
        ),
        card_title=f"Data card: {out.name} ({schema.name} {schema.version}, seed {options.seed})",
        card_notes=[f"Locale: {schema.locale} (the language of messages, questions and options)."],
    )


__all__ = [
    "DATASET_KIND",
    "DataCard",
    "GenerateOptions",
    "GenerationError",
    "MemDailyFormatError",
    "MemDailyItem",
    "MemDailyStream",
    "data_card",
    "drop_flagged",
    "generate_dataset",
    "generate_records",
    "make_context",
    "make_record",
    "memdaily_entry",
    "plan",
    "read_memdaily",
    "to_memdaily",
    "write_data_card",
    "write_dataset",
    "write_memdaily",
]
