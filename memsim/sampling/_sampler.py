"""Vectorised ancestral sampling of profiles, in batches that stream.

Nodes are visited in the BRNet's topological order and each is drawn for the whole
batch at once. Because every profile has its own random stream (see ``_random``),
profile k is identical whatever the batch size, the number of profiles or the shard.
"""

from __future__ import annotations

import gc
from collections.abc import Collection, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import repeat

from memsim.graph import BRNet, DiscreteConditionals
from memsim.profile import Entity, Fact, Profile
from memsim.sampling._changes import ChangeSampler
from memsim.sampling._discrete import DiscreteDraws
from memsim.sampling._kinds import SAMPLERS, Batch, Column
from memsim.sampling._random import Uniforms, profile_keys
from memsim.sampling._values import to_python
from memsim.schema import slot_id


@dataclass(frozen=True)
class SampledBatch:
    seed: int
    start: int
    columns: dict[str, Column]

    def __len__(self) -> int:
        return len(next(iter(self.columns.values()))) if self.columns else 0


class ProfileSampler:
    """Draws profiles of one network; reuse it across batches (tables are precomputed)."""

    def __init__(self, net: BRNet):
        self.net = net
        self.conditionals = DiscreteConditionals(net)
        self.draws = DiscreteDraws(net, self.conditionals)
        self._samplers = [(node, SAMPLERS.get(node.dist_kind)) for node in net]

    def sample_batch(
        self, seed: int, start: int, stop: int, only: Collection[str] | None = None
    ) -> SampledBatch:
        """Profiles start..stop-1 as columns. ``only``: draw just these node ids (with
        their ancestors among them) and no change events, e.g. the discrete part, to
        compare with pgmpy."""
        keys = profile_keys(seed, start, stop)
        batch = Batch(self.net, self.conditionals, {}, Uniforms(keys), self.draws)
        for node, sampler in self._samplers:
            if only is None or node.id in only:
                batch.columns[node.id] = sampler(node, batch)
        return SampledBatch(seed, start, batch.columns)

    def profiles(
        self, seed: int, start: int, stop: int, batch_size: int = 2000
    ) -> Iterator[Profile]:
        """Profiles start..stop-1, drawn batch by batch so memory stays flat; value
        histories are added afterwards from their own streams (``_changes``)."""
        changes = ChangeSampler(self.net)
        for lo in range(start, stop, batch_size):
            done = self._with_changes(seed, lo, min(stop, lo + batch_size), changes)
            done.reverse()
            while done:  # each profile let go once written, not with the whole batch
                yield done.pop()

    def _with_changes(
        self, seed: int, start: int, stop: int, changes: ChangeSampler
    ) -> list[Profile]:
        """One batch of profiles with their histories (its columns let go on return,
        before the next batch is drawn)."""
        batch = self.sample_batch(seed, start, stop)
        with _gc_paused():  # the histories allocate as many small objects again
            return changes.apply_all(_build_profiles(self.net, batch), seed)


def sample_profiles(net: BRNet, seed: int, n: int, start: int = 0) -> list[Profile]:
    return list(ProfileSampler(net).profiles(seed, start, start + n))


def profile_id(index: int) -> str:
    return f"p{index:06d}"


@contextmanager
def _gc_paused() -> Iterator[None]:
    """Building profiles allocates millions of small acyclic objects; the cyclic
    collector would rescan them over and over (two thirds of the build time)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def build_profiles(net: BRNet, batch: SampledBatch) -> list[Profile]:
    """Turn a batch's columns into Profile objects."""
    with _gc_paused():
        return _build_profiles(net, batch)


def _build_profiles(net: BRNet, batch: SampledBatch) -> list[Profile]:
    schema = net.schema
    n = len(batch)
    slots = []  # per entity slot: its fields and one facts dict per row
    for kind, entity in schema.entities.items():
        for i in range(entity.count):
            sid = slot_id(schema, kind, i)
            names, columns = [], []
            for name, attr in schema.attributes_of(kind).items():
                fid = f"{sid}.{name}"
                values = to_python(net[fid], batch.columns[fid])
                # the Facts of a column at once: tuple.__new__ over the rows' fields
                # is Fact(fid, name, type, value, unit) without a Python call per row
                fields = zip(repeat(fid), repeat(name), repeat(attr.type), values,
                             repeat(attr.unit), repeat(()))  # fmt: skip
                columns.append(list(map(tuple.__new__, repeat(Fact), fields)))
                names.append(name)
            rows = [dict(zip(names, facts, strict=True)) for facts in zip(*columns, strict=True)]
            slots.append((sid, kind, i, entity.scenario, rows or [{} for _ in range(n)]))
    timeline = (schema.timeline.start.isoformat(), schema.timeline.end.isoformat())
    return [
        Profile(
            profile_id(batch.start + row),
            batch.start + row,
            batch.seed,
            schema.name,
            schema.version,
            schema.locale,
            timeline,
            tuple([Entity(sid, kind, i, scen, facts[row]) for sid, kind, i, scen, facts in slots]),
        )
        for row in range(n)
    ]


__all__ = ["ProfileSampler", "SampledBatch", "build_profiles", "profile_id", "sample_profiles"]
