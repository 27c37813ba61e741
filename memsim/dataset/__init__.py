"""Stage 7: datasets (native JSONL, MemDaily layout, data card, manifest)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memsim._shard import SHARD_KEY, Shard
from memsim.dataset._card import DataCard, data_card, load_card_tokenizer, write_data_card
from memsim.dataset._generate import (
    GenerateOptions,
    GenerationError,
    check_request,
    generate_records,
    make_record,
    manifest_for,
    plan,
    plan_size,
)
from memsim.dataset._sharded import card_notes, card_title, check_shard_profiles
from memsim.dataset._write import DATASET_KIND, DEFAULT_FORMATS, finish_dataset, write_dataset
from memsim.profile import check_profiles
from memsim.qa import make_context
from memsim.records import Record
from memsim.schema import Schema
from memsim.verbalize import schema_locale

if TYPE_CHECKING:  # the LLM pass is imported only when it is used
    from memsim.rewrite import RewriteOptions

Progress = Callable[[Iterable[Record], int], Iterable[Record]]


def generate_dataset(
    schema: Schema,
    schema_path: Path,
    profiles: Path,
    out: Path,
    options: GenerateOptions,
    progress: Progress | None = None,
    workers: int = 1,
    rewrite: RewriteOptions | None = None,
    formats: Sequence[str] = DEFAULT_FORMATS,
    shard: Shard | None = None,
) -> dict[str, Any]:
    """Generate and write a whole dataset folder atomically; return the counts.

    With ``shard``, only its slice of the question plan is made, from a profiles folder
    that holds at least that slice's profiles (the whole folder or the same shard of
    it); the manifest says which slice, and ``memsim merge`` joins the shards.

    With ``rewrite``, template records go through an LLM rewrite pass
    (:mod:`memsim.rewrite`) on their way to disk; the counts then hold ``llm``: what
    the data needed (also in the manifest) and what this run did (``run``).
    ``formats`` are written beside the native ``dataset.jsonl`` (always written)."""
    total = plan_size(options)
    if shard is None:
        check_request(profiles, options)  # the request's size, checked before anything is built
        profiles_manifest = check_profiles(profiles, schema.name, total)
        tids = None
    else:
        shard.check_size(total, "trajectories")
        tids = range(*shard.bounds(total))
        profiles_manifest = check_shard_profiles(profiles, schema.name, tids)
    with ExitStack() as stack:
        rewriter = None
        if rewrite is not None:
            from memsim.rewrite import open_rewriter

            rewriter = stack.enter_context(open_rewriter(schema, options.seed, profiles, rewrite))
        ctx = rewriter.ctx if rewriter else None
        # the card's tokenizer is loaded while the workers draft the filler rate table
        idle = load_card_tokenizer
        records: Iterable[Record] = generate_records(
            schema, profiles, options, workers, ctx, tids, idle
        )
        if rewriter is not None:
            records = rewriter.rewrite(records)
        if progress is not None:
            records = progress(records, total if tids is None else len(tids))
            if rewriter is not None:
                from memsim.rewrite import with_llm_postfix

                records = with_llm_postfix(records, rewriter)

        def manifest(counts: dict[str, Any], files: list[str]) -> dict[str, Any]:
            made = manifest_for(schema, schema_path, profiles_manifest, options, counts, files)
            if shard is not None:  # what merge needs to remake the whole folder's files
                made[SHARD_KEY] = shard.to_json(total) | {"formats": list(formats)}
            return made | {"llm": rewriter.manifest()} if rewriter is not None else made

        counts = write_dataset(
            records,
            out,
            schema_locale(schema),
            manifest=manifest,
            card_title=card_title(schema.name, schema.version, options.seed),
            card_notes=card_notes(schema.locale),
            formats=formats,
        )
        if rewriter is not None:
            from memsim.rewrite import log_run

            counts["llm"] = log_run(rewriter, out)
    return counts


__all__ = [
    "DATASET_KIND",
    "DEFAULT_FORMATS",
    "DataCard",
    "GenerateOptions",
    "GenerationError",
    "card_notes",
    "card_title",
    "check_request",
    "check_shard_profiles",
    "data_card",
    "finish_dataset",
    "generate_dataset",
    "generate_records",
    "make_context",
    "make_record",
    "plan",
    "plan_size",
    "write_data_card",
    "write_dataset",
]
