"""What a dataset shard shares with a whole dataset: the data card's title and notes
(made from the manifest alone, so a merge writes the same card), and the profiles a
shard reads.

A shard of the question plan (``--shard I/N``) reads profiles ``start..stop-1`` only:
from the whole profiles folder, or from the same shard of a sharded one. Its manifest
records the whole profiles folder's count either way (a profile shard's manifest says
how many the whole run sampled), so every shard, and the merge, say what one machine
would say.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from memsim._shard import SHARD_KEY
from memsim.profile import schema_manifest


def card_title(name: str, version: str, seed: int) -> str:
    # no path in the title: the same options give the same bytes in any folder
    return f"Data card: {name} {version}, seed {seed}"


def card_notes(locale: str) -> list[str]:
    return [f"Locale: {locale} (the language of messages, questions and options)."]


def check_shard_profiles(folder: Path, schema_name: str, tids: range) -> dict[str, Any]:
    """The folder's manifest, as the whole run's (count: all profiles sampled), once it
    is shown to hold profiles ``tids`` sampled from the schema named ``schema_name``."""
    manifest = schema_manifest(folder, schema_name)
    start, count = int(manifest.get("start", 0)), int(manifest.get("count", 0))
    if start > tids.start or start + count < tids.stop:
        raise ValueError(
            f"{folder}: holds profiles {start}..{start + count - 1}; this shard needs "
            f"profiles {tids.start}..{tids.stop - 1} (one per trajectory): give the whole "
            "profiles folder or the same --shard of it"
        )
    whole = manifest.get(SHARD_KEY)
    if isinstance(whole, dict):  # a profile shard: say what the whole run sampled
        return {**manifest, "count": int(whole["total"])}
    return manifest


__all__ = ["card_notes", "card_title", "check_shard_profiles"]
