"""Trajectories: the messages a user sends before asking a question.

Guarantees:
- every evidence and hard-negative fact is stated in exactly one message; a withheld
  fact is stated in none; filler facts are other facts of the same profile;
- message order is a uniform shuffle, so a message's position says nothing about
  whether it is evidence;
- timestamps strictly increase, in waking hours (07:00-22:59), and the question
  comes after the last message;
- each message is verbalised at its own time, so relative times ("next Friday") are
  resolved against the message that says them and time-varying facts say the value
  that holds then;
- a message's place is where the user is at that time (at an event of theirs in its
  first two hours, at work in weekday office hours, else at home), in the city the user
  works in at that time (or the event's city);
- noise messages (noisy questions) carry fact ids qualified by the profile they come
  from (``p000123:relative[0].age``), so they are never taken for this profile's facts.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

import numpy as np

from memsim.profile import Entity, Fact, Profile
from memsim.qa import Draft, Message, QAContext
from memsim.verbalize import value_at

WAKING = (7, 23)
"""Messages are sent from 07:00 to 22:59."""
MESSAGES_PER_TRAJECTORY = (7, 11)
"""Total messages (before noise) for a one-part question; hybrids get 1.8x."""
PAIR_PROBABILITY = 0.25
"""Chance that a filler message states two facts of the same entity."""


@dataclass(frozen=True)
class _Unit:
    role: str
    facts: tuple[tuple[Entity, Fact], ...] = ()
    text: str | None = None
    source: str | None = None
    """For noise: the other profile the facts come from (their ids are qualified by it,
    so they never collide with this profile's fact ids)."""

    def fact_ids(self) -> tuple[str, ...]:
        prefix = f"{self.source}:" if self.source else ""
        return tuple(prefix + f.id for _, f in self.facts)


def build_trajectory(
    ctx: QAContext, profile: Profile, draft: Draft, rng: np.random.Generator
) -> tuple[list[Message], dt.datetime]:
    """The messages of one trajectory and the time the question is asked."""
    units = _units(ctx, profile, draft, rng)
    order = rng.permutation(len(units))
    units = [units[i] for i in order]
    times = _clock(ctx, profile, draft, len(units) + 1, rng)
    messages = []
    for mid, (unit, when) in enumerate(zip(units, times, strict=False)):
        text = unit.text if unit.text is not None else ctx.verbalizer.message(unit.facts, when, rng)
        messages.append(
            Message(
                mid=mid,
                text=text,
                time=_iso(when),
                place=_place(ctx, profile, when),
                role=unit.role,
                facts=unit.fact_ids(),
            )
        )
    return messages, times[-1]


def _iso(when: dt.datetime) -> str:
    return when.isoformat(timespec="minutes")


def _units(ctx: QAContext, profile: Profile, draft: Draft, rng: np.random.Generator) -> list[_Unit]:
    def lookup(ref_id: str) -> tuple[Entity, Fact]:
        entity_id, attr = ref_id.rsplit(".", 1)
        entity = profile.entity(entity_id)
        return entity, entity.facts[attr]

    evidence = list(dict.fromkeys(f.id for f in draft.evidence))
    negatives = [f for f in dict.fromkeys(n.id for n in draft.negatives) if f not in evidence]
    used = set(evidence) | set(negatives) | {w.id for w in draft.withheld}
    units = [_Unit("evidence", (lookup(f),)) for f in evidence]
    units += [_Unit("negative", (lookup(f),)) for f in negatives]

    low, high = MESSAGES_PER_TRAJECTORY
    if draft.scenario == "hybrid":
        low, high = int(low * 1.8), int(high * 1.8)
    total = int(rng.integers(low, high + 1))
    chit_chat = int(rng.integers(1, 3))
    n_filler = max(1, total - len(units) - chit_chat)
    spare = [(e, f) for e in profile.entities for f in e.facts.values() if f.id not in used]
    for i in rng.permutation(len(spare))[:n_filler]:
        entity, fact = spare[i]
        units.append(_Unit("filler", ((entity, fact),)))
    units = _pair_some(units, rng)
    lines = ctx.loc.chit_chat
    units += [
        _Unit("chit_chat", text=lines[i])
        for i in rng.choice(len(lines), size=chit_chat, replace=False)
    ]
    units += _noise(ctx, profile, draft, rng)
    return units


def _pair_some(units: list[_Unit], rng: np.random.Generator) -> list[_Unit]:
    """Merge some filler messages about the same entity into two-fact messages."""
    out: list[_Unit] = []
    waiting: dict[str, int] = {}
    for unit in units:
        if unit.role != "filler":
            out.append(unit)
            continue
        entity = unit.facts[0][0].id
        if entity in waiting and rng.random() < PAIR_PROBABILITY:
            i = waiting.pop(entity)
            out[i] = _Unit("filler", out[i].facts + unit.facts)
        else:
            waiting[entity] = len(out)
            out.append(unit)
    return out


def _noise(ctx: QAContext, profile: Profile, draft: Draft, rng: np.random.Generator) -> list[_Unit]:
    """Facts of other profiles about entities this profile does not have, rendered the
    same way as real facts (noisy questions only)."""
    wanted = int(draft.params.get("noise", 0))
    if not wanted or not ctx.noise_profiles:
        return []
    taken = {ctx.who(e).casefold() for e in profile.entities}
    named = {ctx.who(e).casefold() for e in profile.entities if e.scenario != "user"}
    # the user is one person: noise about the user's own facts would be another "I", so
    # questions about the user get noise about people the user does not have
    scenarios = {profile.entity(f.entity).scenario for f in draft.evidence} - {"user"} or {"roles"}
    out: list[_Unit] = []
    for _ in range(wanted * 20):
        if len(out) == wanted:
            break
        other = ctx.noise_profiles[int(rng.integers(len(ctx.noise_profiles)))]
        entities = [e for e in other.entities if e.scenario in scenarios]
        entity = entities[int(rng.integers(len(entities)))]
        who = ctx.who(entity).casefold()
        if who in taken or any(_holds(who, name) or _holds(name, who) for name in named):
            continue  # "the apple iphone 15 pro" would name "the apple iphone 15" too
        facts = list(entity.facts.values())
        out.append(
            _Unit("noise", ((entity, facts[int(rng.integers(len(facts)))]),), source=other.id)
        )
    return out


def _holds(text: str, name: str) -> bool:
    """Whether ``name`` occurs in ``text`` as whole words (or anywhere, in a script
    written without spaces)."""
    if not name.isascii():
        return name in text
    return re.search(rf"(?<!\w){re.escape(name)}(?!\w)", text) is not None


def _clock(
    ctx: QAContext, profile: Profile, draft: Draft, n: int, rng: np.random.Generator
) -> list[dt.datetime]:
    """n strictly increasing times in waking hours; the last is the question's."""
    timeline = ctx.schema.timeline
    last_start = max(timeline.start, timeline.end - dt.timedelta(days=21))
    start_day = timeline.start + dt.timedelta(
        days=int(rng.integers((last_start - timeline.start).days + 1))
    )
    # start a few days before a dated event, so that it is often said relatively; the
    # event is any of the evidence or hard negatives, so that saying a time relatively
    # ("next Friday") does not mark a message as evidence
    facts = [profile.fact(f.id) for f in (*draft.evidence, *draft.negatives)]
    dated = [f for f in facts if f.type == "datetime"]
    if dated and rng.random() < 0.6:
        anchor = dated[int(rng.integers(len(dated)))]
        event_day = dt.datetime.fromisoformat(str(anchor.value)).date()
        start_day = max(timeline.start, event_day - dt.timedelta(days=int(rng.integers(2, 10))))
    now = dt.datetime.combine(start_day, dt.time(WAKING[0])) + dt.timedelta(
        minutes=int(rng.integers(0, 180))
    )
    times = [now]
    for _ in range(n - 1):
        minutes = int(np.exp(rng.uniform(np.log(15), np.log(20 * 60))))
        now = _waking(now + dt.timedelta(minutes=minutes), rng)
        times.append(now)
    return times


def _waking(when: dt.datetime, rng: np.random.Generator) -> dt.datetime:
    if WAKING[0] <= when.hour < WAKING[1]:
        return when
    day = when.date() if when.hour < WAKING[0] else when.date() + dt.timedelta(days=1)
    return dt.datetime.combine(day, dt.time(WAKING[0])) + dt.timedelta(
        minutes=int(rng.integers(0, 120))
    )


def _place(ctx: QAContext, profile: Profile, when: dt.datetime) -> str:
    user = profile.of_kind("user")[0] if profile.of_kind("user") else None
    city_fact = user.facts.get("work_city") if user else None
    city = str(value_at(city_fact, when)) if city_fact else ""
    spot = ctx.loc.home
    for event in profile.entities:
        start = event.facts.get("time")
        if start is not None and start.type == "datetime":
            begins = dt.datetime.fromisoformat(str(start.value))
            if begins <= when <= begins + dt.timedelta(hours=2):
                spot = ctx.who(event)
                location = event.facts.get("location")
                city = str(location.value) if location is not None else city
                break
    else:
        employer = user.facts.get("employer") if user else None
        if employer is not None and when.weekday() < 5 and 9 <= when.hour < 18:
            spot = str(employer.value)
    return ctx.loc.place.format(spot=spot, city=city) if city else spot
