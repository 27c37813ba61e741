"""``memsim bench``: memory mechanisms x a reader x noise levels on a dataset."""

from __future__ import annotations

from pathlib import Path

import click

import memsim.bench  # noqa: F401  (registers memory mechanisms and readers for `memsim ls`)


@click.command("bench")
@click.argument("path", type=click.Path(path_type=Path))
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["auto", "native", "memdaily"]),
    default="auto",
    show_default=True,
    help="native: a memsim dataset folder or dataset.jsonl; memdaily: memdaily.json or a "
    "folder of NN_<type>_<scenario>.json files.",
)
@click.option(
    "--mechanisms",
    default=None,
    help="Comma-separated memory mechanisms (see `memsim ls memory`) "
    "[default: every offline one installed here].",
)
@click.option(
    "--reader",
    type=click.Choice(["lexical"]),
    default="lexical",
    show_default=True,
    help="lexical: offline word-overlap reader (a non-LLM baseline).",
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
    default=5,
    show_default=True,
    help="Messages a top-k mechanism retrieves.",
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
) -> None:
    """Benchmark memory mechanisms on PATH: accuracy, evidence recall@k, NDCG, latency, tokens."""
    from memsim._registry import UnknownPluginError
    from memsim.bench import BenchOptions, installed_mechanisms, parse_levels, run_bench
    from memsim.cli._main import _progress, fail, user_errors

    with user_errors():
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
            format=fmt,  # type: ignore[arg-type]  # click.Choice checked it
            noise_schema=noise_schema,
            timings=timings,
        )
        try:
            recs = run_bench(
                path,
                out,
                options,
                progress=lambda it, total: _progress(it, total, "trajectories", progress),
            )
        except UnknownPluginError as exc:
            fail(str(exc))
    for r in recs:
        if r["qa_type"] != "all":
            continue
        recall = "n/a" if r["recall_at_k"] is None else f"{r['recall_at_k']:.3f}"
        click.echo(
            f"{r['mechanism']:>13} {r['noise']:>4}x  accuracy {r['accuracy']:.3f}  "
            f"recall@{r['k']} {recall}"
        )
    click.echo(f"wrote {out} (reader {reader}: a non-LLM baseline)")
