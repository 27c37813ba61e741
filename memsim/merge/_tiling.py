"""Check that the outputs given to ``memsim merge`` are the shards of one run: the
same kind, made with the same schema, seed, options and memsim version, whose index
ranges tile ``0..total-1`` with no gap and no overlap.

Every problem is found before anything is written, and named: the folder, and the
field in which it differs from the first shard.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from memsim._io import MANIFEST
from memsim._shard import SHARD_KEY, Shard, ShardError

NOT_MERGED = {
    "audit_report": "audit reports do not merge: the shortcut baselines and other "
    "whole-dataset statistics of a slice do not add up to the whole's. Audit each "
    "shard (its exit status says whether its items are clean), or audit the merged "
    "dataset on one machine",
    "bench": "bench results do not merge: accuracy, its bootstrap intervals and the "
    "latency percentiles are statistics of all items. Bench the merged dataset, or "
    "read each shard's results as those of its slice",
}
"""Outputs that --shard makes but merge refuses, and why."""


@dataclass(frozen=True)
class ShardOutput:
    path: Path
    manifest: dict[str, Any]

    @property
    def shard(self) -> dict[str, Any]:
        return dict(self.manifest[SHARD_KEY])

    @property
    def start(self) -> int:
        return int(self.shard["start"])

    @property
    def stop(self) -> int:
        return int(self.shard["stop"])


def read_output(path: Path, manifest_name: str = MANIFEST) -> ShardOutput:
    """A shard's folder with its manifest, or a ShardError saying why it is not one."""
    file = path / manifest_name
    try:
        data = orjson.loads(file.read_bytes())
    except FileNotFoundError:
        raise ShardError(f"{path}: no {manifest_name}; is this a memsim shard output?") from None
    except (OSError, orjson.JSONDecodeError) as exc:
        raise ShardError(f"{file}: cannot read: {exc}") from None
    reason = NOT_MERGED.get(str(data.get("kind"))) if isinstance(data, dict) else None
    if reason is not None:
        raise ShardError(f"{path}: {reason}")
    if not isinstance(data, dict) or not isinstance(data.get(SHARD_KEY), dict):
        raise ShardError(
            f"{path}: not a shard (its {manifest_name} has no '{SHARD_KEY}' entry): merge "
            "takes the outputs of --shard I/N runs"
        )
    return ShardOutput(path, data)


def _flat(value: Any, prefix: str = "") -> dict[str, Any]:
    if isinstance(value, Mapping):
        out: dict[str, Any] = {}
        for key, inner in value.items():
            out.update(_flat(inner, f"{prefix}{key}."))
        return out or {prefix.rstrip("."): {}}
    return {prefix.rstrip("."): value}


def check_same_run(outputs: Sequence[ShardOutput], ignore: Iterable[str]) -> None:
    """Every shard agrees with the first on every manifest field but ``ignore`` (the
    fields that describe one slice: its counts, files' digests, shard range)."""
    skip = set(ignore) | {f"{SHARD_KEY}.index", f"{SHARD_KEY}.start", f"{SHARD_KEY}.stop"}
    first = outputs[0]
    base = _flat(first.manifest)

    def kept(flat: dict[str, Any]) -> dict[str, Any]:
        return {
            k: v for k, v in flat.items() if not any(k == s or k.startswith(s + ".") for s in skip)
        }

    want = kept(base)
    for other in outputs[1:]:
        got = kept(_flat(other.manifest))
        for key in sorted(set(want) | set(got)):
            if want.get(key) != got.get(key):
                raise ShardError(
                    f"{other.path} is not a shard of the same run as {first.path}: "
                    f"{key} is {got.get(key)!r} there and {want.get(key)!r} here "
                    "(shards merge only when made with the same schema, seed, options and "
                    "memsim version)"
                )


def check_tiling(outputs: Sequence[ShardOutput]) -> list[ShardOutput]:
    """The shards in order, once they are shown to cover ``0..total-1`` exactly once
    (each shard's range is the one its I/N gives)."""
    ordered = sorted(outputs, key=lambda o: (o.start, int(o.shard["index"])))
    count, total = int(ordered[0].shard["of"]), int(ordered[0].shard["total"])
    seen: dict[int, ShardOutput] = {}
    for out in ordered:
        index = int(out.shard["index"])
        if index in seen:
            raise ShardError(
                f"overlapping shards: {seen[index].path} and {out.path} are both shard "
                f"{index}/{count} (items {out.start}..{out.stop - 1})"
            )
        if (out.start, out.stop) != Shard(index, count).bounds(total):
            raise ShardError(
                f"{out.path}: shard {index}/{count} holds items {out.start}..{out.stop - 1}, "
                f"not the range {index}/{count} of {total} gives"
            )
        seen[index] = out
    missing = [i for i in range(count) if i not in seen]
    if missing:
        ranges = ", ".join(
            f"{i}/{count} (items {a}..{b - 1})"
            for i in missing
            for a, b in [Shard(i, count).bounds(total)]
        )
        raise ShardError(f"missing shard(s) {ranges}: merge needs all {count} shards of the run")
    return ordered


def add_counts(a: Any, b: Any) -> Any:
    """Sum two count trees (ints, or dicts of them, nested): a merged run's counts."""
    if a is None or b is None:  # a key one side lacks
        return b if a is None else a
    if isinstance(a, dict) and isinstance(b, dict):
        return {k: add_counts(a.get(k), b.get(k)) for k in {**a, **b}}
    if any(isinstance(x, bool) or not isinstance(x, int | float) for x in (a, b)):
        raise ShardError(f"cannot add counts {a!r} and {b!r}")
    return a + b


__all__ = ["ShardOutput", "add_counts", "check_same_run", "check_tiling", "read_output"]
