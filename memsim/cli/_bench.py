"""``memsim bench``: memory mechanisms x a reader x noise levels on a dataset."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

import memsim.bench  # noqa: F401  (registers memory mechanisms and readers for `memsim ls`)
from memsim._shard import parse_shard
from memsim.bench._memory import DEFAULT_K
from memsim.cli._common import fail, format_names, shard_option, user_errors
from memsim.cli._common import progress_bar as _progress


@click.command("bench")
@click.argument("path", type=click.Path(path_type=Path))
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["auto", *format_names()]),
    default="auto",
    show_default=True,
    help="native: a memsim dataset folder or dataset.jsonl; memdaily: memdaily.json or a "
    "folder of NN_<type>_<scenario>.json files; see `memsim ls formats`.",
)
@click.option(
    "--mechanisms",
    default=None,
    help="Comma-separated memory mechanisms (see `memsim ls memory`) "
    "[default: every offline one installed here].",
)
@click.option(
    "--reader",
    type=click.Choice(["lexical", "llm"]),
    default="lexical",
    show_default=True,
    help="lexical: offline rule-based reader of English (comparisons, counts, the latest "
    "statement, calendar arithmetic, never told), word overlap otherwise; a non-LLM "
    "baseline. llm: a chat model "
    "answers from the retrieved memory (needs --model; key from OPENAI_API_KEY or "
    "ZHIPUAI_API_KEY).",
)
@click.option(
    "--backend",
    type=click.Choice(["openai", "zhipuai"]),
    default="openai",
    show_default=True,
    help="llm reader: an OpenAI-compatible API (vLLM, Ollama, hosted) or ZhipuAI (GLM).",
)
@click.option("--model", help="llm reader: the chat model (e.g. gpt-4o-mini, glm-4-flash).")
@click.option("--base-url", help="llm reader: the API's base URL [default: the service's own].")
@click.option(
    "--concurrency",
    type=click.IntRange(min=1, max=1024),
    default=8,
    show_default=True,
    help="llm reader: requests at once.",
)
@click.option(
    "--cache",
    "cache_dir",
    type=click.Path(file_okay=False),
    help="llm reader: reply cache [default: $MEMSIM_CACHE_DIR or ~/.cache/memsim/llm].",
)
@click.option(
    "--noise",
    "noise",
    default="1,10,50,100",
    show_default=True,
    help="Noise levels: level L gives each trajectory L times its real messages "
    "(L-1 noise messages per real one; 1 = no noise).",
)
@click.option("--out", required=True, type=click.Path(file_okay=False, path_type=Path))
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True)
@click.option(
    "--k",
    "k",
    type=click.IntRange(min=1),
    default=DEFAULT_K,
    show_default=True,
    help="Messages a top-k mechanism retrieves (every ranked mechanism alike; the "
    "default holds the evidence of any memsim or MemDaily question).",
)
@click.option(
    "--limit",
    type=click.IntRange(min=1),
    default=None,
    help="At most N trajectories per QA kind (a seeded sample).",
)
@click.option(
    "--noise-schema",
    type=click.Path(dir_okay=False),
    default=None,
    help="Schema whose profiles make the noise [default: the dataset's own schema; "
    "schemas/daily_life.zh.yaml for MemDaily-format data].",
)
@click.option(
    "--timings/--no-timings",
    default=True,
    show_default=True,
    help="Measure write/read latencies (off: results.json is byte-identical run to run).",
)
@click.option(
    "--progress/--no-progress", default=None, help="Progress bar (default: on a terminal)."
)
@click.option(
    "--window",
    type=click.IntRange(min=1),
    default=128_000,
    show_default=True,
    help="History datasets (generate --history-tokens): the reader's context window in "
    "tokens; full_context keeps the most recent turns that fit and says how much it cut.",
)
@click.option(
    "--vector-cache",
    type=click.Path(file_okay=False),
    default=None,
    help="Embedding mechanisms keep vectors here across runs, by model and text hash: "
    "each distinct text is embedded once, ever [default: $MEMSIM_VECTOR_CACHE or "
    "~/.cache/memsim/vectors]. Results are the same with it or without.",
)
@click.option("--no-vector-cache", is_flag=True, help="Keep vectors in memory for this run only.")
@click.option(
    "--workers",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Processes sharing the trajectories (offline readers); results are the same "
    "for any number.",
)
@shard_option("the selected trajectories (results are those of the slice; they do not merge)")
def bench_cmd(
    path: Path,
    fmt: str,
    mechanisms: str | None,
    reader: str,
    noise: str,
    out: Path,
    seed: int,
    k: int,
    limit: int | None,
    noise_schema: str | None,
    timings: bool,
    progress: bool | None,
    backend: str,
    model: str | None,
    base_url: str | None,
    concurrency: int,
    cache_dir: str | None,
    window: int,
    vector_cache: str | None,
    no_vector_cache: bool,
    workers: int,
    shard_spec: str | None,
) -> None:
    """Benchmark memory mechanisms on PATH: accuracy, evidence recall@k, NDCG, latency, tokens."""
    from memsim._io import check_writable
    from memsim._registry import UnknownPluginError
    from memsim.bench import (
        BenchOptions,
        installed_mechanisms,
        make_reader,
        parse_levels,
        run_bench,
    )
    from memsim.bench._api import BENCH_KIND

    with user_errors():
        check_writable(out, BENCH_KIND)  # before the benchmark runs, not after
        names = (
            tuple(m.strip() for m in mechanisms.split(",") if m.strip())
            if mechanisms is not None
            else installed_mechanisms()
        )
        options = BenchOptions(
            mechanisms=names,
            reader=reader,
            levels=parse_levels(noise),
            k=k,
            seed=seed,
            limit=limit,
            format=fmt,
            noise_schema=noise_schema,
            timings=timings,
            reader_args=_reader_args(reader, backend, model, base_url, concurrency, cache_dir),
            vector_cache=_vector_cache(vector_cache, no_vector_cache),
            shard=parse_shard(shard_spec),
            workers=workers,
        )
        try:
            made = make_reader(options)  # LLM configuration errors are ValueErrors: exit 2
        except UnknownPluginError as exc:
            fail(str(exc))
        try:
            from memsim.bench._history import is_history_dataset

            if is_history_dataset(path):  # multi-session histories: their own loop
                _history_bench(path, out, options, made, window, progress)
                return
            recs = run_bench(
                path,
                out,
                options,
                progress=lambda it, total: _progress(it, total, "trajectories", progress),
                reader=made,
            )
        except UnknownPluginError as exc:
            fail(str(exc))
        finally:
            made.close()
    for r in recs:
        if r["qa_type"] != "all":
            continue
        recall = "n/a" if r["recall_at_k"] is None else f"{r['recall_at_k']:.3f}"
        ci = f"[{r['accuracy_ci_low']:.3f}, {r['accuracy_ci_high']:.3f}]"
        click.echo(
            f"{r['mechanism']:>13} {r['noise']:>4}x  accuracy {r['accuracy']:.3f} {ci}  "
            f"recall@{r['k']} {recall}"
        )
    stats = made.run_stats()
    if stats:
        click.echo("reader run: " + ", ".join(f"{k} {v}" for k, v in stats.items() if v))
    click.echo(f"wrote {out} (reader {made.label})")


def _vector_cache(folder: str | None, off: bool) -> str | None:
    if off and folder:
        fail("--vector-cache and --no-vector-cache contradict each other")
    if off:
        return None
    from memsim.bench._vectors import default_vector_cache

    return folder or str(default_vector_cache())


def _history_bench(
    path: Path, out: Path, options: Any, made: Any, window: int, progress: bool | None
) -> None:
    from memsim.bench._history import run_history_bench, summary_lines

    results = run_history_bench(
        path,
        out,
        options,
        made,
        window,
        progress=lambda it, total: _progress(it, total, "histories", progress),
    )
    for line in summary_lines(results):
        click.echo(line)
    click.echo(f"wrote {out} (reader {made.label})")


def _reader_args(
    reader: str,
    backend: str,
    model: str | None,
    base_url: str | None,
    concurrency: int,
    cache_dir: str | None,
) -> dict[str, object]:
    """The llm reader's arguments; the LLM options make no sense with another reader."""
    if reader != "llm":
        given = [name for name, v in (("--model", model), ("--base-url", base_url)) if v]
        if given:
            raise ValueError(f"{', '.join(given)} only apply to --reader llm")
        return {}
    return {
        "backend": backend,
        "model": model,
        "base_url": base_url,
        "concurrency": concurrency,
        "cache_dir": cache_dir,
    }
