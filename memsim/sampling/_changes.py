"""Change over time: the value histories of a sampled profile.

Runs after the node draws, on the :class:`Profile` they made, from the profile's own
named stream ``SeedSequence(seed, spawn_key=(CHANGE_STREAM, profile index))``, so it
depends on nothing inside the sampler and a profile's changes are the same however
profiles are batched or sharded.

Guarantees (tested over random schemas):
- only attributes with ``changes:`` change; a fact's ``value`` stays the initial one
  (the one its dependants were drawn from) and its ``history`` lists every value with
  the time it became true, the initial one first (``since`` None);
- consecutive values differ; a categorical value changes to one its conditional
  distribution allows given the entity's parents (the current one excluded), an integer
  one by a nonzero step within its ``min``/``max``;
- change times are inside the timeline, never on its first day, at least
  ``MIN_GAP_DAYS`` apart for one fact, strictly increasing along a history;
- every change is a :class:`ChangeEvent` with its cause, its time and the values before
  and after; a change ``after`` another attribute's follows it by 1 to 30 days.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from memsim.graph import BRNet, DiscreteConditionals
from memsim.profile import ChangeEvent, Entity, Fact, Profile, ValueStep
from memsim.sampling._random import spawned_states
from memsim.schema import Attribute, Change

CHANGE_STREAM = 11
"""The first element of the changes' spawn key (profiles use (index,), trajectories
(1, index), bench streams 2, 3 and 7)."""
MIN_GAP_DAYS = 10
"""Changes of one fact are at least this far apart, so each value is in force long
enough to be told while it holds."""
FOLLOW_DAYS = (1, 30)


_PCG_MULTIPLIER = 0x2360ED051FC65DA44385DF649FCCF645
_MASK_128 = (1 << 128) - 1


def change_rng(seed: int, index: int) -> np.random.Generator:
    """The changes' stream of profile ``index`` (the definition; the sampler gets the
    same stream by :func:`pcg64_state` from words computed for a whole batch)."""
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(CHANGE_STREAM, index)))


def pcg64_state(words: Sequence[int]) -> tuple[int, int]:
    """The (state, increment) of ``PCG64(seq)`` when ``seq.generate_state(4, np.uint64)``
    is ``words``: numpy seeds PCG64 with the first two words as the 128-bit initial
    state and the last two as the stream, then advances it as PCG's srandom does.
    Building a generator from a SeedSequence costs more than a profile's changes."""
    initial = (int(words[0]) << 64) | int(words[1])
    increment = (((int(words[2]) << 64) | int(words[3])) << 1 | 1) & _MASK_128
    state = (increment + initial) & _MASK_128  # step from 0, then add the initial state
    return (state * _PCG_MULTIPLIER + increment) & _MASK_128, increment


class ChangeSampler:
    """Adds value histories to profiles of one network (tables precomputed once)."""

    def __init__(self, net: BRNet):
        self.net = net
        self.schema = net.schema
        self.changing = {
            kind: [(name, a) for name, a in net.schema.attributes_of(kind).items() if a.changes]
            for kind in net.schema.entities
        }
        self._conditionals: DiscreteConditionals | None = None
        self._memo: dict[tuple[str, tuple[str, ...]], NDArray[np.float64]] = {}
        """Distributions by node and parent values: a pure function of them, asked
        again for every profile that has those values."""
        self._bits = np.random.PCG64(0)
        self._rng = np.random.Generator(self._bits)
        """One generator whose state is set per profile (all of it: nothing carries
        over from the profile before)."""

    @property
    def active(self) -> bool:
        return any(self.changing.values())

    def apply_all(self, profiles: Sequence[Profile], seed: int) -> list[Profile]:
        """:meth:`apply` to each profile, the streams of consecutive indices set up
        together (vectorised)."""
        indices = [p.index for p in profiles]
        if not self.active or not indices or indices != list(range(indices[0], indices[-1] + 1)):
            return [self.apply(p, seed) for p in profiles]
        words = spawned_states(seed, indices[0], indices[-1] + 1, (CHANGE_STREAM,), 4)
        return [self.apply(p, seed, w) for p, w in zip(profiles, words.tolist(), strict=True)]

    def apply(self, profile: Profile, seed: int, words: Sequence[int] | None = None) -> Profile:
        """The profile with its value histories, drawn from its stream (``words``: the
        stream's four SeedSequence words, when already computed)."""
        if not self.active:
            return profile
        if words is None:
            spawned = np.random.SeedSequence(seed, spawn_key=(CHANGE_STREAM, profile.index))
            words = spawned.generate_state(4, np.uint64).tolist()
        state, increment = pcg64_state(words)
        self._bits.state = {
            "bit_generator": "PCG64",
            "state": {"state": state, "inc": increment},
            "has_uint32": 0,
            "uinteger": 0,
        }
        rng = self._rng
        entities, events = [], []
        for entity in profile.entities:
            facts = dict(entity.facts)
            times: dict[str, list[dt.datetime]] = {}
            for name, attr in self._in_order(entity.kind):
                assert attr.changes is not None
                when = self._times(attr.changes, times.get(attr.changes.after or "", []), rng)
                fact = facts[name]
                history = [ValueStep(fact.value, None)]
                kept = []
                for k, moment in enumerate(when, start=1):
                    after = self._next_value(profile, entity, fact, history[-1].value, attr, rng)
                    if after is None:
                        break
                    since = moment.isoformat(timespec="minutes")
                    event_id = f"change:{fact.id}:{k}"
                    events.append(
                        ChangeEvent(
                            event_id, fact.id, attr.changes.cause, since, history[-1].value, after
                        )
                    )
                    history.append(ValueStep(after, since, attr.changes.cause, event_id))
                    kept.append(moment)
                times[name] = kept
                if len(history) > 1:
                    facts[name] = fact._replace(history=tuple(history))
            entities.append(Entity(entity.id, entity.kind, entity.index, entity.scenario, facts))
        return Profile(
            profile.id, profile.index, profile.seed, profile.schema_name,
            profile.schema_version, profile.locale, profile.timeline, tuple(entities),
            tuple(sorted(events, key=lambda c: (c.time, c.id))),
        )  # fmt: skip

    def _in_order(self, kind: str) -> list[tuple[str, Attribute]]:
        """Attributes that follow another's change come after it."""
        attrs = self.changing.get(kind, [])
        return sorted(attrs, key=lambda na: na[1].changes is not None and bool(na[1].changes.after))

    def _times(
        self, change: Change, leaders: list[dt.datetime], rng: np.random.Generator
    ) -> list[dt.datetime]:
        timeline = self.schema.timeline
        first = timeline.start + dt.timedelta(days=1)
        span = max((timeline.end - timeline.start).days, 1)
        count = min(change.at_least, change.times)
        while count < change.times and rng.random() < change.p:
            count += 1
        # one call per day: the same draws as ``size=count`` (each is a bounded 32-bit
        # draw from the same buffered stream) at a quarter of the cost
        drawn = [rng.integers(0, span) for _ in range(count)]
        days = sorted(first + dt.timedelta(days=int(d)) for d in drawn)
        for lead in leaders:
            if rng.random() < change.p_after:
                days.append(lead.date() + dt.timedelta(days=int(rng.integers(*FOLLOW_DAYS) + 1)))
        kept: list[dt.date] = []
        for day in sorted(days):
            if day <= timeline.end and (not kept or (day - kept[-1]).days >= MIN_GAP_DAYS):
                kept.append(day)
        return [
            dt.datetime.combine(day, dt.time(8)) + dt.timedelta(minutes=30 * int(rng.integers(28)))
            for day in kept[: change.times]
        ]

    def _next_value(
        self,
        profile: Profile,
        entity: Entity,
        fact: Fact,
        current: object,
        attr: Attribute,
        rng: np.random.Generator,
    ) -> object | None:
        change = attr.changes
        assert change is not None
        if attr.type == "integer":
            assert change.step is not None
            now = int(str(current))
            low = attr.min if attr.min is not None else -(10**18)
            high = attr.max if attr.max is not None else 10**18
            # the steps that stay inside [min, max]: a value at a bound still changes
            steps = [
                x for x in range(change.step[0], change.step[1] + 1) if x and low <= now + x <= high
            ]
            if not steps:
                return None
            return now + steps[int(rng.integers(len(steps)))]
        node = self.net[fact.id]
        probs = self._probs(profile, fact.id)
        values = list(node.values)
        probs[values.index(str(current))] = 0.0
        if probs.sum() <= 0:
            return None
        return values[_choice(rng, probs / probs.sum())]

    def _probs(self, profile: Profile, node_id: str) -> NDArray[np.float64]:
        """The node's distribution given the profile's parent values (a fresh copy:
        the caller zeroes the current value)."""
        node = self.net[node_id]
        given = tuple(
            str(profile.fact(pid).value) for pid in node.parents if self.net[pid].discrete
        )
        hit = self._memo.get((node_id, given))
        if hit is None:
            if self._conditionals is None:
                self._conditionals = DiscreteConditionals(self.net)
            codes = {}
            for pid in node.parents:
                parent = self.net[pid]
                if parent.discrete:
                    value = str(profile.fact(pid).value)
                    codes[pid] = np.array([list(parent.values).index(value)], dtype=np.int64)
            hit = np.array(self._conditionals.probs(node, codes, 1)[0], dtype=float)
            self._memo[(node_id, given)] = hit
        return hit.copy()


def _choice(rng: np.random.Generator, p: NDArray[np.float64]) -> int:
    """``int(rng.choice(len(p), p=p))``, the same draw from the same stream (numpy's
    inverse CDF on one ``rng.random()``), without its argument checks, which cost more
    than the draw (``p`` is a distribution here by construction)."""
    cdf = p.cumsum()
    cdf /= cdf[-1]
    return int(cdf.searchsorted(rng.random(), side="right"))


__all__ = ["CHANGE_STREAM", "MIN_GAP_DAYS", "ChangeSampler", "change_rng", "pcg64_state"]
