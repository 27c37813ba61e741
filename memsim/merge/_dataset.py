"""Merge dataset shards: ``dataset.jsonl`` is the shards' lines joined in plan order;
everything else (the other formats, the data card, the manifest) is remade from it by
the code that makes a whole dataset (:func:`memsim.dataset.finish_dataset`), so the
merged folder is byte-identical to one machine's.

Each shard's ``dataset.jsonl`` is checked against the sha256 its manifest holds before
it is used: a cut or edited shard is refused, not merged.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from memsim._io import DATASET_FILE, atomic_output_dir
from memsim._shard import SHARD_KEY, ShardError
from memsim.dataset import DATASET_KIND, card_notes, card_title, finish_dataset
from memsim.merge._tiling import ShardOutput, add_counts, check_same_run, check_tiling

PER_SHARD = ("counts", "files", "card_files", "sha256", "llm.dataset")
"""Manifest fields that describe one slice (the rest must agree across shards)."""
BLOCK = 1 << 20


def _checked_lines(shard: ShardOutput) -> Path:
    """The shard's dataset.jsonl, once its bytes match the manifest's sha256."""
    file = shard.path / DATASET_FILE
    want = shard.manifest.get("sha256", {}).get(DATASET_FILE)
    h = hashlib.sha256()
    try:
        with open(file, "rb") as f:
            for block in iter(lambda: f.read(BLOCK), b""):
                h.update(block)
    except OSError as exc:
        raise ShardError(f"{file}: cannot read: {exc.strerror or exc}") from None
    if h.hexdigest() != want:
        raise ShardError(
            f"{file}: does not match the sha256 in its manifest (cut, edited or still "
            "being written); make this shard again"
        )
    return file


def merge_datasets(outputs: Sequence[ShardOutput], out: Path) -> dict[str, Any]:
    """Write the merged dataset folder at ``out`` atomically; return its counts."""
    check_same_run(outputs, PER_SHARD)
    ordered = check_tiling(outputs)
    files = [_checked_lines(shard) for shard in ordered]
    counts: dict[str, Any] = {}
    account: dict[str, Any] | None = None
    for shard in ordered:
        counts = add_counts(counts, shard.manifest["counts"])
        if "llm" in shard.manifest:  # what the LLM pass needed adds up over shards
            account = add_counts(account or {}, shard.manifest["llm"].get("dataset", {}))
    first = ordered[0].manifest
    common = {k: v for k, v in first.items() if k not in (SHARD_KEY, "card_files", "sha256")}
    if account is not None:
        common["llm"] = {**first["llm"], "dataset": account}

    def manifest(made_counts: dict[str, Any], written: list[str]) -> dict[str, Any]:
        return common | {"counts": made_counts, "files": [DATASET_FILE, *written]}

    schema = first["schema"]
    with atomic_output_dir(out, DATASET_KIND) as stage:
        with open(stage / DATASET_FILE, "wb") as joined:
            for file in files:
                with open(file, "rb") as part:
                    for block in iter(lambda: part.read(BLOCK), b""):
                        joined.write(block)
        finish_dataset(
            stage,
            counts,
            schema["locale"],
            manifest,
            card_title(schema["name"], schema["version"], first["options"]["seed"]),
            card_notes(schema["locale"]),
            first[SHARD_KEY].get("formats", ()),
        )
    return counts


__all__ = ["merge_datasets"]
