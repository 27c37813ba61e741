"""Trajectories of questions that read value histories: messages spread over the span
the draft fixes (weeks or months), each evidence statement sent inside its window.

Guarantees (beside those of :mod:`memsim.trajectory._build` that do not depend on the
clock: filler, chit-chat, places, withheld facts never stated):
- every statement is said exactly once, at a time inside its window, so it says the
  value in force then; a ``change`` statement says the change explicitly, with its
  cause and its day, and the value it brought;
- every other message gets a time drawn uniformly over the span's waking minutes, so
  its position says nothing about its role (evidence times are uniform in their own
  windows); a hard negative or filler fact that changed before its message tells the
  change explicitly half the time, as evidence does, so the telling marks no role;
- timestamps strictly increase, in waking hours, and the question (at the span's end)
  comes after the last message.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, replace

import numpy as np

from memsim.profile import Entity, Fact, Profile
from memsim.qa import Draft, Message, QAContext
from memsim.trajectory._build import (
    MESSAGES_PER_TRAJECTORY,
    WAKING,
    _iso,
    _pair_some,
    _place,
    _Unit,
)
from memsim.verbalize import render_date


@dataclass(frozen=True)
class _Timed:
    unit: _Unit
    start: dt.datetime
    end: dt.datetime
    told: str = "plain"


def build_timed_trajectory(
    ctx: QAContext, profile: Profile, draft: Draft, rng: np.random.Generator
) -> tuple[list[Message], dt.datetime]:
    assert draft.span is not None
    begin, asked = (dt.datetime.fromisoformat(t) for t in draft.span)
    timed = _timed_units(ctx, profile, draft, begin, asked, rng)
    times = _draw_times(timed, rng)
    order = sorted(range(len(timed)), key=lambda i: times[i])
    messages = []
    for mid, i in enumerate(order):
        item, when = timed[i], times[i]
        unit = item.unit
        if unit.text is not None:
            text = unit.text
        elif item.told == "change" or _tells_change(unit, when, rng):
            entity, fact = unit.facts[0]
            text = _change_text(ctx, entity, fact, when, rng)
        else:
            text = ctx.verbalizer.message(unit.facts, when, rng)
        messages.append(
            Message(mid, text, _iso(when), _place(ctx, profile, when), unit.role, unit.fact_ids())
        )
    return messages, asked


def _timed_units(
    ctx: QAContext,
    profile: Profile,
    draft: Draft,
    begin: dt.datetime,
    asked: dt.datetime,
    rng: np.random.Generator,
) -> list[_Timed]:
    def lookup(fact_id: str) -> tuple[Entity, Fact]:
        entity_id, attr = fact_id.rsplit(".", 1)
        entity = profile.entity(entity_id)
        return entity, entity.facts[attr]

    statements = [s for s in draft.statements if dt.datetime.fromisoformat(s.end) > begin]
    out = [
        _Timed(
            _Unit(s.role, (lookup(s.fact.id),)),
            max(begin, dt.datetime.fromisoformat(s.start)),
            min(asked, dt.datetime.fromisoformat(s.end)),
            s.told,
        )
        for s in statements
    ]
    stated = {s.fact.id for s in draft.statements}
    evidence = [f for f in dict.fromkeys(f.id for f in draft.evidence) if f not in stated]
    negatives = [
        f for f in dict.fromkeys(n.id for n in draft.negatives) if f not in stated | set(evidence)
    ]
    plain = [_Unit("evidence", (lookup(f),)) for f in evidence]
    plain += [_Unit("negative", (lookup(f),)) for f in negatives]
    used = stated | set(evidence) | set(negatives) | {w.id for w in draft.withheld}
    low, high = MESSAGES_PER_TRAJECTORY
    total = int(rng.integers(low, high + 1))
    chit_chat = int(rng.integers(1, 3))
    n_filler = max(1, total - len(out) - len(plain) - chit_chat)
    # filler never speaks of an event already past when the trajectory begins (event
    # times are said as plans)
    spare = [
        (e, f)
        for e in profile.entities
        for f in e.facts.values()
        if f.id not in used
        and not (f.type == "datetime" and dt.datetime.fromisoformat(str(f.value)) <= begin)
    ]
    for i in rng.permutation(len(spare))[:n_filler]:
        plain.append(_Unit("filler", (spare[i],)))
    plain = _pair_some(plain, rng)
    lines = ctx.loc.chit_chat
    plain += [
        _Unit("chit_chat", text=lines[i])
        for i in rng.choice(len(lines), size=chit_chat, replace=False)
    ]
    timed = out + [_Timed(u, begin, asked) for u in plain]
    return [_before_events(t) for t in timed]


def _before_events(item: _Timed) -> _Timed:
    """The unit's window ended before the earliest event time it states: event times
    are said as plans, so a message never speaks of a past event in the future tense
    (the window is kept when the event comes before the window starts)."""
    events = [
        dt.datetime.fromisoformat(str(fact.value))
        for _, fact in item.unit.facts
        if fact.type == "datetime"
    ]
    if not events:
        return item
    cap = min(events) - dt.timedelta(minutes=1)
    return replace(item, end=min(item.end, cap)) if cap > item.start else item


OTHERS_TOLD_AS_CHANGE = 0.5
"""Chance that a hard negative or a filler fact that changed before its message tells
the change explicitly too, so that the way a change is told does not mark evidence."""


def _tells_change(unit: _Unit, when: dt.datetime, rng: np.random.Generator) -> bool:
    if unit.role not in ("negative", "filler") or len(unit.facts) != 1:
        return False
    stamp = _iso(when)
    history = unit.facts[0][1].history
    if not any(s.since is not None and s.since <= stamp for s in history[1:]):
        return False
    return bool(rng.random() < OTHERS_TOLD_AS_CHANGE)


def _change_text(
    ctx: QAContext, entity: Entity, fact: Fact, when: dt.datetime, rng: np.random.Generator
) -> str:
    """The change that brought the value in force at ``when``, said explicitly."""
    stamp = _iso(when)
    step = [s for s in fact.history[1:] if s.since is not None and s.since <= stamp][-1]
    assert step.since is not None
    change = ctx.attribute(entity, fact.attribute).changes
    cause = change.said.get(ctx.loc.code, change.cause) if change else str(step.cause)
    template = ctx.choose(ctx.loc.history.change_told, rng)
    day = dt.datetime.fromisoformat(step.since).date()
    text = template.format(
        sentence=ctx.verbalizer.sentence(entity, fact, when, rng),
        cause=cause,
        date=render_date(day, ctx.loc),
    )
    return ctx.loc.cap(text)


def _draw_times(timed: list[_Timed], rng: np.random.Generator) -> list[dt.datetime]:
    """One waking minute per unit inside its window, all distinct."""
    times: list[dt.datetime] = []
    taken: set[dt.datetime] = set()
    for item in timed:
        for _ in range(50):
            when = waking_minute(item.start, item.end, rng)
            if when not in taken:
                break
        taken.add(when)
        times.append(when)
    return times


def waking_minute(start: dt.datetime, end: dt.datetime, rng: np.random.Generator) -> dt.datetime:
    """A minute drawn uniformly among the waking minutes (07:00-22:59) of [start, end);
    ``start`` itself when the window holds none."""
    spans = []
    day = start.date()
    while day <= end.date():
        lo = max(start, dt.datetime.combine(day, dt.time(WAKING[0])))
        hi = min(end, dt.datetime.combine(day, dt.time(WAKING[1] - 1, 59)))
        if hi > lo:
            spans.append((lo, int((hi - lo).total_seconds() // 60)))
        day += dt.timedelta(days=1)
    total = sum(n for _, n in spans)
    if total == 0:
        return start.replace(second=0, microsecond=0)
    pick = int(rng.integers(total))
    for lo, n in spans:
        if pick < n:
            return (lo + dt.timedelta(minutes=pick)).replace(second=0, microsecond=0)
        pick -= n
    raise AssertionError("unreachable")


__all__ = ["build_timed_trajectory", "waking_minute"]
