"""Trajectories: the messages a user sends before asking a question.

Guarantees:
- every evidence and hard-negative fact is stated in exactly one message; a withheld
  fact is stated in none; filler facts are other facts of the same profile;
- message order is a uniform shuffle, so a message's position says nothing about
  whether it is evidence;
- timestamps strictly increase, in waking hours (07:00-22:59), and the question
  comes after the last message;
- every message is sent before the earliest event whose time any message states (event
  times are phrased as plans, in the future tense): the audit's ``tense_event_times``;
- each message is verbalised at its own time, so relative times ("next Friday") are
  resolved against the message that says them and time-varying facts say the value
  that holds then;
- a message's place is where the user is at that time (at an event of theirs in its
  first two hours, at work in weekday office hours, else at home), in the city the user
  works in at that time (or the event's city);
- filler is drawn by the rate table of :mod:`memsim.trajectory._rates`, leaning to the
  attributes the question asks; when the profile has fewer than ``TOPIC_NOISE`` facts
  of them spare, the rest are said of the other life's people as noise, except where
  such a person could enter the answer (:func:`memsim.trajectory._rates.topic_noise`);
- noise messages (distractors said about other people, the asked attributes' facts
  above, and more for noisy questions) come from one other life, about people this
  profile has no one named like, and carry fact ids qualified by the profile they come
  from (``p000123:relative[0].age``), so they are never taken for this profile's facts.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import numpy as np

from memsim._streams import weighted_sample
from memsim.profile import Entity, Fact, Profile
from memsim.qa import (
    Draft,
    Message,
    QAContext,
)
from memsim.schema import location_attribute, time_attribute, user_kind, workplace_attribute
from memsim.trajectory._changes import change_text, tells_change
from memsim.trajectory._hearsay import hearsay_lines
from memsim.trajectory._rates import (
    CHIT_CHAT,
    MESSAGES_PER_TRAJECTORY,
    asked_attributes,
    evidence_rates,
    filler_weights,
    topic_noise,
)
from memsim.verbalize import tautologies, value_at

WAKING = (7, 23)
"""Messages are sent from 07:00 to 22:59."""
GAPS = (20 * 60, 6 * 60, 2 * 60, 45, 20)
"""Longest gap between messages (minutes), tried in turn until the messages end before
the earliest event they state."""
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
    """The messages of one trajectory and the time the question is asked. Their order
    is a uniform shuffle from a stream seeded by ``rng``'s first draw: for a given
    ``rng`` and number of messages, the same whatever the draft (its facts and the
    draws that choose its filler and noise)."""
    shuffle = np.random.default_rng(int(rng.integers(2**63)))
    units = _units(ctx, profile, draft, rng)
    order = shuffle.permutation(len(units))
    units = [units[i] for i in order]
    times = _clock(ctx, profile, draft, units, rng)
    hidden = frozenset(w.id for w in draft.withheld)
    messages = []
    for mid, (unit, when) in enumerate(zip(units, times, strict=False)):
        if unit.text is not None:
            text = unit.text
        elif tells_change(unit.role, unit.facts, when, rng):
            text = change_text(ctx, unit.facts[0][0], unit.facts[0][1], when, rng)
        else:
            text = ctx.verbalizer.message(unit.facts, when, rng)
        messages.append(
            Message(
                mid=mid,
                text=text,
                time=_iso(when),
                place=_place(ctx, profile, when, hidden),
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
    # facts whose values are distractors, stated as filler (not look-alikes of the asked one)
    told = [f for f in dict.fromkeys(t.id for t in draft.told) if f not in evidence + negatives]
    used = set(evidence) | set(negatives) | set(told) | {w.id for w in draft.withheld}
    units = [_Unit("evidence", (lookup(f),)) for f in evidence]
    units += [_Unit("negative", (lookup(f),)) for f in negatives]
    units += [_Unit("filler", (lookup(f),)) for f in told]

    low, high = MESSAGES_PER_TRAJECTORY
    if draft.scenario == "hybrid":
        low, high = int(low * 1.8), int(high * 1.8)
    total = int(rng.integers(low, high + 1))
    chit_chat = int(rng.random() < CHIT_CHAT)
    n_filler = max(1, total - len(units) - chit_chat)
    fillable = _fillable(ctx, profile)
    spare = [
        (e, f)
        for e in profile.entities
        for f, early in fillable[id(e)]
        if not early and f.id not in used
    ]
    rates, asked = evidence_rates(ctx), asked_attributes(draft)
    weights = filler_weights(rates, (((e.kind, f.attribute), f.attribute) for e, f in spare), asked)
    # the question's own attribute, when the profile has too few of it spare (a count
    # over everyone's ages), is said of the other life's people instead of filler
    topic = topic_noise(draft, sum(f.attribute in asked for _, f in spare))
    n_filler = min(max(1, n_filler - topic), len(spare))
    if n_filler:
        for i in weighted_sample(rng, weights, n_filler):
            entity, fact = spare[i]
            units.append(_Unit("filler", ((entity, fact),)))
    units = _pair_some(units, rng)
    lines = ctx.loc.chit_chat
    units += [
        _Unit("chit_chat", text=lines[i])
        for i in rng.choice(len(lines), size=chit_chat, replace=False)
    ]
    units += [_Unit("chit_chat", text=t) for t in hearsay_lines(ctx, profile, draft.hearsay, rng)]
    units += _noise(ctx, profile, draft, rng, topic)
    return units


def _too_early(ctx: QAContext, fact: Fact) -> bool:
    """An event on the timeline's first day: no trajectory can be sent before it, so it
    is never filler (a plan stated after it began would be in the wrong tense)."""
    if fact.type != "datetime":
        return False
    return dt.date.fromisoformat(str(fact.value)[:10]) <= ctx.schema.timeline.start


def _fillable(ctx: QAContext, profile: Profile) -> dict[int, tuple[tuple[Fact, bool], ...]]:
    """Each entity's facts (keyed by the entity's identity) that a message may state as
    filler or noise, each with whether it is an event on the timeline's first day
    (:func:`_too_early`); found once per profile (both are properties of the fact and
    its entity alone). Not a fact its entity's name already says ("the Boston Career
    Fair" is in Boston, :func:`memsim.verbalize.says_itself`): every statement of it
    would be a tautology."""

    def find() -> dict[int, tuple[tuple[Fact, bool], ...]]:
        out = {}
        for e in profile.entities:
            said = tautologies(ctx.schema, ctx.loc, e)  # says_itself of every fact at once
            out[id(e)] = tuple(
                (f, _too_early(ctx, f)) for f in e.facts.values() if f.attribute not in said
            )
        return out

    return ctx.remember("fillable", profile, find)


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


def _noise(
    ctx: QAContext, profile: Profile, draft: Draft, rng: np.random.Generator, topic: int = 0
) -> list[_Unit]:
    """Facts of one other life (a sampled profile) about people this profile does not
    have, rendered the same way as real facts: the distractors the draft says about them
    (``mentions``), up to ``topic`` facts of the attributes the question asks, and, for
    noisy questions, more of that life's facts. One life, so the noise never holds two
    different people named alike ("my peer")."""
    wanted = int(draft.params.get("noise", 0))
    lives = {p.id: p for p in ctx.other_lives(profile)}
    if not lives:
        return []
    chosen = [m for m in draft.mentions if m[0] in lives]
    life = lives[chosen[0][0]] if chosen else next(iter(lives.values()))
    out = [
        _Unit("noise", ((life.entity(eid), life.entity(eid).facts[attr]),), source=life.id)
        for _, eid, attr in dict.fromkeys(chosen)
    ]
    if topic:
        out += _topic_noise(ctx, profile, draft, life, {u.fact_ids()[0] for u in out}, topic, rng)
    if not wanted:
        return out
    # the user is one person: noise about the user's own facts would be another "I", so
    # questions about the user get noise about people the user does not have
    scenarios = {profile.entity(f.entity).scenario for f in draft.evidence} - {"user"} or {"roles"}
    said = {u.fact_ids()[0] for u in out}
    rates, asked = evidence_rates(ctx), asked_attributes(draft)
    people = ctx.unnamed(profile, life)
    fillable = _fillable(ctx, life)
    base = len(out)
    # that life's people of the question's scenarios first, then (a life with too few of
    # them, e.g. the same single item) its other people
    for group in (
        [e for e in people if e.scenario in scenarios],
        [e for e in people if e.scenario not in scenarios],
    ):
        need = wanted - (len(out) - base)
        spare = [
            (e, f)
            for e in group
            for f, early in fillable[id(e)]
            if not early and f"{life.id}:{f.id}" not in said
        ]
        if need <= 0 or not spare:
            continue
        weights = filler_weights(
            rates, (((e.kind, f.attribute), f.attribute) for e, f in spare), asked
        )
        for i in weighted_sample(rng, weights, min(need, len(spare))):
            entity, fact = spare[i]
            out.append(_Unit("noise", ((entity, fact),), source=life.id))
    return out


def _topic_noise(
    ctx: QAContext,
    profile: Profile,
    draft: Draft,
    life: Profile,
    said: set[str],
    topic: int,
    rng: np.random.Generator,
) -> list[_Unit]:
    """Up to ``topic`` facts of the asked attributes about ``life``'s people whom this
    profile has no one named like (never that life's user: another "I"), nor the
    question (a false premise asks of someone the profile lacks: "my roommate")."""
    asked = asked_attributes(draft)
    fillable = _fillable(ctx, life)
    question = draft.question.casefold()
    spare = [
        (e, f)
        for e in ctx.unnamed(profile, life)
        if e.scenario != "user" and ctx.who(e).casefold() not in question
        for f, early in fillable[id(e)]
        if not early and f.attribute in asked and f"{life.id}:{f.id}" not in said
    ]
    if not spare:
        return []
    picked = rng.choice(len(spare), size=min(topic, len(spare)), replace=False)
    return [_Unit("noise", (spare[int(i)],), source=life.id) for i in sorted(picked)]


def _clock(
    ctx: QAContext,
    profile: Profile,
    draft: Draft,
    units: list[_Unit],
    rng: np.random.Generator,
) -> list[dt.datetime]:
    """Strictly increasing times in waking hours, one per unit and the question's last;
    every message comes before the earliest event time any message states."""
    n = len(units) + 1
    plans = [
        dt.datetime.fromisoformat(str(f.value))
        for u in units
        for _, f in u.facts
        if f.type == "datetime"
    ]
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
    asked = [f for f in facts[: len(draft.evidence)] if f.type in ("datetime", "date")]
    if asked and _asks_weekday(draft):
        # weeks before the event, so that its date is said absolutely ("on May 10"),
        # never as "this Friday": the weekday asked is not written in the evidence
        event_day = min(dt.date.fromisoformat(str(f.value)[:10]) for f in asked)
        start_day = max(timeline.start, event_day - dt.timedelta(days=int(rng.integers(21, 35))))
    elif dated and rng.random() < 0.6:
        anchor = dated[int(rng.integers(len(dated)))]
        event_day = dt.datetime.fromisoformat(str(anchor.value)).date()
        start_day = max(timeline.start, event_day - dt.timedelta(days=int(rng.integers(2, 10))))
    # a message that says when an event is speaks of a plan (future tense): every
    # message is sent before the earliest such event, starting days before it and, when
    # the days are few, with shorter gaps
    first = min(plans, default=None)
    if first is not None:
        room = int(rng.integers(1, 15))
        start_day = max(timeline.start, min(start_day, first.date() - dt.timedelta(days=room)))
        # an event on the timeline's first day: the messages start the day before it
        start_day = min(start_day, first.date() - dt.timedelta(days=1))
    now = dt.datetime.combine(start_day, dt.time(WAKING[0])) + dt.timedelta(
        minutes=int(rng.integers(0, 180))
    )
    for longest in GAPS:
        times = [now]
        for _ in range(n - 2):
            times.append(_waking(times[-1] + _gap(longest, rng), rng))
        if first is None or times[-1] < first:
            break
    times.append(_waking(times[-1] + _gap(GAPS[0], rng), rng))  # the question
    return times


def _gap(longest: int, rng: np.random.Generator) -> dt.timedelta:
    """Minutes between two messages: log-uniform from 15 to ``longest``."""
    low, high = _LOGS.get(longest) or _log_range(longest)
    return dt.timedelta(minutes=int(np.exp(rng.uniform(low, high))))


def _log_range(longest: int) -> tuple[float, float]:
    return float(np.log(15)), float(np.log(longest))


_LOGS = {longest: _log_range(longest) for longest in GAPS}
"""The logarithms of :func:`_gap`'s bounds, once (numpy's, as float: the same values)."""


def _asks_weekday(draft: Draft) -> bool:
    parts = draft.params.get("parts") if draft.transform == "hybrid" else [draft.__dict__]
    return any(isinstance(p, dict) and p.get("transform") == "weekday" for p in parts or [])


def _waking(when: dt.datetime, rng: np.random.Generator) -> dt.datetime:
    if WAKING[0] <= when.hour < WAKING[1]:
        return when
    day = when.date() if when.hour < WAKING[0] else when.date() + dt.timedelta(days=1)
    return dt.datetime.combine(day, dt.time(WAKING[0])) + dt.timedelta(
        minutes=int(rng.integers(0, 120))
    )


def _place(
    ctx: QAContext, profile: Profile, when: dt.datetime, hidden: frozenset[str] = frozenset()
) -> str:
    """Where the user is at ``when``: at an entity whose ``time`` began in the last two
    hours (in its ``location``), else at their ``workplace`` on weekdays 9-18, else at
    home; in the user's ``location`` unless an entity's says otherwise. A fact in
    ``hidden`` (the question withholds it) is never the place: a withheld workplace's
    name would say it, and what it is made from (a job inside a firm's name)."""
    places = _places(ctx, profile)
    city_fact = places.city
    if city_fact is not None and city_fact.id in hidden:
        city_fact = None
    city = str(value_at(city_fact, when)) if city_fact else ""
    spot = ctx.loc.home
    for start, begins, ends, event, location in places.events:
        if start.id not in hidden and begins <= when <= ends:
            spot = ctx.who(event)
            city = str(location.value) if location and location.id not in hidden else city
            break
    else:
        employer = places.employer
        if employer is not None and employer.id in hidden:
            employer = None
        if employer is not None and when.weekday() < 5 and 9 <= when.hour < 18:
            spot = str(value_at(employer, when))  # a workplace may change, as the city does
    return ctx.loc.place.format(spot=spot, city=city) if city else spot


@dataclass(frozen=True)
class _Places:
    """What :func:`_place` reads of a profile, found once per profile: the user's
    ``location`` and ``workplace`` facts, and each entity's ``time`` (a date-time) with
    the two hours the user is there and its ``location`` fact, in the profile's order."""

    city: Fact | None
    employer: Fact | None
    events: tuple[tuple[Fact, dt.datetime, dt.datetime, Entity, Fact | None], ...]


def _places(ctx: QAContext, profile: Profile) -> _Places:
    def find() -> _Places:
        schema = ctx.schema
        kind = user_kind(schema)
        user = profile.of_kind(kind)[0] if kind and profile.of_kind(kind) else None
        city_attr = location_attribute(schema, user.kind) if user else None
        work_attr = workplace_attribute(schema, user.kind) if user else None
        events = []
        for event in profile.entities:
            time_attr = time_attribute(schema, event.kind)
            start = event.facts.get(time_attr) if time_attr else None
            if start is not None and start.type == "datetime":
                begins = dt.datetime.fromisoformat(str(start.value))
                where = location_attribute(schema, event.kind)
                location = event.facts.get(where) if where else None
                events.append((start, begins, begins + dt.timedelta(hours=2), event, location))
        return _Places(
            user.facts.get(city_attr) if user and city_attr else None,
            user.facts.get(work_attr) if user and work_attr else None,
            tuple(events),
        )

    return ctx.remember("places", profile, find)  # a function of the profile alone
