"""The ``memsim`` command line.

Exit status: 0 on success, 1 when a run finds problems in data (audits), 2 on bad
input (a schema with errors, a folder that would be overwritten, a missing extra).
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path
from typing import Any

import click

from memsim import __version__
from memsim._io import atomic_write_bytes, check_writable, dumps
from memsim._shard import SHARD_KEY, parse_shard
from memsim.cli._common import (
    BAD_INPUT,
    MAX_WORKERS,
    fail,
    format_names,
    shard_option,
    user_errors,
)
from memsim.cli._common import load as _load
from memsim.cli._common import progress_bar as _progress
from memsim.cli._lazy import LazyGroup
from memsim.cli._llm import accounting_lines, llm_options, rewrite_options

schema_option = click.option(
    "--schema",
    "schema_path",
    required=True,
    type=click.Path(dir_okay=False),
    help="YAML schema file (see schemas/).",
)


@click.group(
    cls=LazyGroup,
    # imported when run or listed by --help (importing them all cost every command ~0.4 s)
    lazy={
        "audit": "memsim.cli._audit:audit_cmd",
        "bench": "memsim.cli._bench:bench_cmd",
        "export": "memsim.cli._export:export_cmd",
        "merge": "memsim.cli._merge:merge_cmd",
    },
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
)
@click.version_option(__version__, prog_name="memsim")
def main() -> None:
    """Generate grounded memory-QA datasets from a Bayesian network of user profiles."""


# --- schema ----------------------------------------------------------------------------
@main.group()
def schema() -> None:
    """Check schema files and export the schema language."""


@schema.command("validate")
@click.argument("paths", nargs=-1, required=True, type=click.Path(dir_okay=False))
def schema_validate(paths: tuple[str, ...]) -> None:
    """Load and check every PATH; print every problem as file:line:col."""
    from memsim.graph import BRNet
    from memsim.qa import plan_problems
    from memsim.schema import SchemaError, load_schema, schema_warnings
    from memsim.verbalize import overlay_problems, schema_locale, unsayable_phrasings

    failed = 0
    for path in paths:
        try:
            net = BRNet(load_schema(path))
        except SchemaError as exc:
            failed += 1
            # the overlay's problems too, not only once the schema's are fixed
            for line in (*exc.messages, *overlay_problems(path)):
                click.echo(line, err=True)
            continue
        s = net.schema
        try:
            loc = schema_locale(s)  # the language's locale data with the schema's overlay
        except ValueError as exc:
            failed += 1
            click.echo(str(exc), err=True)
            continue
        # the QA plan's warnings, and phrasings no form of the user's says ("I's")
        warned = lambda t, loc=loc: plan_problems(t) + unsayable_phrasings(t, loc)  # noqa: E731
        for line in schema_warnings(path, warned, s):
            click.echo(line, err=True)
        click.echo(
            f"{path}: ok ({s.name} {s.version}, {len(s.entities)} entity kinds, "
            f"{len(net)} nodes, {len(net.edges())} edges)"
        )
    if failed:
        click.echo(f"memsim: {failed} of {len(paths)} schema(s) have problems", err=True)
        sys.exit(BAD_INPUT)


@schema.command("json-schema")
@click.option("--out", type=click.Path(dir_okay=False), help="Write here instead of stdout.")
def schema_json_schema(out: str | None) -> None:
    """Print a JSON Schema of the schema language (for editor validation and completion)."""
    from memsim.schema import json_schema

    data = dumps(json_schema())
    if out:
        atomic_write_bytes(out, data)
    else:
        click.echo(data.decode(), nl=False)


# --- graph -----------------------------------------------------------------------------
@main.group()
def graph() -> None:
    """Inspect, export and draw the Bayesian network of a schema."""


@graph.command("info")
@schema_option
def graph_info(schema_path: str) -> None:
    """List every node with its distribution and parents, then what each kind and attribute
    means to the code (declared in the schema, or inferred): the question kinds and
    transforms that may ask it, its role, whether it sets the rewrite persona."""
    from memsim.graph import BRNet
    from memsim.schema import describe

    schema = _load(schema_path)
    net = BRNet(schema)
    for node in net:
        parents = ", ".join(node.parents) or "-"
        click.echo(f"{node.id:32s} {node.dist_kind:13s} <- {parents}")
    click.echo(
        f"{len(net)} nodes, {len(net.edges())} edges, "
        f"{len(net.discrete_nodes())} discrete (in the pgmpy network)"
    )
    click.echo("")
    for line in describe(schema):
        click.echo(line)


@graph.command("export")
@schema_option
@click.option(
    "--format", "fmt", type=click.Choice(["bif", "xmlbif"]), default="bif", show_default=True
)
@click.option("--out", required=True, type=click.Path(dir_okay=False))
def graph_export(schema_path: str, fmt: str, out: str) -> None:
    """Write the discrete network (all categorical nodes and CPDs) for pgmpy and other tools."""
    from memsim.graph import BRNet, export_network

    net = BRNet(_load(schema_path))
    with user_errors():
        export_network(net, out, fmt)  # type: ignore[arg-type]
    click.echo(f"wrote {out} ({len(net.discrete_nodes())} variables)")


@graph.command("render")
@schema_option
@click.option("--out", required=True, type=click.Path(dir_okay=False), help="FILE.svg or FILE.png")
@click.option(
    "--slots", is_flag=True, help="Draw every entity slot instead of one node per attribute."
)
def graph_render(schema_path: str, out: str, slots: bool) -> None:
    """Draw the dependencies of a schema."""
    from memsim.graph import BRNet, render_network

    net = BRNet(_load(schema_path))
    with user_errors():
        render_network(net, out, slots=slots)
    click.echo(f"wrote {out}")


# --- profiles --------------------------------------------------------------------------
@main.command("profiles")
@schema_option
@click.option("--n", "n", type=click.IntRange(min=1), required=True, help="Number of profiles.")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True)
@click.option(
    "--start",
    type=click.IntRange(min=0),
    default=0,
    show_default=True,
    help="Index of the first profile (shards: --start i*n).",
)
@click.option("--out", required=True, type=click.Path(file_okay=False))
@shard_option("profiles 0..N-1")
@click.option(
    "--progress/--no-progress", default=None, help="Progress bar (default: on a terminal)."
)
def profiles_cmd(
    schema_path: str,
    n: int,
    seed: int,
    start: int,
    out: str,
    shard_spec: str | None,
    progress: bool | None,
) -> None:
    """Sample N profiles and write one JSON file each, plus a manifest, atomically."""
    from memsim.graph import BRNet
    from memsim.profile import write_profiles
    from memsim.profile._store import PROFILES_KIND
    from memsim.sampling import ProfileSampler

    schema_obj = _load(schema_path)
    with user_errors():
        check_writable(out, PROFILES_KIND)
        shard = parse_shard(shard_spec)
        if shard is not None:
            if start:
                fail("--shard takes its own range of profiles 0..N-1: leave out --start")
            shard.check_size(n, "profiles")
    total = n
    if shard is not None:  # this machine's slice; the manifest says of what
        start, stop = shard.bounds(total)
        n = stop - start
    net = BRNet(schema_obj)
    _check_disk(ProfileSampler(net), seed, start, n, Path(out))
    manifest = {
        "schema": {
            "name": schema_obj.name,
            "version": schema_obj.version,
            "sha256": hashlib.sha256(Path(schema_path).read_bytes()).hexdigest(),
        },
        "seed": seed,
        "start": start,
        "n": n,
        "memsim_version": __version__,
    }
    if shard is not None:
        manifest[SHARD_KEY] = shard.to_json(total)
    with user_errors():
        profiles = ProfileSampler(net).profiles(seed, start, start + n)
        count = write_profiles(_progress(profiles, n, "profiles", progress), out, manifest)
    click.echo(f"wrote {count} profiles to {out}")


def _check_disk(sampler: Any, seed: int, start: int, n: int, out: Path) -> None:
    """Refuse, before sampling, a request that cannot fit on the disk (profile ``start``
    measured, times ``n``, with a 50% margin)."""
    import shutil

    from memsim.profile import profile_bytes

    one = len(profile_bytes(next(iter(sampler.profiles(seed, start, start + 1)))))
    folder = next((p for p in (out.parent, *out.parent.parents) if p.exists()), Path("."))
    free = shutil.disk_usage(folder).free
    needed = int(one * n * 1.5)
    if needed > free:
        fail(
            f"--n {n:,} profiles need about {needed / 2**30:,.1f} GiB "
            f"({one:,} bytes each); {folder} has {free / 2**30:,.1f} GiB free"
        )


# --- dataset ---------------------------------------------------------------------------
@main.command("generate")
@schema_option
@click.option(
    "--profiles",
    "profiles_dir",
    required=True,
    type=click.Path(file_okay=False),
    help="Profiles folder written by `memsim profiles` (one profile per trajectory).",
)
@click.option("--out", required=True, type=click.Path(file_okay=False))
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True)
@click.option(
    "--per-type",
    type=click.IntRange(min=1),
    default=500,
    show_default=True,
    help="Questions per QA kind, split evenly over its scenarios.",
)
@click.option(
    "--types",
    default="",
    help="Comma-separated QA kinds (see `memsim ls qa_kind`); default: every kind the schema "
    "supports (knowledge_update and temporal need an attribute with changes:).",
)
@click.option(
    "--workers",
    type=click.IntRange(min=1, max=MAX_WORKERS),
    default=1,
    show_default=True,
    help="Worker processes; the output is identical for any number.",
)
@click.option(
    "--formats",
    default="memdaily",
    show_default=True,
    help="Comma-separated formats written beside dataset.jsonl (native, always written; "
    "see `memsim ls formats`); '' or native for none.",
)
@click.option(
    "--progress/--no-progress", default=None, help="Progress bar (default: on a terminal)."
)
@click.option(
    "--history-tokens",
    default=None,
    help="Give every question a multi-session history of this many tokens (o200k_base; "
    "e.g. 32000, 128000, 1000000), or a preset's (longmemeval_s: 115000, longmemeval_m: "
    "1500000): its own sessions plus shared filler sessions.",
)
@click.option(
    "--evidence-depth",
    default="uniform",
    show_default=True,
    help="With --history-tokens: where the evidence sits, as a share of the filler before "
    "it: 'uniform', or comma-separated fractions given to questions in turn (0,0.5,1).",
)
@click.option(
    "--assistant",
    type=click.Choice(["template", "openai", "zhipuai"]),
    default="template",
    show_default=True,
    help="With --history-tokens: who writes the assistant turns: the locale's templates, "
    "or that chat API (verified; the template is kept when a reply fails). Uses "
    "--concurrency and --cache.",
)
@click.option("--assistant-model", help="Chat model for --assistant openai / zhipuai.")
@click.option("--assistant-base-url", help="Server for --assistant (default: the service's).")
@shard_option("the question plan (trajectories 0..per_type x kinds - 1)")
@llm_options
def generate_cmd(
    schema_path: str,
    profiles_dir: str,
    out: str,
    seed: int,
    per_type: int,
    types: str,
    workers: int,
    formats: str,
    progress: bool | None,
    history_tokens: str | None,
    evidence_depth: str,
    assistant: str,
    assistant_model: str | None,
    assistant_base_url: str | None,
    shard_spec: str | None,
    **llm: Any,
) -> None:
    """Generate a QA dataset: dataset.jsonl, the --formats (memdaily.json), data card and
    manifest."""
    from memsim.dataset import DATASET_KIND, GenerateOptions, generate_dataset
    from memsim.qa import ASSISTANT_KINDS, QA_KINDS, default_kinds

    rewrite = rewrite_options(**llm)
    budget = _budget(history_tokens)
    schema_obj = _load(schema_path)
    with user_errors():
        check_writable(out, DATASET_KIND)
    kinds = (
        tuple(t.strip() for t in types.split(",") if t.strip())
        if types
        else default_kinds(schema_obj)
    )
    if budget is not None and not types and _has_lookups(schema_obj):
        kinds += ASSISTANT_KINDS  # evidence said by the assistant needs assistant turns
    if set(kinds) & set(ASSISTANT_KINDS) and not _has_lookups(schema_obj):
        fail(
            f"QA kind(s) {', '.join(ASSISTANT_KINDS)}: the locale '{schema_obj.locale}' has no "
            "conversation lookups, found and recalled lines"
        )
    if budget is None and set(kinds) & set(ASSISTANT_KINDS):
        fail(f"QA kind(s) {', '.join(ASSISTANT_KINDS)} need assistant turns: add --history-tokens")
    unknown = [k for k in kinds if k not in QA_KINDS]
    if unknown or not kinds:
        fail(f"unknown QA kind(s) {unknown} (known: {', '.join(QA_KINDS.names())})")
    wanted = [f.strip() for f in formats.split(",") if f.strip() and f.strip() != "native"]
    unknown_formats = [f for f in wanted if f not in format_names()]
    if unknown_formats:
        fail(f"unknown format(s) {unknown_formats} (known: {', '.join(format_names())})")
    options = GenerateOptions(
        seed=seed, per_type=per_type, types=kinds, verbalizer=llm["verbalizer"]
    )
    history = _history_options(budget, evidence_depth)
    if assistant != "template":
        if history is None or not assistant_model:
            fail("--assistant openai/zhipuai needs --history-tokens and --assistant-model")
        from dataclasses import replace

        from memsim.history import AssistantLLM

        config = AssistantLLM(
            assistant, assistant_model, assistant_base_url, llm["concurrency"], llm["cache_dir"]
        )
        history = replace(history, assistant=config)
    bar = lambda it, total: _progress(it, total, "trajectories", progress)  # noqa: E731
    with user_errors():
        shard = parse_shard(shard_spec)
        if shard is not None and history is not None:
            fail(
                "--shard does not combine with --history-tokens yet (the filler pool is "
                "shared by every question); generate histories on one machine"
            )
        if history is None:
            counts = generate_dataset(
                schema_obj,
                Path(schema_path),
                Path(profiles_dir),
                Path(out),
                options,
                progress=bar,
                workers=workers,
                rewrite=rewrite,
                formats=tuple(dict.fromkeys(wanted)),
                shard=shard,
            )
        else:  # histories to a token budget have their own streaming writer
            from memsim.dataset import check_request
            from memsim.history import write_history_dataset

            if rewrite is not None:
                raise ValueError(
                    "an LLM rewrite of messages (--verbalizer) does not combine with histories "
                    "yet; --assistant has an LLM write the assistant turns"
                )
            check_request(Path(profiles_dir), options)
            counts = write_history_dataset(
                schema_obj, Path(schema_path), Path(profiles_dir), Path(out), options, history,
                workers, bar,
            )  # fmt: skip
    click.echo(
        f"wrote {counts['trajectories']} trajectories, {counts['messages']} messages to {out}"
    )
    for line in accounting_lines(counts["llm"]) if "llm" in counts else []:
        click.echo(line)
    if "assistant_turns" in counts:
        done = ", ".join(f"{k} {v}" for k, v in counts["assistant_turns"].items())
        click.echo(f"assistant turns by the LLM: {done}")


def _has_lookups(schema: Any) -> bool:
    """Whether the schema's locale can word evidence said by the assistant."""
    from memsim.verbalize import schema_locale

    conv = schema_locale(schema).conversation
    return conv is not None and bool(conv.lookups and conv.found and conv.recalled)


def _budget(value: str | None) -> int | None:
    """--history-tokens: a number of tokens (at least 1000) or a preset's name."""
    if value is None:
        return None
    from memsim.history import HISTORY_PRESETS

    if value in HISTORY_PRESETS:
        return HISTORY_PRESETS[value]
    try:
        tokens = int(value.replace(",", "").replace("_", ""))
    except ValueError:
        tokens = 0
    if tokens < 1000:
        fail(
            f"--history-tokens: {value!r} is not a number of tokens (at least 1000) or a "
            f"preset ({', '.join(HISTORY_PRESETS)})"
        )
    return tokens


def _history_options(tokens: int | None, depth: str) -> Any:
    """HistoryOptions from the options, or None without --history-tokens."""
    if tokens is None:
        if depth.strip() != "uniform":
            fail("--evidence-depth needs --history-tokens")
        return None
    from memsim.history import HistoryOptions

    if depth.strip() == "uniform":
        return HistoryOptions(tokens)
    try:
        depths = tuple(float(d) for d in depth.split(",") if d.strip())
    except ValueError:
        fail(f"--evidence-depth: {depth!r} is not 'uniform' or comma-separated fractions")
    if not depths or not all(0.0 <= d <= 1.0 for d in depths):
        fail(f"--evidence-depth: {depth!r}: fractions must be between 0 and 1")
    return HistoryOptions(tokens, depths)


# --- plugins ---------------------------------------------------------------------------
@main.command("ls")
@click.argument("family", required=False)
def ls_cmd(family: str | None) -> None:
    """List plugin families, or the plugins of FAMILY."""
    import memsim.audit
    import memsim.bench
    import memsim.formats
    import memsim.llm
    import memsim.qa
    import memsim.sampling
    import memsim.verbalize  # noqa: F401  (registers verbalizers, LLM backends)
    from memsim._registry import REGISTRIES

    if family is None:
        for name, reg in sorted(REGISTRIES.items()):
            click.echo(f"{name}: {', '.join(reg.names())}")
        return
    if family not in REGISTRIES and family.endswith("s") and family[:-1] in REGISTRIES:
        family = family[:-1]  # `memsim ls formats` lists the format family
    if family not in REGISTRIES:
        fail(f"unknown plugin family '{family}' (known: {', '.join(sorted(REGISTRIES))})")
    for name in REGISTRIES[family].names():
        click.echo(name)
