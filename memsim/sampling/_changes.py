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

import numpy as np
from numpy.typing import NDArray

from memsim.graph import BRNet, DiscreteConditionals
from memsim.profile import ChangeEvent, Entity, Fact, Profile, ValueStep
from memsim.schema import Attribute, Change

CHANGE_STREAM = 11
"""The first element of the changes' spawn key (profiles use (index,), trajectories
(1, index), bench streams 2, 3 and 7)."""
MIN_GAP_DAYS = 10
"""Changes of one fact are at least this far apart, so each value is in force long
enough to be told while it holds."""
FOLLOW_DAYS = (1, 30)


def change_rng(seed: int, index: int) -> np.random.Generator:
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(CHANGE_STREAM, index)))


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

    @property
    def active(self) -> bool:
        return any(self.changing.values())

    def apply(self, profile: Profile, seed: int) -> Profile:
        if not self.active:
            return profile
        rng = change_rng(seed, profile.index)
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
        # no call for no days: numpy draws nothing for size 0, and the call costs more
        # than everything else here
        drawn = rng.integers(0, span, size=count) if count else ()
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


__all__ = ["CHANGE_STREAM", "MIN_GAP_DAYS", "ChangeSampler", "change_rng"]
