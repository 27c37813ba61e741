"""``memsim merge``: join shard outputs (``--shard I/N``) into one machine's output."""

from __future__ import annotations

import click

from memsim.cli._common import user_errors


@click.command("merge")
@click.argument("shards", nargs=-1, required=True, type=click.Path(file_okay=False))
@click.option("--out", required=True, type=click.Path(file_okay=False))
def merge_cmd(shards: tuple[str, ...], out: str) -> None:
    """Join the folders SHARDS made by `memsim profiles` or `memsim generate` with
    --shard I/N (all N of them, in any order) into OUT: byte-identical to the folder one
    machine makes without --shard. Shards of different runs, a missing or repeated
    shard, or an edited file: an error, and nothing is written."""
    from memsim.merge import merge

    with user_errors():
        kind, made = merge(shards, out)
    if kind == "profiles":
        click.echo(f"merged {len(shards)} shards: {made['count']} profiles to {out}")
    else:
        click.echo(
            f"merged {len(shards)} shards: {made['trajectories']} trajectories, "
            f"{made['messages']} messages to {out}"
        )
