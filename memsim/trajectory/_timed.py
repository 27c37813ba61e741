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

from memsim._streams import weighted_sample
from memsim.profile import Entity, Fact, Profile
from memsim.qa import Draft, Message, QAContext
from memsim.qa._history import statements as history_statements
from memsim.trajectory._build import (
    WAKING,
    _fillable,
    _iso,
    _pair_some,
    _place,
    _Unit,
)
from memsim.trajectory._changes import change_text, tells_change
from memsim.trajectory._hearsay import hearsay_lines
from memsim.trajectory._rates import (
    CHIT_CHAT,
    MESSAGES_PER_TRAJECTORY,
    asked_attributes,
    evidence_rates,
    filler_weights,
)


@dataclass(frozen=True)
class _Timed:
    unit: _Unit
    start: dt.datetime
    end: dt.datetime
    told: str | None = None
    """``plain`` or ``change`` when the question decided how the fact is told; None for
    the others (a filler fact tells its change as often as the evidence does)."""


def build_timed_trajectory(
    ctx: QAContext, profile: Profile, draft: Draft, rng: np.random.Generator
) -> tuple[list[Message], dt.datetime]:
    assert draft.span is not None
    begin, asked = (dt.datetime.fromisoformat(t) for t in draft.span)
    timed = _timed_units(ctx, profile, draft, begin, asked, rng)
    times = _draw_times(timed, rng)
    order = sorted(range(len(timed)), key=lambda i: times[i])
    hidden = frozenset(w.id for w in draft.withheld)
    messages = []
    for mid, i in enumerate(order):
        item, when = timed[i], times[i]
        unit = item.unit
        if unit.text is not None:
            text = unit.text
        elif item.told == "change" or (
            item.told is None and tells_change(unit.role, unit.facts, when, rng)
        ):
            entity, fact = unit.facts[0]
            text = change_text(ctx, entity, fact, when, rng)
        else:
            text = ctx.verbalizer.message(unit.facts, when, rng)
        messages.append(
            Message(
                mid,
                text,
                _iso(when),
                _place(ctx, profile, when, hidden),
                unit.role,
                unit.fact_ids(),
            )
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
    # filler never speaks of an event already past when the trajectory begins (event
    # times are said as plans)
    fillable = _fillable(ctx, profile)
    spare = [
        (e, f)
        for e in profile.entities
        for f, _ in fillable[id(e)]
        if f.id not in used
        and not (f.type == "datetime" and dt.datetime.fromisoformat(str(f.value)) <= begin)
    ]
    decoys = _decoy_histories(ctx, draft, spare, begin, asked, rng)
    told_ids = {t.unit.facts[0][1].id for t in decoys}
    spare = [(e, f) for e, f in spare if f.id not in told_ids]
    low, high = MESSAGES_PER_TRAJECTORY
    total = int(rng.integers(low, high + 1))
    chit_chat = int(rng.random() < CHIT_CHAT)
    n_filler = min(len(spare), max(1, total - len(out) - len(decoys) - len(plain) - chit_chat))
    if n_filler:
        # in proportion to how often each kind of fact is evidence (as in every
        # trajectory), so that what a message is about does not mark it
        rates, topic = evidence_rates(ctx), asked_attributes(draft)
        weights = filler_weights(
            rates, (((e.kind, f.attribute), f.attribute) for e, f in spare), topic
        )
        for i in weighted_sample(rng, weights, n_filler):
            plain.append(_Unit("filler", (spare[i],)))
    plain = _pair_some(plain, rng)
    lines = ctx.loc.chit_chat
    plain += [
        _Unit("chit_chat", text=lines[i])
        for i in rng.choice(len(lines), size=chit_chat, replace=False)
    ]
    # distractors the history does not say, said to be someone else's (as in every
    # trajectory), so the answer and the old values are not the only options mentioned
    plain += [_Unit("chit_chat", text=t) for t in hearsay_lines(ctx, profile, draft.hearsay, rng)]
    timed = out + decoys + [_Timed(u, begin, asked) for u in plain]
    return [_before_events(t) for t in timed]


DECOY_HISTORIES = 3
"""Value histories a trajectory tells beside the evidence's, counting the hard
negatives' (other facts that changed, told step by step as filler)."""


def _decoy_histories(
    ctx: QAContext,
    draft: Draft,
    spare: list[tuple[Entity, Fact]],
    begin: dt.datetime,
    asked: dt.datetime,
    rng: np.random.Generator,
) -> list[_Timed]:
    """Filler that tells other changing facts value by value, each change explicitly as
    often as the evidence's are, so that a history told step by step, and a change said
    explicitly, do not mark the evidence: up to ``DECOY_HISTORIES`` histories less the
    hard negatives' (none when the evidence tells no history)."""
    evidence = [s for s in draft.statements if s.role == "evidence"]
    if len(evidence) < 2:
        return []
    negatives = {s.fact.id for s in draft.statements if s.role == "negative"}
    want = DECOY_HISTORIES - len(negatives)
    stamps = (_iso(begin + dt.timedelta(hours=1)), _iso(asked - dt.timedelta(hours=1)))
    changing = [
        (e, f)
        for e, f in spare
        if any(s.since is not None and stamps[0] < s.since < stamps[1] for s in f.history[1:])
    ]
    if want <= 0 or not changing:
        return []
    explicit = sum(s.told == "change" for s in evidence[1:]) / (len(evidence) - 1)
    # drawn in proportion to how often each kind of fact is evidence, as filler is: a
    # history told step by step is then evidence as often whatever it is about (drawn
    # uniformly, a history rarely asked, such as one that follows every other change,
    # was told far more often as a decoy than as evidence, and marked the non-evidence)
    rates, topic = evidence_rates(ctx), asked_attributes(draft)
    weights = filler_weights(
        rates, (((e.kind, f.attribute), f.attribute) for e, f in changing), topic
    )
    shuffled = [changing[i] for i in weighted_sample(rng, weights, len(changing))]
    # the evidence's own scenario first (the user's other facts that changed, for a
    # question about the user), so that decoys speak of whom the evidence speaks of
    shuffled.sort(key=lambda ef: ef[0].scenario != draft.scenario)
    out = []
    for entity, fact in shuffled[:want]:
        told = ["change" if rng.random() < explicit else "plain" for _ in fact.history]
        steps = history_statements(
            ctx.ref(entity, fact.attribute), fact, (begin, asked), told, "filler"
        )
        for s in steps:
            window = (dt.datetime.fromisoformat(s.start), dt.datetime.fromisoformat(s.end))
            out.append(_Timed(_Unit("filler", ((entity, fact),)), *window, s.told))
    return out


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


MIN_GAP = dt.timedelta(minutes=5)
"""Least time between two messages: a history (:mod:`memsim.history`) puts an
assistant reply one minute after each user turn, a task's thanks two minutes after a
session's last turn and the next task's opener two minutes before its first, and its
times must strictly increase."""


def _draw_times(timed: list[_Timed], rng: np.random.Generator) -> list[dt.datetime]:
    """One waking minute per unit inside its window, at least MIN_GAP from the others."""
    times: list[dt.datetime] = []
    for item in timed:
        for _ in range(50):
            when = waking_minute(item.start, item.end, rng)
            if all(abs(when - t) >= MIN_GAP for t in times):
                break
        times.append(when)
    return times


def waking_minute(start: dt.datetime, end: dt.datetime, rng: np.random.Generator) -> dt.datetime:
    """A minute drawn uniformly among the waking minutes (07:00-22:59) of [start, end);
    ``start`` itself when the window holds none.

    The days strictly between the first and the last are whole waking days of
    ``_DAY_MINUTES`` each, so only the two ends are measured: a window of months costs
    what a window of a day does (the same draw and the same minute as measuring every
    day, ``tests/trajectory/test_waking_minute.py``)."""
    first, last = start.date(), end.date()
    middle = max((last - first).days - 1, 0)  # whole waking days between the two ends
    ends = [_waking_span(start, end, first)]
    if last > first:
        ends.append(_waking_span(start, end, last))
    total = ends[0][1] + middle * _DAY_MINUTES + (ends[1][1] if len(ends) > 1 else 0)
    if total == 0:
        return start.replace(second=0, microsecond=0)
    pick = int(rng.integers(total))
    if pick < ends[0][1]:
        return (ends[0][0] + dt.timedelta(minutes=pick)).replace(second=0, microsecond=0)
    pick -= ends[0][1]
    if pick < middle * _DAY_MINUTES:
        days, minutes = divmod(pick, _DAY_MINUTES)
        day = first + dt.timedelta(days=days + 1)
        return dt.datetime.combine(day, dt.time(WAKING[0])) + dt.timedelta(minutes=minutes)
    pick -= middle * _DAY_MINUTES
    return (ends[1][0] + dt.timedelta(minutes=pick)).replace(second=0, microsecond=0)


_DAY_MINUTES = (WAKING[1] - 1 - WAKING[0]) * 60 + 59
"""Waking minutes of a whole day (07:00 to 22:59: 959)."""


def _waking_span(start: dt.datetime, end: dt.datetime, day: dt.date) -> tuple[dt.datetime, int]:
    """The first waking minute of ``day`` inside [start, end) and how many there are
    (0: none)."""
    lo = max(start, dt.datetime.combine(day, dt.time(WAKING[0])))
    hi = min(end, dt.datetime.combine(day, dt.time(WAKING[1] - 1, 59)))
    return lo, int((hi - lo).total_seconds() // 60) if hi > lo else 0


__all__ = ["build_timed_trajectory", "waking_minute"]
