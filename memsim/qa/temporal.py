"""Temporal-reasoning questions: when things held or happened, with the calendar
arithmetic done by code.

Forms (about the user and the people of their life: ``value_at``, ``elapsed``; about
events: ``order``, ``count``, ``date_of``):
- ``value_at``: "what was my work city on April 2, 2024?" The day is at least one day
  away from every change; every change of the fact is told explicitly, with its day.
  A categorical answer is kept with probability p_min / p(value) over the pool, as a
  knowledge update's is, so a common tier is not the answer more often than a rare one.
- ``elapsed``: "how many days (full weeks, rounded down) before today did my work
  city become Denver?" The unit and the rounding are in the question; the change is
  told explicitly; "today" is the day the question is asked; the value is one the
  history takes once. The answer's rank among the options is dealt (four trajectories
  in a row hold the four ranks; those of them that ask ``elapsed`` use theirs), the
  answer drawn among the numbers of ``ELAPSED``'s range that can take it, before the
  day of the question is set from it. ``value_at`` and ``elapsed`` are drawn.
- ``order``: "which came first: A, B or C?" Three events on different days; with
  chance 1/4 one of their times is withheld (never said) and the answer is the
  locale's "never told", else the earliest event: each of the four options is the
  answer as often.
- ``count``: "how many of my events take place from D1 to D2, both days included?"
  The target count is dealt uniformly from 0..3 (:mod:`memsim.qa._strata`: equal
  shares over the trajectories, as the three forms are) before a window that realises
  it is searched for; the options are always 0, 1, 2 and 3.
- ``date_of``: "on what date is the X?" The event's time is said 1 to 6 days before
  it, so it is said relatively ("next Friday at 7 PM") and resolved against the
  message's time; the distractors are days near it, the answer's rank uniform.

Guarantees: answers are computed from the profile's histories and times; every fact
a question needs is told inside the trajectory's span while it holds.
"""

from __future__ import annotations

import datetime as dt

import numpy as np

from memsim.profile import Entity, Profile
from memsim.qa._choices import numeric_options
from memsim.qa._context import QAContext
from memsim.qa._history import (
    balanced_answer,
    changed,
    day_text,
    history_span,
    iso,
    morning,
    negatives,
    pick_changed,
    since,
    statements,
    unsaid_hearsay,
    value_options,
    whose,
)
from memsim.qa._registry import qa_kind
from memsim.qa._strata import balanced
from memsim.qa._types import Draft, Statement

COUNTS = (0, 1, 2, 3)
WEEK = 7
FORM_DECK, COUNT_DECK, RANK_DECK = 1, 2, 9
"""Salts of the decks the events' form and count and an ``elapsed`` answer's rank are
dealt from."""
HOLD = 16
"""Attempts a dealt rank is held for before the draw is the stream's."""
ELAPSED = {"days": (1, 60), "weeks": (0, 8)}
"""The range of an ``elapsed`` answer, per unit: every value in it is the answer as
often."""


@qa_kind("temporal", ("user", "roles", "events", "items", "places"), hybrid=False)
def temporal(
    ctx: QAContext, profile: Profile, scenario: str, rng: np.random.Generator
) -> Draft | None:
    group = ctx.group(profile, scenario)
    if scenario == "events":
        # dealt, not drawn: each form, and each count of the counting form, comes out
        # in equal shares over the scenario's trajectories (memsim.qa._strata)
        form = ("order", "count", "date_of")[balanced(rng, 3, FORM_DECK)]
        return {"order": _order, "count": _count, "date_of": _date_of}[form](ctx, group, rng)
    found = changed(ctx, group)
    if not found:
        return None
    entity, attr = pick_changed(ctx, found, rng)
    # the form is drawn, not dealt: dealt in pairs of trajectories (held for HOLD
    # attempts) it moved which changes are asked, and their evidence sat in the first
    # five messages more often (campus, 60 per kind: first-5 recall 0.66 against 0.55
    # at random, an error; drawn 0.59 and 0.49 at seeds 0 and 1)
    if rng.random() < 0.5:
        return _value_at(ctx, group, entity, attr, scenario, rng)
    return _elapsed(ctx, group, entity, attr, scenario, rng)


def _draft(
    ctx: QAContext, scenario: str, question: str, options: list[str], **rest: object
) -> Draft:
    return Draft(
        kind="temporal",
        scenario=scenario,
        question=question,
        answer=options[0],
        options=tuple(options),
        **rest,  # type: ignore[arg-type]
    )


def _value_at(
    ctx: QAContext,
    group: list[Entity],
    entity: Entity,
    attr: str,
    scenario: str,
    rng: np.random.Generator,
) -> Draft | None:
    fact = entity.facts[attr]
    n = len(fact.history)
    span = history_span(ctx, fact, rng)
    k = int(rng.integers(n))  # the step in force on the day asked about
    low = span[0].date() if k == 0 else since(fact, k).date() + dt.timedelta(days=1)
    high = (since(fact, k + 1) if k + 1 < n else span[1]).date() - dt.timedelta(days=1)
    if high < low:
        return None
    day = low + dt.timedelta(days=int(rng.integers((high - low).days + 1)))
    answer = fact.history[k].value
    if not balanced_answer(ctx, entity, attr, answer, rng):
        return None  # drawn again, as a knowledge update is
    options = value_options(ctx, entity, attr, answer, rng)
    if options is None:
        return None
    template = ctx.loc.questions.asked(
        ctx.choose(ctx.loc.history.temporal["value_at"], rng), ctx.attribute(entity, attr).type
    )
    question = template.format(
        whose=whose(ctx, entity), label=ctx.label(entity, attr), date=day_text(ctx, day)
    )
    ref = ctx.ref(entity, attr)
    plain, timed = negatives(ctx, group, entity, attr, span, 1.0, rng)
    return _draft(
        ctx,
        scenario,
        question,
        options,
        evidence=(ref,),
        negatives=plain,
        transform="value_at",
        params={"entity": entity.id, "attribute": attr, "day": day.isoformat()},
        hearsay=unsaid_hearsay(ctx, entity, attr, options),
        answer_value=answer,
        statements=statements(ref, fact, span, ["change"] * n) + timed,
        span=(iso(span[0]), iso(span[1])),
    )


def _elapsed(
    ctx: QAContext,
    group: list[Entity],
    entity: Entity,
    attr: str,
    scenario: str,
    rng: np.random.Generator,
) -> Draft | None:
    fact = entity.facts[attr]
    n = len(fact.history)
    k = int(rng.integers(1, n))
    value = fact.history[k].value
    if sum(s.value == value for s in fact.history) != 1:
        return None  # "became X" must name one change
    unit = "days" if rng.random() < 0.5 else "weeks"
    # the rank is dealt: drawn, the ranks of a few dozen questions strayed (seed 0, 100
    # per kind: the largest number was the answer 16 times in 36, in every schema alike,
    # since the draws follow the trajectory's seed), and a reader of the options learned
    # it. Each trajectory has a card; the elapsed ones among four in a row differ.
    numbers = _uniform_numbers(unit, rng, balanced(rng, 4, RANK_DECK, hold=HOLD))
    answer = numbers[0]
    # whole weeks: a day 1-6 into the week, so the question never falls on the change's day
    days = answer if unit == "days" else answer * WEEK + int(rng.integers(1, WEEK))
    start = history_span(ctx, fact, rng)[0]
    # the question may come before later changes: their values are not told yet
    span = (start, morning(since(fact, k).date() + dt.timedelta(days=days), rng))
    template = ctx.choose(ctx.loc.history.temporal[f"elapsed_{unit}"], rng)
    question = template.format(
        whose=whose(ctx, entity),
        label=ctx.label(entity, attr),
        value=ctx.display(entity, attr, value),
    )
    told = ["plain"] * n
    told[k] = "change"
    ref = ctx.ref(entity, attr)
    plain, timed = negatives(ctx, group, entity, attr, span, 1 / max(1, n - 1), rng)
    return _draft(
        ctx,
        scenario,
        question,
        [str(x) for x in numbers],
        evidence=(ref,),
        negatives=plain,
        transform="elapsed",
        params={"entity": entity.id, "attribute": attr, "change": k, "unit": unit},
        answer_value=answer,
        statements=statements(ref, fact, span, told) + timed,
        span=(iso(span[0]), iso(span[1])),
    )


def _uniform_numbers(unit: str, rng: np.random.Generator, rank: int) -> list[int]:
    """An ``elapsed`` answer and its options, drawn before the question's day is set
    from them: the answer uniform over ``ELAPSED[unit]`` and its rank among the options
    uniform over the ranks that fit (drawn from the question's day instead, answers
    skewed small, a few days after the last change, with distractors spread above, and
    the smallest option was the gold too often). The ``rank`` is dealt: the answer is
    then uniform over those that can take it, and every rank has as many."""
    low, high = ELAPSED[unit]
    while True:
        answer = int(rng.integers(low, high + 1))
        spread = 6 if unit == "days" else 2
        numbers = numeric_options(answer, rng, low, high, spread=spread, rank=rank)
        if numbers is not None:
            return numbers


def _dated(ctx: QAContext, group: list[Entity]) -> list[tuple[Entity, str, dt.datetime]]:
    """Events with a date-time (the first such attribute of each), by time."""
    out = []
    for e in group:
        attrs = [a for a in ctx.askable(e) if e.facts[a].type == "datetime"]
        if attrs:
            out.append((e, attrs[0], dt.datetime.fromisoformat(str(e.facts[attrs[0]].value))))
    return sorted(out, key=lambda x: x[2])


def _around(
    ctx: QAContext, times: list[dt.datetime], rng: np.random.Generator
) -> tuple[dt.datetime, dt.datetime]:
    """A span of two to three weeks that starts before the first of ``times``'s dates
    or near it (times after the span are said ahead of time)."""
    start_day = min(times).date() - dt.timedelta(days=int(rng.integers(2, 15)))
    start = dt.datetime.combine(max(start_day, ctx.schema.timeline.start), dt.time(7))
    return start, morning(start.date() + dt.timedelta(days=int(rng.integers(14, 22))), rng)


def _order(ctx: QAContext, group: list[Entity], rng: np.random.Generator) -> Draft | None:
    dated = _dated(ctx, group)
    if len(dated) < 3:
        return None
    picked = [dated[i] for i in sorted(rng.choice(len(dated), size=3, replace=False))]
    if len({t.date() for _, _, t in picked}) < 3 or not _same_attr(picked):
        return None  # "first" must not hang on the time of day
    unknown = rng.random() < 0.25
    hidden = picked[int(rng.integers(3))] if unknown else None
    shown = [ctx.cap(ctx.loc.as_option(ctx.who(e), ctx.is_user(e))) for e, _, _ in picked]
    never = ctx.loc.history.never_told
    answer = never if unknown else shown[0]
    options = [answer, *(x for x in [*shown, never] if x != answer)]
    names = [ctx.who(e) for e, _, _ in picked]
    order = rng.permutation(3)
    a, b, c = (names[i] for i in order)
    question = ctx.choose(ctx.loc.history.temporal["order"], rng).format(a=a, b=b, c=c)
    told = [x for x in picked if x is not hidden]
    span = _around(ctx, [t for _, _, t in picked], rng)
    return _draft(
        ctx,
        "events",
        question,
        options,
        evidence=tuple(ctx.ref(e, attr) for e, attr, _ in told),
        withheld=() if hidden is None else (ctx.ref(hidden[0], hidden[1]),),
        transform="first_of",
        params={"entities": [picked[i][0].id for i in order], "attribute": picked[0][1]},
        answer_value=picked[0][0].id if hidden is None else "unknown",
        span=(iso(span[0]), iso(span[1])),
    )


def _same_attr(picked: list[tuple[Entity, str, dt.datetime]]) -> bool:
    return len({attr for _, attr, _ in picked}) == 1


def _count(ctx: QAContext, group: list[Entity], rng: np.random.Generator) -> Draft | None:
    dated = _dated(ctx, group)
    if len(dated) < 3 or not _same_attr(dated):
        return None
    days = [t.date() for _, _, t in dated]
    target = COUNTS[balanced(rng, len(COUNTS), COUNT_DECK, every=3)]
    window = _window(days, target, rng)
    if window is None:
        return None
    first, last = window
    assert sum(first <= d <= last for d in days) == target
    options = [str(target), *(str(c) for c in COUNTS if c != target)]
    events = [e for e, _, _ in dated]
    question = ctx.choose(ctx.loc.history.temporal["count"], rng).format(
        group=ctx.group_label(events, plural=True),
        start=day_text(ctx, first),
        end=day_text(ctx, last),
    )
    span = _around(ctx, [t for _, _, t in dated], rng)
    attr = dated[0][1]
    return _draft(
        ctx,
        "events",
        question,
        options,
        evidence=tuple(ctx.ref(e, attr) for e in events),
        transform="count_between",
        params={
            "entities": [e.id for e in events],
            "attribute": attr,
            "start": first.isoformat(),
            "end": last.isoformat(),
        },
        answer_value=target,
        span=(iso(span[0]), iso(span[1])),
    )


def _window(
    days: list[dt.date], target: int, rng: np.random.Generator
) -> tuple[dt.date, dt.date] | None:
    """A day range holding exactly ``target`` of the (sorted) days, its ends drawn
    in the gaps around them (up to two weeks beyond the first and the last)."""
    n = len(days)
    edge = dt.timedelta(days=14)
    bounds = [days[0] - edge - dt.timedelta(days=1), *days, days[-1] + edge + dt.timedelta(days=1)]
    starts = []
    for i in range(n - target + 1):  # days i..i+target-1 inside, i-1 and i+target outside
        before, after = bounds[i], bounds[i + target + 1]
        lo, hi = before + dt.timedelta(days=1), after - dt.timedelta(days=1)
        first_in = days[i] if target else None
        last_in = days[i + target - 1] if target else None
        if target and (lo > first_in or hi < last_in):  # type: ignore[operator]
            continue
        if not target and hi < lo:
            continue
        starts.append((lo, hi, first_in, last_in))
    if not starts:
        return None
    lo, hi, first_in, last_in = starts[int(rng.integers(len(starts)))]
    a_max = first_in if first_in is not None else hi
    a = lo + dt.timedelta(days=int(rng.integers((a_max - lo).days + 1)))
    b_min = last_in if last_in is not None else a
    b = b_min + dt.timedelta(days=int(rng.integers((hi - b_min).days + 1)))
    return a, b


def _date_of(ctx: QAContext, group: list[Entity], rng: np.random.Generator) -> Draft | None:
    dated = _dated(ctx, group)
    if not dated:
        return None
    entity, attr, when = dated[int(rng.integers(len(dated)))]
    if when.date() - dt.timedelta(days=6) < ctx.schema.timeline.start:
        return None
    said_from = dt.datetime.combine(when.date() - dt.timedelta(days=6), dt.time(7))
    said_to = dt.datetime.combine(when.date() - dt.timedelta(days=1), dt.time(22, 59))
    start_day = said_from.date() - dt.timedelta(days=int(rng.integers(0, 6)))
    start = dt.datetime.combine(max(start_day, ctx.schema.timeline.start), dt.time(7))
    asked = morning(when.date() + dt.timedelta(days=int(rng.integers(0, 4))), rng)
    if asked <= said_to:
        asked = said_to + dt.timedelta(minutes=1)
    ordinal = when.date().toordinal()
    numbers = numeric_options(ordinal, rng, None, None, spread=3)
    if numbers is None:
        return None
    options = [day_text(ctx, dt.date.fromordinal(x)) for x in numbers]
    question = ctx.choose(ctx.loc.history.temporal["date_of"], rng).format(who=ctx.who(entity))
    ref = ctx.ref(entity, attr)
    return _draft(
        ctx,
        "events",
        question,
        options,
        evidence=(ref,),
        transform="date_of",
        params={"entity": entity.id, "attribute": attr},
        answer_value=when.date().isoformat(),
        statements=(Statement(ref, iso(said_from), iso(said_to)),),
        span=(iso(start), iso(asked)),
    )
