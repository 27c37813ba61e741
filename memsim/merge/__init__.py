"""``memsim merge``: join the outputs of ``--shard I/N`` runs into the output one
machine makes, byte for byte.

What merges: profiles folders (the files side by side, the whole run's manifest) and
dataset folders (the lines joined in plan order; every other file remade from them).
The shards must be all N of one run (same kind, schema, seed, options and memsim
version; index ranges tiling the run with no gap and no overlap), else nothing is
written and the error names the folder and the field.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from memsim._shard import ShardError
from memsim.merge._dataset import merge_datasets
from memsim.merge._profiles import merge_profiles
from memsim.merge._tiling import ShardOutput, add_counts, read_output

MERGERS = {"profiles": merge_profiles, "dataset": merge_datasets}
"""What merges, by the ``kind`` of its manifest."""


def read_shards(paths: Sequence[str | Path]) -> tuple[str, list[ShardOutput]]:
    """The shards' kind and outputs, once they are all shard outputs of one kind."""
    if not paths:
        raise ShardError("merge needs the shard folders to join")
    outputs = [read_output(Path(p)) for p in paths]
    kinds = {str(o.manifest.get("kind")) for o in outputs}
    if len(kinds) > 1:
        raise ShardError(f"cannot merge outputs of different kinds: {', '.join(sorted(kinds))}")
    kind = kinds.pop()
    if kind not in MERGERS:
        raise ShardError(f"cannot merge '{kind}' outputs (mergeable: {', '.join(MERGERS)})")
    return kind, outputs


def merge(paths: Sequence[str | Path], out: str | Path) -> tuple[str, dict[str, Any]]:
    """Merge the shard folders ``paths`` into ``out``; return the kind and what the
    merger returned (the profiles manifest, or the dataset's counts)."""
    kind, outputs = read_shards(paths)
    out = Path(out)
    if any(out.resolve() == o.path.resolve() for o in outputs):
        raise ShardError(f"{out}: is one of the shards; merge into another folder")
    return kind, MERGERS[kind](outputs, out)


__all__ = ["MERGERS", "ShardOutput", "add_counts", "merge", "read_shards"]
