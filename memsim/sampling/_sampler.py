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

import numpy as np
from numpy.typing import NDArray

from memsim.graph import BRNet, DiscreteConditionals, Node, inverse_cdf
from memsim.profile import ChangeEvent, Entity, Fact, Profile, ValueStep
from memsim.sampling._discrete import DiscreteDraws
from memsim.sampling._kinds import SAMPLERS, Batch, Column
from memsim.sampling._random import Uniforms, profile_keys
from memsim.sampling._values import date_to_days, to_python
from memsim.schema import slot_id


@dataclass(frozen=True)
class ChangeColumns:
    changed: NDArray[np.bool_]
    minutes: NDArray[np.int64]
    """Minutes since 1970 at which the new value holds."""
    after: Column


@dataclass(frozen=True)
class SampledBatch:
    seed: int
    start: int
    columns: dict[str, Column]
    changes: dict[str, ChangeColumns]

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
        changes = {
            node.id: self._sample_change(node, batch)
            for node in self.net
            if node.attribute.changes is not None and only is None
        }
        return SampledBatch(seed, start, batch.columns, changes)

    def _sample_change(self, node: Node, batch: Batch) -> ChangeColumns:
        """At most one change per fact: a coin, a time on the timeline, a new value drawn
        from the node's own conditional with the current value excluded."""
        change = node.attribute.changes
        assert change is not None
        stream = f"{node.id}#change"
        current = batch.columns[node.id]
        probs = self.conditionals.probs(node, batch.columns, batch.n).copy()
        probs[np.arange(batch.n), current] = 0.0
        possible = probs.sum(axis=1) > 0
        probs[~possible] = 1.0  # placeholder rows, masked out below
        after = inverse_cdf(probs, batch.uniforms.draw(stream, 2))
        changed = (batch.uniforms.draw(stream, 0) < change.p) & possible
        timeline = self.net.schema.timeline
        first = (
            date_to_days(timeline.start) + 1
        )  # never on the first day: the initial value holds then
        span = max((timeline.end - timeline.start).days, 1)
        days = first + np.floor(batch.uniforms.draw(stream, 1) * span).astype(np.int64)
        minutes = (
            days * 1440
            + 8 * 60
            + (np.floor(batch.uniforms.draw(stream, 3) * 28) * 30).astype(np.int64)
        )
        return ChangeColumns(changed, minutes, after)

    def profiles(
        self, seed: int, start: int, stop: int, batch_size: int = 2000
    ) -> Iterator[Profile]:
        """Profiles start..stop-1, drawn batch by batch so memory stays flat."""
        for lo in range(start, stop, batch_size):
            yield from build_profiles(
                self.net, self.sample_batch(seed, lo, min(stop, lo + batch_size))
            )


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
    values = {nid: to_python(net[nid], col) for nid, col in batch.columns.items()}
    change_rows = {
        nid: (
            ch.changed.tolist(),
            np.datetime_as_string(ch.minutes.astype("datetime64[m]")).tolist(),
            to_python(net[nid], ch.after),
        )
        for nid, ch in batch.changes.items()
    }
    slots = [
        (
            kind,
            i,
            slot_id(schema, kind, i),
            [
                (name, attr, f"{slot_id(schema, kind, i)}.{name}")
                for name, attr in schema.attributes_of(kind).items()
            ],
        )
        for kind, entity in schema.entities.items()
        for i in range(entity.count)
    ]
    timeline = (schema.timeline.start.isoformat(), schema.timeline.end.isoformat())
    out = []
    for row in range(len(batch)):
        pid = profile_id(batch.start + row)
        entities = []
        changes = []
        for kind, index, sid, attrs in slots:
            facts = {}
            for name, attr, fid in attrs:
                value = values[fid][row]
                history: tuple[ValueStep, ...] = ()
                if attr.changes is not None and change_rows[fid][0][row]:
                    when, after = change_rows[fid][1][row], change_rows[fid][2][row]
                    event_id, cause = f"change:{fid}", attr.changes.cause
                    history = (ValueStep(value, None), ValueStep(after, when, cause, event_id))
                    changes.append(ChangeEvent(event_id, fid, cause, when, value, after))
                facts[name] = Fact(fid, name, attr.type, value, attr.unit, history)
            entities.append(Entity(sid, kind, index, schema.entities[kind].scenario, facts))
        out.append(
            Profile(
                pid,
                batch.start + row,
                batch.seed,
                schema.name,
                schema.version,
                schema.locale,
                timeline,
                tuple(entities),
                tuple(sorted(changes, key=lambda c: (c.time, c.id))),
            )
        )
    return out


__all__ = ["ProfileSampler", "SampledBatch", "build_profiles", "profile_id", "sample_profiles"]
