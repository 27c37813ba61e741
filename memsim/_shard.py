"""Shards: slice ``I`` of ``N`` of a run, by index range, so that N machines each make
one slice and ``memsim merge`` joins them into what one machine makes.

A run is a sequence of numbered units (profiles; trajectories of the question plan;
audited or benchmarked items), and unit k depends only on the seed and k: profile k
draws from its own counter-based stream, trajectory t from ``(seed, 1, t)`` and
profile t. Shard I of N holds units ``[I*total//N, (I+1)*total//N)``: contiguous
ranges that cover ``0..total-1`` exactly once, sizes differing by at most one. The
range depends only on (I, N, total), so each machine computes its own without talking
to the others, and the merge checks that the ranges it is given tile the run.

Shards are numbered from 0 (``--shard 0/4`` .. ``--shard 3/4``), as a Slurm job array
``--array=0-3`` numbers its tasks (``SLURM_ARRAY_TASK_ID``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

SHARD_KEY = "shard"
"""The manifest key that marks an output as one shard (absent from a whole run)."""

_SPEC = re.compile(r"^\s*(\d+)\s*/\s*(\d+)\s*$")


class ShardError(ValueError):
    """A shard that cannot be (a bad ``I/N``, shards that do not tile a run): bad
    input, reported with exit status 2."""


@dataclass(frozen=True)
class Shard:
    index: int
    """0-based: 0 .. count-1."""
    count: int

    @classmethod
    def parse(cls, spec: str) -> Shard:
        """``"I/N"`` with 0 <= I < N, e.g. ``"2/8"``."""
        m = _SPEC.match(spec)
        if m is None:
            raise ShardError(f"--shard {spec!r}: give I/N, e.g. 0/4 (shards are numbered 0..N-1)")
        index, count = int(m.group(1)), int(m.group(2))
        if count < 1 or index >= count:
            raise ShardError(
                f"--shard {spec!r}: I must be 0..N-1 and N at least 1 (got I={index}, N={count})"
            )
        return cls(index, count)

    def bounds(self, total: int) -> tuple[int, int]:
        """``[start, stop)`` of this shard among ``total`` units."""
        return total * self.index // self.count, total * (self.index + 1) // self.count

    def check_size(self, total: int, unit: str) -> None:
        """Refuse more shards than units (a shard would be empty)."""
        if self.count > total:
            raise ShardError(
                f"--shard {self.index}/{self.count}: {self.count} shards of {total:,} {unit} "
                f"would leave some empty; use at most {total} shards"
            )

    def to_json(self, total: int) -> dict[str, Any]:
        """The manifest entry of this shard: which slice of how large a run."""
        start, stop = self.bounds(total)
        return {"index": self.index, "of": self.count, "start": start, "stop": stop, "total": total}


def parse_shard(spec: str | None) -> Shard | None:
    return None if spec is None else Shard.parse(spec)


__all__ = ["SHARD_KEY", "Shard", "ShardError", "parse_shard"]
