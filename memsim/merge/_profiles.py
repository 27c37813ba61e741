"""Merge profile shards: the profile files side by side, and the manifest one machine
writes for ``--n total`` (start 0, n and count the total, no shard entry)."""

from __future__ import annotations

import shutil
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from memsim._io import MANIFEST, atomic_output_dir, dumps
from memsim._shard import SHARD_KEY, ShardError
from memsim.merge._tiling import ShardOutput, check_same_run, check_tiling
from memsim.profile._store import PROFILES_KIND, profile_file

PER_SHARD = ("start", "n", "count")


def merge_profiles(outputs: Sequence[ShardOutput], out: Path) -> dict[str, Any]:
    """Write the merged profiles folder at ``out`` atomically; return its manifest."""
    check_same_run(outputs, PER_SHARD)
    ordered = check_tiling(outputs)
    for shard in ordered:  # every file there before anything is written
        if int(shard.manifest.get("count", -1)) != shard.stop - shard.start:
            raise ShardError(
                f"{shard.path}: its manifest counts {shard.manifest.get('count')} profiles, "
                f"not the {shard.stop - shard.start} of its range"
            )
        for k in (shard.start, shard.stop - 1):
            if not (shard.path / profile_file(k)).is_file():
                raise ShardError(f"{shard.path}: {profile_file(k)} is missing")
    total = int(ordered[0].shard["total"])
    manifest = {k: v for k, v in ordered[0].manifest.items() if k != SHARD_KEY} | {
        "start": 0,
        "n": total,
        "count": total,
    }
    with atomic_output_dir(out, PROFILES_KIND) as stage:
        for shard in ordered:
            for k in range(shard.start, shard.stop):
                name = profile_file(k)
                try:
                    shutil.copyfile(shard.path / name, stage / name)
                except FileNotFoundError:
                    raise ShardError(f"{shard.path}: {name} is missing") from None
        (stage / MANIFEST).write_bytes(dumps(manifest))
    return manifest


__all__ = ["merge_profiles"]
