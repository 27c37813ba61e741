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
from bisect import bisect_right
from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from memsim.graph import BRNet, DiscreteConditionals, Node
from memsim.profile import ChangeEvent, Entity, Profile, ValueStep
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
        # attributes that follow another's change come after it
        self.changing = {
            kind: sorted(
                [(name, a) for name, a in net.schema.attributes_of(kind).items() if a.changes],
                key=lambda na: na[1].changes is not None and bool(na[1].changes.after),
            )
            for kind in net.schema.entities
        }
        timeline = net.schema.timeline
        self._first = (timeline.start + dt.timedelta(days=1)).toordinal()
        self._last = timeline.end.toordinal()
        self._span = max((timeline.end - timeline.start).days, 1)
        self._conditionals: DiscreteConditionals | None = None
        self._memo: dict[tuple[str, tuple[str, ...]], NDArray[np.float64]] = {}
        """Distributions by node and parent values: a pure function of them, asked
        again for every profile that has those values."""
        self._cdfs: dict[tuple[str, tuple[str, ...], str], list[float] | None] = {}
        """The draw's CDF by node, parent values and current value (None: no other
        value possible), computed once by the numpy steps it always took."""
        self._bits = np.random.PCG64(0)
        self._rng = np.random.Generator(self._bits)
        """One generator whose state is set per profile (all of it: nothing carries
        over from the profile before)."""

    @property
    def active(self) -> bool:
        return any(self.changing.values())

    def apply_all(self, profiles: list[Profile], seed: int) -> list[Profile]:
        """:meth:`apply` to each profile of the list, in place (each is replaced as its
        copy is made, so a batch is not held twice), the streams of consecutive indices
        set up together (vectorised); returns the list."""
        if not self.active or not profiles:
            return profiles
        first, last = profiles[0].index, profiles[-1].index
        words: list[list[int]] | list[None] = [None] * len(profiles)
        if [p.index for p in profiles] == list(range(first, last + 1)):
            words = spawned_states(seed, first, last + 1, (CHANGE_STREAM,), 4).tolist()
        for i, profile_words in enumerate(words):
            profiles[i] = self.apply(profiles[i], seed, profile_words)
        return profiles

    def apply(self, profile: Profile, seed: int, words: Sequence[int] | None = None) -> Profile:
        """The profile with its value histories, drawn from its stream (``words``: the
        stream's four SeedSequence words, when already computed)."""
        if not self.active:
            return profile
        rng = self._stream(seed, profile.index, words)
        entities, events = [], []
        for entity in profile.entities:
            order = self.changing.get(entity.kind)
            if not order:
                entities.append(entity)  # nothing changes: the same (frozen) entity
                continue
            facts = dict(entity.facts)
            times: dict[str, list[int]] = {}
            for name, attr in order:
                change = attr.changes
                assert change is not None
                fact = facts[name]
                history = [ValueStep(fact.value, None)]
                kept = []
                moments = self._times(change, times.get(change.after or "", []), rng)
                for k, (day, since) in enumerate(moments, start=1):
                    before = history[-1].value
                    after = self._next_value(profile, fact.id, before, attr, rng)
                    if after is None:
                        break
                    event_id = f"change:{fact.id}:{k}"
                    events.append(
                        ChangeEvent(event_id, fact.id, change.cause, since, before, after)
                    )
                    history.append(ValueStep(after, since, change.cause, event_id))
                    kept.append(day)
                times[name] = kept
                if len(history) > 1:
                    facts[name] = fact._replace(history=tuple(history))
            entities.append(Entity(entity.id, entity.kind, entity.index, entity.scenario, facts))
        return Profile(
            profile.id, profile.index, profile.seed, profile.schema_name,
            profile.schema_version, profile.locale, profile.timeline, tuple(entities),
            tuple(sorted(events, key=lambda c: (c.time, c.id))),
        )  # fmt: skip

    def _stream(self, seed: int, index: int, words: Sequence[int] | None) -> np.random.Generator:
        """The generator of ``change_rng(seed, index)``, set up from its words."""
        if words is None:
            spawned = np.random.SeedSequence(seed, spawn_key=(CHANGE_STREAM, index))
            words = spawned.generate_state(4, np.uint64).tolist()
        state, increment = pcg64_state(words)
        self._bits.state = {
            "bit_generator": "PCG64",
            "state": {"state": state, "inc": increment},
            "has_uint32": 0,
            "uinteger": 0,
        }
        return self._rng

    def _times(
        self, change: Change, leaders: list[int], rng: np.random.Generator
    ) -> list[tuple[int, str]]:
        """The change moments: (day as an ordinal, ISO time to the minute); days are
        ordinals, not dates, as they are only added and compared."""
        count = min(change.at_least, change.times)
        while count < change.times and rng.random() < change.p:
            count += 1
        # one call per day: the same draws as ``size=count`` (each is a bounded 32-bit
        # draw from the same buffered stream) at a quarter of the cost
        days = sorted([self._first + int(rng.integers(0, self._span)) for _ in range(count)])
        for lead in leaders:
            if rng.random() < change.p_after:
                days.append(lead + int(rng.integers(*FOLLOW_DAYS)) + 1)
        kept: list[int] = []
        for day in sorted(days):
            if day <= self._last and (not kept or day - kept[-1] >= MIN_GAP_DAYS):
                kept.append(day)
        out = []
        for day in kept[: change.times]:
            # 08:00 plus up to 27 half hours: the same day, 08:00 to 21:30
            minutes = 8 * 60 + 30 * int(rng.integers(28))
            when = dt.date.fromordinal(day).isoformat()
            out.append((day, f"{when}T{minutes // 60:02d}:{minutes % 60:02d}"))
        return out

    def _next_value(
        self,
        profile: Profile,
        fact_id: str,
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
        node = self.net[fact_id]
        given = tuple(
            str(profile.fact(pid).value) for pid in node.parents if _categorical(self.net[pid])
        )
        key = (fact_id, given, str(current))
        if key not in self._cdfs:
            self._cdfs[key] = self._cdf(profile, fact_id, given, str(current))
        cdf = self._cdfs[key]
        if cdf is None:
            return None
        return node.values[bisect_right(cdf, rng.random())]  # see choice_cdf

    def _cdf(
        self, profile: Profile, node_id: str, given: tuple[str, ...], current: str
    ) -> list[float] | None:
        """The CDF of the node's values given the parents, the current value excluded."""
        probs = self._probs(profile, node_id, given)
        probs[list(self.net[node_id].values).index(current)] = 0.0
        if probs.sum() <= 0:
            return None
        return choice_cdf(probs / probs.sum())

    def _probs(self, profile: Profile, node_id: str, given: tuple[str, ...]) -> NDArray[np.float64]:
        """The node's distribution given the profile's parent values (a fresh copy:
        the caller zeroes the current value)."""
        node = self.net[node_id]
        hit = self._memo.get((node_id, given))
        if hit is None:
            if self._conditionals is None:
                self._conditionals = DiscreteConditionals(self.net)
            codes = {}
            for pid in node.parents:
                parent = self.net[pid]
                if _categorical(parent):  # a binned class too: it keys a table
                    value = str(profile.fact(pid).value)
                    codes[pid] = np.array([list(parent.values).index(value)], dtype=np.int64)
            hit = np.array(self._conditionals.probs(node, codes, 1)[0], dtype=float)
            self._memo[(node_id, given)] = hit
        return hit.copy()


def _categorical(node: Node) -> bool:
    return node.attribute.type == "categorical"


def choice_cdf(p: NDArray[np.float64]) -> list[float]:
    """The CDF that ``rng.choice(len(p), p=p)`` inverts: ``bisect_right(cdf, rng.random())``
    is its draw, from the same stream, without numpy's argument checks (which cost
    more than the draw; ``p`` is a distribution here by construction)."""
    cdf = p.cumsum()
    cdf /= cdf[-1]
    out: list[float] = cdf.tolist()
    return out


__all__ = [
    "CHANGE_STREAM",
    "MIN_GAP_DAYS",
    "ChangeSampler",
    "change_rng",
    "choice_cdf",
    "pcg64_state",
]
