"""``run_bench``: check the options, run, and write the output folder in one step.

Output (``atomic_output_dir``: it appears complete or not at all, and never replaces a
folder memsim did not write): ``results.json``, ``results.md``, ``results.png`` and
``manifest.json`` (seed, options, package version, dataset path and digest, noise
schema and the noise actually infused).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memsim import __version__
from memsim._gc import collect_rarely, few_collections
from memsim._io import MANIFEST, atomic_output_dir, dumps
from memsim._shard import Shard
from memsim._tokens import TOKENIZER, token_counter
from memsim.bench._data import (
    Format,
    Source,
    memdaily_noise_schema,
    native_noise_schema,
    open_source,
)
from memsim.bench._memory import DEFAULT_K, MEMORY, Memory
from memsim.bench._pool import NOISE_PROFILES, NOISE_START, NoisePool
from memsim.bench._reader import BASELINE, READER, Reader
from memsim.bench._report import markdown, plot, records
from memsim.bench._run import BenchRun, Progress, with_progress
from memsim.bench._times import detect_format
from memsim.bench._tokenize import has_cjk

BENCH_KIND = "bench"
DEFAULT_LEVELS = (1, 10, 50, 100)
MAX_LEVEL = 1000


@dataclass(frozen=True)
class BenchOptions:
    mechanisms: tuple[str, ...]
    reader: str = "lexical"
    levels: tuple[int, ...] = DEFAULT_LEVELS
    k: int = DEFAULT_K
    seed: int = 0
    limit: int | None = None
    format: Format = "auto"
    noise_schema: str | None = None
    timings: bool = True
    reader_args: dict[str, Any] = field(default_factory=dict)
    """Keyword arguments of the reader (the llm reader's backend, model, base_url...)."""
    shard: Shard | None = None
    """Run only this slice of the selected trajectories (``--shard I/N``)."""
    vector_cache: str | None = None
    """A folder where embedding mechanisms keep vectors across runs (None: in memory
    only). It changes no result, only how often a text is embedded."""
    workers: int = 1
    """Processes sharing the trajectories (offline readers; see ``_parallel``). It
    changes no result, so it is not recorded in the manifest."""

    def check(self) -> None:
        """Raise ValueError naming the bad option; nothing has been read yet."""
        if not self.mechanisms:
            raise ValueError("no memory mechanism given")
        for name in self.mechanisms:
            MEMORY.get(name)  # UnknownPluginError names the known ones
        if len(set(self.mechanisms)) != len(self.mechanisms):
            raise ValueError(f"a mechanism is listed twice: {', '.join(self.mechanisms)}")
        READER.get(self.reader)
        if self.reader == "llm" and not self.reader_args.get("model"):
            raise ValueError("the llm reader needs a model (--model)")
        if not self.levels:
            raise ValueError("no noise level given")
        bad = [lv for lv in self.levels if not 1 <= lv <= MAX_LEVEL]
        if bad or len(set(self.levels)) != len(self.levels):
            raise ValueError(
                f"noise levels must be distinct whole numbers from 1 to {MAX_LEVEL} "
                f"(1 = no noise, L = L times the real messages), got {list(self.levels)}"
            )
        if self.k < 1:
            raise ValueError(f"k must be at least 1, not {self.k}")
        if self.workers < 1:
            raise ValueError(f"workers must be at least 1, not {self.workers}")
        if self.limit is not None and self.limit < 1:
            raise ValueError(f"limit must be at least 1, not {self.limit}")

    def to_json(self) -> dict[str, Any]:
        return {
            "mechanisms": list(self.mechanisms),
            "reader": self.reader,
            "noise": list(self.levels),
            "k": self.k,
            "seed": self.seed,
            "limit": self.limit,
            "format": self.format,
            "noise_schema": self.noise_schema,
            "timings": self.timings,
            **({} if self.shard is None else {"shard": [self.shard.index, self.shard.count]}),
        }


def parse_levels(text: str) -> tuple[int, ...]:
    """``"1,10,50,100"`` -> (1, 10, 50, 100); ``"10x"`` is accepted for 10."""
    out = []
    for part in text.split(","):
        part = part.strip().lower().removesuffix("x")
        if not part.isdigit():
            raise ValueError(
                f"bad noise level {part!r} in {text!r}: give whole numbers such as 1,10,50,100"
            )
        out.append(int(part))
    return tuple(out)


def make_reader(options: BenchOptions) -> Reader:
    """The options' reader, made with its arguments (close it when done)."""
    options.check()
    return READER.get(options.reader)(**options.reader_args)


def run_bench(
    path: str | Path,
    out: str | Path,
    options: BenchOptions,
    progress: Progress | None = None,
    reader: Reader | None = None,
) -> list[dict[str, Any]]:
    """Run the benchmark on ``path`` and write ``out``; return the result records.
    ``reader``: one made by :func:`make_reader` (to read its run statistics after);
    by default one is made and closed here."""
    options.check()
    if reader is None:
        with _closing(make_reader(options)) as made:
            return run_bench(path, out, options, progress, made)
    # A run makes millions of short-lived objects (records read, noise messages) while
    # the records, the noise pool and the caches live throughout: with the default
    # thresholds the collector walked those again and again (15% of the CPU of 540
    # trajectories at 1-100x, for about 5,000 objects freed). See memsim._gc: no result
    # depends on when collections run.
    with few_collections():
        return _run_bench(path, out, options, progress, reader)


def _run_bench(
    path: str | Path,
    out: str | Path,
    options: BenchOptions,
    progress: Progress | None,
    reader: Reader,
) -> list[dict[str, Any]]:
    mechanisms: list[Memory] = [MEMORY.get(name)(k=options.k) for name in options.mechanisms]
    source = open_source(path, options.format, options.limit, options.seed)
    if not source.selected:
        raise ValueError(f"{path}: holds no trajectory")
    if options.shard is not None:  # a slice of the same selection: same noise per item
        options.shard.check_size(len(source.selected), "trajectories")
        start, stop = options.shard.bounds(len(source.selected))
        source.selected = source.selected[start:stop]
    fmt = detect_format(source.sample_times())
    pool, schema_path = None, None
    if max(options.levels) > 1:
        schema_path = _noise_schema(source, options)
        from memsim.schema import load_schema

        pool = NoisePool(load_schema(schema_path), options.seed)
    tokens = token_counter()
    run = BenchRun(
        mechanisms,
        reader,
        list(options.levels),
        options.k,
        options.seed,
        fmt,
        pool,
        tokens,
        options.timings,
    )
    for memory in mechanisms:
        if options.vector_cache is not None and hasattr(memory, "use_vector_cache"):
            memory.use_vector_cache(options.vector_cache)
    collect_rarely()  # the records and the pool, now made, live as long as the run
    try:
        if _parallel(options, reader, source):
            from memsim.bench._parallel import run_parallel

            run_parallel(run, list(source.items()), options.workers)
        else:
            run.run(with_progress(source.items(), len(source.selected), progress))
    finally:  # vectors embedded so far serve the next run, even after an interruption
        for memory in mechanisms:
            if hasattr(memory, "flush"):
                memory.flush()
    recs = records(run)
    notes = _notes(source, pool, tokens is not None, options)
    title = (
        f"memsim bench: {Path(path).name} ({source.format}, {len(source.selected)} trajectories)"
    )
    manifest = _manifest(
        source, options, run, pool, schema_path, fmt.name, tokens is not None, notes
    )
    with atomic_output_dir(out, BENCH_KIND) as stage:
        (stage / "results.json").write_bytes(dumps(recs))
        (stage / "results.md").write_text(markdown(recs, title, notes), encoding="utf-8")
        plot(recs, stage / "results.png", f"{title}; reader {reader.label}")
        (stage / MANIFEST).write_bytes(dumps(manifest))
    return recs


def _parallel(options: BenchOptions, reader: Reader, source: Source) -> bool:
    """Whether to run in worker processes: asked for, an offline reader, fork here."""
    from memsim.bench._parallel import fork_available

    return (
        options.workers > 1
        and reader.kind == BASELINE
        and len(source.selected) > 1
        and fork_available()
    )


@contextmanager
def _closing(reader: Reader) -> Iterator[Reader]:
    try:
        yield reader
    finally:
        reader.close()


def _noise_schema(source: Source, options: BenchOptions) -> Path:
    if options.noise_schema is not None:
        path = Path(options.noise_schema)
        if not path.is_file():
            raise FileNotFoundError(f"{path}: noise schema does not exist")
        return path
    return native_noise_schema(source) if source.format == "native" else memdaily_noise_schema()


def _data_is_chinese(source: Source) -> bool:
    for _, item in source.items():
        return any(has_cjk(t.text) for t in item.turns)
    return False


def _notes(
    source: Source, pool: NoisePool | None, counted: bool, options: BenchOptions
) -> list[str]:
    notes = [
        "Noise level L: each trajectory holds L times its real messages "
        "((L - 1) noise messages per real one; 1x = no noise), as in the MemSim paper.",
    ]
    chinese = _data_is_chinese(source)
    if pool is not None and (pool.locale.code == "zh") != chinese:
        notes.append(
            f"Noise language differs from the data: the noise is '{pool.locale.code}' "
            f"({pool.schema.name}) while the data is {'Chinese' if chinese else 'not Chinese'}."
        )
    if options.limit is not None:
        notes.append(f"Subset: at most {options.limit} trajectories per QA kind (seeded sample).")
    if source.dropped_flagged:
        notes.append(
            f"{source.dropped_flagged} MemDaily items flagged as failed generations were left out."
        )
    if not counted:
        notes.append("Prompt tokens not counted: pip install 'memsim[tokens]'.")
    if not options.timings:
        notes.append("Latencies not measured (--no-timings).")
    return notes


def _manifest(
    source: Source,
    options: BenchOptions,
    run: BenchRun,
    pool: NoisePool | None,
    schema_path: Path | None,
    time_format: str,
    counted: bool,
    notes: list[str],
) -> dict[str, Any]:
    noise: dict[str, Any] | None = None
    if pool is not None and schema_path is not None:
        from memsim.bench._data import _digest_file

        noise = {
            "schema": str(schema_path),
            "schema_name": pool.schema.name,
            "schema_version": pool.schema.version,
            "schema_sha256": _digest_file(schema_path),
            "locale": pool.locale.code,
            "profiles": NOISE_PROFILES,
            "profile_start": NOISE_START,
            "pool_entities": len(pool.entities),
        }
    return {
        "kind": BENCH_KIND,
        "memsim_version": __version__,
        "seed": options.seed,
        "options": options.to_json(),
        "dataset": {
            "path": str(source.path),
            "format": source.format,
            "sha256": source.digest,
            "trajectories": source.total,
            "selected": len(source.selected),
            "dropped_flagged": source.dropped_flagged,
            "time_format": time_format,
        },
        "mechanisms": [m.describe() for m in run.mechanisms],
        "reader": run.reader.describe(),
        "tokenizer": f"{TOKENIZER} (bpe-openai)" if counted else None,
        "noise": noise,
        "noise_levels": {str(lv): s.to_json() for lv, s in run.noise_stats.items()},
        "notes": notes,
        "files": ["results.json", "results.md", "results.png"],
    }
