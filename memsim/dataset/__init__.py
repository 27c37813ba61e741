"""Stage 7: datasets (native JSONL, MemDaily layout, data card, manifest)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING, Any

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

if TYPE_CHECKING:  # the LLM pass is imported only when it is used
    from memsim.history import HistoryOptions
    from memsim.rewrite import RewriteOptions

Progress = Callable[[Iterable[dict[str, Any]], int], Iterable[dict[str, Any]]]


def generate_dataset(
    schema: Schema,
    schema_path: Path,
    profiles: Path,
    out: Path,
    options: GenerateOptions,
    progress: Progress | None = None,
    workers: int = 1,
    rewrite: RewriteOptions | None = None,
    history: HistoryOptions | None = None,
) -> dict[str, Any]:
    """Generate and write a whole dataset folder atomically; return the counts.

    With ``rewrite``, template records go through an LLM rewrite pass
    (:mod:`memsim.rewrite`) on their way to disk; the counts then hold ``llm``: what
    the data needed (also in the manifest) and what this run did (``run``).

    With ``history``, every question gets a multi-session history to a token budget
    (:mod:`memsim.history`), written by its own streaming writer."""
    if history is not None:
        if rewrite is not None:
            raise ValueError(
                "an LLM rewrite of messages (--verbalizer) does not combine with histories "
                "yet; --assistant has an LLM write the assistant turns"
            )
        from memsim.history import write_history_dataset

        return write_history_dataset(
            schema, schema_path, profiles, out, options, history, workers, progress
        )
    total = len(plan(options))
    profiles_manifest = check_profiles(profiles, schema, total)
    with ExitStack() as stack:
        rewriter = None
        if rewrite is not None:
            from memsim.rewrite import open_rewriter

            rewriter = stack.enter_context(open_rewriter(schema, options.seed, profiles, rewrite))
        records: Iterable[dict[str, Any]] = generate_records(
            schema, profiles, options, workers, rewriter.ctx if rewriter else None
        )
        if rewriter is not None:
            records = rewriter.rewrite(records)
        if progress is not None:
            records = progress(records, total)
            if rewriter is not None:
                from memsim.rewrite import with_llm_postfix

                records = with_llm_postfix(records, rewriter)

        def manifest(counts: dict[str, Any]) -> dict[str, Any]:
            made = manifest_for(schema, schema_path, profiles_manifest, options, counts)
            return made | {"llm": rewriter.manifest()} if rewriter is not None else made

        counts = write_dataset(
            records,
            out,
            load_locale(schema.locale),
            manifest=manifest,
            # no path in the title: the same options give the same bytes in any folder
            card_title=f"Data card: {schema.name} {schema.version}, seed {options.seed}",
            card_notes=[
                f"Locale: {schema.locale} (the language of messages, questions and options)."
            ],
        )
        if rewriter is not None:
            from memsim.rewrite import log_run

            counts["llm"] = log_run(rewriter, out)
    return counts


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
