"""Write a history dataset: every question with a multi-session history to a token
budget, streamed to disk as it is built.

Files: ``sessions.jsonl`` (the filler pool, each session once), ``dataset.jsonl``
(native records: the question's own sessions inline, the rest referenced in
``history``), ``data_card.md`` and ``manifest.json``; all in one atomic folder.

Guarantees: memory holds the pool's metadata and one record at a time, whatever the
budget and the number of questions; the same schema, profiles, seed and options give
byte-identical files for any number of workers (records are made in plan order and
every history draws from its own stream ``(14, 2, tid)``).
"""

from __future__ import annotations

import gc
import time
from collections import Counter
from collections.abc import Callable, Iterable
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from memsim._io import MANIFEST, atomic_output_dir, dumps
from memsim.dataset._generate import GenerateOptions, generate_records, manifest_for, plan_size
from memsim.dataset._write import DATASET_KIND
from memsim.formats._store import STORE_FILE
from memsim.history._assemble import assemble, depth_bucket
from memsim.history._llm import AssistantLLM, AssistantWriter, open_writer
from memsim.history._pool import FillerPool, stream
from memsim.history._sessions import conversation_of, into_sessions
from memsim.profile import check_profiles, load_profile
from memsim.qa import QAContext, make_context
from memsim.records import Record, record_to_json
from memsim.schema import Schema

HISTORY_PRESETS = {"longmemeval_s": 115_000, "longmemeval_m": 1_500_000}
"""Budgets close to LongMemEval's S and M histories (about 115k and 1.5M tokens per
question); our sessions are shorter than its (tens of tokens, not thousands), so a
history holds many more of them."""


@dataclass(frozen=True)
class HistoryOptions:
    tokens: int
    """The token budget of every history (o200k_base)."""
    depths: tuple[float, ...] | None = None
    """Evidence depths, given to questions in turn (tid modulo their number); None:
    uniform on [0, 1], drawn per question."""
    assistant: AssistantLLM | None = None
    """A chat model that writes the assistant turns (None: the locale's templates)."""

    def depth_for(self, tid: int, rng: Any) -> float:
        if self.depths is None:
            return round(float(rng.uniform(0.0, 1.0)), 4)
        return self.depths[tid % len(self.depths)]

    def to_json(self) -> dict[str, Any]:
        return {
            "tokens": self.tokens,
            "evidence_depth": "uniform" if self.depths is None else list(self.depths),
            "tokenizer": "o200k_base",
            "assistant": "template" if self.assistant is None else self.assistant.to_json(),
        }


def token_count() -> Callable[[str], int]:
    try:
        from memsim._tokens import TokenCounter

        return TokenCounter().count
    except ImportError:
        raise ValueError(
            "histories to a token budget count tokens exactly with o200k_base: "
            "install the extra: pip install 'memsim[tokens]'"
        ) from None


def write_history_dataset(
    schema: Schema,
    schema_path: Path,
    profiles: Path,
    out: Path,
    options: GenerateOptions,
    history: HistoryOptions,
    workers: int = 1,
    progress: Callable[[Iterable[Record], int], Iterable[Record]] | None = None,
) -> dict[str, Any]:
    total = plan_size(options)
    profiles_manifest = check_profiles(profiles, schema.name, total)
    # the kinds asked, as generate_records' workers build it: filler follows their rates
    ctx = make_context(schema, options.seed, options.types)
    conversation_of(ctx.loc)  # fail early on a locale without conversation data
    count = token_count()
    stats = _Stats()
    with ExitStack() as stack:
        stack.callback(gc.unfreeze)  # _write freezes the pool's metadata; thaw on any exit
        writer = None
        if history.assistant is not None:
            writer = open_writer(history.assistant, ctx.loc)
            stack.callback(writer.client.close)
        counts = _write(
            schema, schema_path, profiles, out, options, history, workers, progress,
            ctx, count, stats, profiles_manifest, writer,
        )  # fmt: skip
        if writer is not None:
            counts["assistant_turns"] = dict(sorted(writer.counts.items()))
    return counts


def _write(
    schema: Schema,
    schema_path: Path,
    profiles: Path,
    out: Path,
    options: GenerateOptions,
    history: HistoryOptions,
    workers: int,
    progress: Callable[[Iterable[Record], int], Iterable[Record]] | None,
    ctx: QAContext,
    count: Callable[[str], int],
    stats: _Stats,
    profiles_manifest: dict[str, Any],
    writer: AssistantWriter | None,
) -> dict[str, Any]:
    total = plan_size(options)
    rewrite = writer.rewrite if writer is not None else None
    began = time.perf_counter()
    with atomic_output_dir(out, DATASET_KIND) as stage:
        with open(stage / STORE_FILE, "wb") as store:
            pool = FillerPool.build(ctx, options, history.tokens, count, store, rewrite)
        pooled = time.perf_counter()
        # the pool's metadata lives to the end: out of the collector's sight, so that the
        # many small objects each history makes do not have it scanned again and again
        gc.freeze()
        assembling, assembling_cpu = 0.0, 0.0
        records: Iterable[Record] = generate_records(
            schema, profiles, options, workers, ctx if workers <= 1 else None
        )
        if progress is not None:
            records = progress(records, total)
        with open(stage / "dataset.jsonl", "wb") as native:
            for record in records:
                rng = stream(options.seed, 2, record.tid)
                record = into_sessions(record, ctx.loc, rng, f"t{record.tid:06d}")
                depth = history.depth_for(record.tid, rng)
                profile = load_profile(profiles, record.tid)
                if rewrite is not None:
                    record = rewrite(record, profile)
                clock, cpu = time.perf_counter(), time.process_time()
                record = assemble(record, profile, pool, history.tokens, depth, rng, count)
                native.write(orjson.dumps(record_to_json(record)) + b"\n")
                assembling += time.perf_counter() - clock
                assembling_cpu += time.process_time() - cpu
                stats.add(record)
        assembled = time.perf_counter()
        counts = stats.counts(pool)
        (stage / "data_card.md").write_text(stats.card(schema, options, history, pool))
        made = manifest_for(schema, schema_path, profiles_manifest, options, counts, [])
        made |= {
            "history": history.to_json(),
            "files": ["dataset.jsonl", STORE_FILE],
            "card_files": ["data_card.md"],
        }
        (stage / MANIFEST).write_bytes(dumps(made))
    # wall times go to the caller only (the manifest stays byte-identical run to run)
    counts["seconds"] = {
        "pool": pooled - began,
        "histories": assembled - pooled,
        "assembly": assembling,
        "assembly_cpu": assembling_cpu,
    }
    return counts


class _Stats:
    """What the card and the counts say, accumulated one record at a time."""

    def __init__(self) -> None:
        self.by_type: Counter[tuple[str, str]] = Counter()
        self.tokens: list[int] = []
        self.sessions: list[int] = []
        self.messages = 0
        self.depths: Counter[str] = Counter()
        self.used: set[str] = set()

    def add(self, record: Record) -> None:
        history = record.extra["history"]
        self.by_type[record.type, record.scenario] += 1
        self.tokens.append(history["tokens"])
        self.sessions.append(len(history["sessions"]))
        self.messages += len(record.turns)
        self.depths[depth_bucket(history["evidence_depth"])] += 1

    def _by_type(self) -> dict[str, dict[str, int]]:
        """{kind: {scenario: questions}}, as a classic dataset's manifest counts them."""
        out: dict[str, dict[str, int]] = {}
        for (kind, scenario), n in sorted(self.by_type.items()):
            out.setdefault(kind, {})[scenario] = n
        return out

    def counts(self, pool: FillerPool) -> dict[str, Any]:
        return {
            "trajectories": len(self.tokens),
            "messages": self.messages,
            "by_type": self._by_type(),
            "histories": {
                "tokens_min": min(self.tokens, default=0),
                "tokens_max": max(self.tokens, default=0),
                "sessions_mean": round(sum(self.sessions) / max(1, len(self.sessions)), 2),
                "pool_sessions": len(pool.sessions),
                "pool_tokens": pool.tokens,
                "by_depth": dict(sorted(self.depths.items())),
            },
        }

    def card(
        self, schema: Schema, options: GenerateOptions, history: HistoryOptions, pool: FillerPool
    ) -> str:
        n = max(1, len(self.tokens))
        lines = [
            f"# Data card: {schema.name} {schema.version}, seed {options.seed}, "
            f"histories of {history.tokens:,} tokens",
            "",
            "| | |",
            "|---|---|",
            f"| questions | {len(self.tokens)} |",
            f"| tokens per history (o200k_base) | {min(self.tokens, default=0):,} to "
            f"{max(self.tokens, default=0):,} (mean {sum(self.tokens) / n:,.0f}) |",
            f"| sessions per history | {sum(self.sessions) / n:,.1f} |",
            f"| filler sessions stored once | {len(pool.sessions):,} ({pool.tokens:,} tokens) |",
            f"| evidence depth | {history.to_json()['evidence_depth']} |",
            "",
            "| type | questions |",
            "|---|---|",
            *(f"| {t} | {sum(c.values())} |" for t, c in self._by_type().items()),
            "",
            "| evidence depth (reached) | questions |",
            "|---|---|",
            *(f"| {d} | {c} |" for d, c in sorted(self.depths.items())),
            "",
            f"Locale: {schema.locale}.",
            "",
        ]
        return "\n".join(lines)
