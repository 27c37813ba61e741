"""Helpers of the kinds that read value histories and the times things happen
(knowledge_update, temporal, abstention): which facts changed, when a question is
asked, options that hold the superseded values, and the locale's "never told"."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

import numpy as np

from memsim.profile import Entity, Fact
from memsim.qa._choices import normalise, pick_distinct
from memsim.qa._context import QAContext
from memsim.qa._types import FactRef, Hearsay, Statement
from memsim.verbalize import render_date

WAKING_START = dt.time(7)
LEAD_DAYS = (5, 25)
"""Days between the first message and the first change a question reads."""
ASK_DAYS = (2, 30)
"""Days between the last change a question reads and the question."""


def iso(when: dt.datetime) -> str:
    return when.isoformat(timespec="minutes")


def since(fact: Fact, k: int) -> dt.datetime:
    """When step k of the fact's history began (k >= 1)."""
    text = fact.history[k].since
    assert text is not None
    return dt.datetime.fromisoformat(text)


def changed(ctx: QAContext, group: Sequence[Entity]) -> list[tuple[Entity, str]]:
    """(entity, attribute) of the facts that change at least once."""
    return [
        (e, a)
        for e in group
        for a, f in e.facts.items()
        if len(f.history) > 1 and a not in ctx.naming(e)
    ]


def pick_changed(
    ctx: QAContext, found: Sequence[tuple[Entity, str]], rng: np.random.Generator
) -> tuple[Entity, str]:
    """One of the changed facts ``found`` (see :func:`changed`), each (kind, attribute)
    drawn in inverse proportion to how many evidence messages it would bring over the
    dataset (how often it changes, in the noise profiles, times the values it has):
    drawn uniformly, a weight that always changes (and three times) was evidence in a
    quarter of all evidence messages over histories, and its words alone ("lb",
    "weighed") picked the evidence out."""
    told = told_rates(ctx)
    weights = np.array([1 / told.get((e.kind, a), 1.0) for e, a in found])
    return found[int(rng.choice(len(found), p=weights / weights.sum()))]


def told_rates(ctx: QAContext) -> dict[tuple[str, str], float]:
    """(kind, attribute) -> values told per entity of the kind in the noise profiles
    (its history's length when it changes, none when it does not), at least 0.05."""

    def compute() -> dict[tuple[str, str], float]:
        told: dict[tuple[str, str], list[float]] = {}
        for life in ctx.noise_profiles:
            for e in life.entities:
                for a, f in e.facts.items():
                    told.setdefault((e.kind, a), []).append(
                        len(f.history) if len(f.history) > 1 else 0
                    )
        return {k: max(float(np.mean(v)), 0.05) for k, v in told.items()}

    return ctx.pool.remember(("history-told-rates",), compute)


def morning(day: dt.date, rng: np.random.Generator) -> dt.datetime:
    """A waking time on ``day`` (07:00-21:59)."""
    return dt.datetime.combine(day, WAKING_START) + dt.timedelta(minutes=int(rng.integers(15 * 60)))


def history_span(
    ctx: QAContext, fact: Fact, rng: np.random.Generator
) -> tuple[dt.datetime, dt.datetime]:
    """(first message, question time) around a fact's whole history: a few weeks of
    the first value before the first change, the question a few days to weeks after
    the last one."""
    start_day = since(fact, 1).date() - dt.timedelta(days=int(rng.integers(*LEAD_DAYS)))
    start = dt.datetime.combine(max(start_day, ctx.schema.timeline.start), WAKING_START)
    ask_day = since(fact, len(fact.history) - 1).date() + dt.timedelta(
        days=int(rng.integers(*ASK_DAYS))
    )
    return start, morning(ask_day, rng)


def statements(
    fact: FactRef,
    history_fact: Fact,
    span: tuple[dt.datetime, dt.datetime],
    told: Sequence[str],
    role: str = "evidence",
) -> tuple[Statement, ...]:
    """One statement per value of the history, inside the time it holds (and the
    span: a value that holds only outside it is not told); ``told[k]`` says how step
    k is told (step 0 is always plain)."""
    begin, asked = span
    n = len(history_fact.history)
    out = []
    for k in range(n):
        start = max(begin, since(history_fact, k)) if k else begin
        end = min(asked, since(history_fact, k + 1)) if k + 1 < n else asked
        if end - start >= dt.timedelta(hours=1):
            out.append(Statement(fact, iso(start), iso(end), told[k] if k else "plain", role))
    return tuple(out)


def negatives(
    ctx: QAContext,
    group: Sequence[Entity],
    entity: Entity,
    attr: str,
    span: tuple[dt.datetime, dt.datetime],
    p_change: float,
    rng: np.random.Generator,
) -> tuple[tuple[FactRef, ...], tuple[Statement, ...]]:
    """The hard negatives: the attribute of the other entities that changes too, its
    history told as the evidence's is (each change explicitly with chance
    ``p_change``), so the way a message is told does not mark the evidence (a value
    that never changes is told plainly, and may come up as filler)."""
    plain: list[FactRef] = []
    timed: list[Statement] = []
    for other in group:
        if other.id == entity.id or attr not in other.facts:
            continue
        fact = other.facts[attr]
        if len(fact.history) < 2:
            continue
        told = ["change" if rng.random() < p_change else "plain" for _ in fact.history]
        timed += statements(ctx.ref(other, attr), fact, span, told, "negative")
    return tuple(plain), tuple(timed)


def balanced_answer(
    ctx: QAContext, entity: Entity, attr: str, answer: object, rng: np.random.Generator
) -> bool:
    """Keep a question about a value in a history whose answer is a categorical
    ``answer`` with probability p_min / p(answer) over the attribute's values in the
    pool, so a value common in the prior is not the answer more often than its share (a
    tier drawn 0.4/0.3/0.2/0.1 was the answer "basic" 0.38 of the knowledge updates and
    0.59 of the "what was my tier on <day>?" questions: the commonest value is also the
    one a change leaves most often). The caller draws again (another attribute, form or
    change of the profile), so a profile whose only history holds the common value is
    still asked. Numbers are kept: their options have a uniform rank around them."""
    if ctx.attribute(entity, attr).type != "categorical":
        return True
    # a value the pool does not hold is kept, and so is a support of any size
    return ctx.pool.accept(entity.kind, attr, answer, rng, unknown=True, least=0)


def value_options(
    ctx: QAContext,
    entity: Entity,
    attr: str,
    answer: object,
    rng: np.random.Generator,
    keep: int = 3,
    rank: int | None = None,
) -> list[str] | None:
    """The answer, then up to ``keep`` distractors: the fact's other values in its
    history first (the superseded ones), then values of the attribute from the pool
    (integers: numbers near the answer, ``rank`` of them below it, or a drawn rank),
    all distinct after normalisation."""
    fact = entity.facts[attr]
    if ctx.attribute(entity, attr).type == "integer":
        return _number_options(ctx, entity, attr, int(str(answer)), rng, rank)
    shown = ctx.display(entity, attr, answer)
    past = [ctx.display(entity, attr, s.value) for s in fact.history if s.value != answer]
    past = list(dict.fromkeys(past))
    picked = pick_distinct(past, [shown], min(len(past), keep), rng) or []
    need = keep - len(picked)
    if need:
        taken = [shown, *picked]
        sample = ctx.pool.sample_support(entity.kind, attr, 12, rng)
        extra = [ctx.display(entity, attr, v) for v in sample]
        more = pick_distinct(extra, taken, need, rng)
        if more is None:
            return None
        picked += more
    options = [shown, *picked]
    return options if len({normalise(o) for o in options}) == len(options) else None


def unsaid_hearsay(
    ctx: QAContext, entity: Entity, attr: str, options: Sequence[str]
) -> tuple[Hearsay, ...]:
    """The distractors of a history question that its history does not say (values of
    the pool, numbers near the answer), said to be someone else's (``QAContext.hearsay``):
    the superseded values are told, so these are what would leave the answer and the old
    values the only options mentioned."""
    told = {normalise(ctx.display(entity, attr, s.value)) for s in entity.facts[attr].history}
    return ctx.hearsay(entity, attr, options, [o for o in options[1:] if normalise(o) in told])


def _number_options(
    ctx: QAContext,
    entity: Entity,
    attr: str,
    answer: int,
    rng: np.random.Generator,
    rank: int | None = None,
) -> list[str] | None:
    """The answer and three other numbers, the answer's rank among the four drawn
    uniformly first (as :func:`numeric_options` does) unless ``rank`` is given (dealt),
    the fact's other values in its history taking the places on their side first, the
    rest filled with numbers near the answer inside the attribute's bounds and the
    values the kind takes (:func:`_taken`); None when they leave no room.

    A rank whose side has no superseded value is kept all the same: redrawing it would
    leave the answer in the middle ranks twice as often as at the ends (one past value
    fits every middle rank but only one end), and "pick a middle number" would beat
    chance (a blind reader scored 0.35 on the daily-life user's temporal questions)."""
    a = ctx.attribute(entity, attr)
    low = a.min if a.min is not None else answer - 10**6
    high = a.max if a.max is not None else answer + 10**6
    past = sorted({int(str(s.value)) for s in entity.facts[attr].history} - {answer})
    # no filler outside the values the kind takes (in the noise profiles' histories,
    # and this one): a wage drawn from 14-28, raised to 31 at most, under bounds of
    # 12-40 had fillers of 12 or 36 beside an answer near the middle, and a blind
    # reader scored 0.576 (z 4.2) on farm's knowledge_update/roles at seed 2
    seen = _taken(ctx, entity.kind, attr)
    low = max(low, min(answer, *past, seen[0]))
    high = min(high, max(answer, *past, seen[1]))
    if rank is None:  # how many options fall below the answer (else dealt)
        rank = int(rng.integers(4))
    sides = []
    for side, need in (
        ([p for p in past if p < answer], rank),
        ([p for p in past if p > answer], 3 - rank),
    ):
        keep = [side[i] for i in sorted(rng.permutation(len(side))[:need])] if need else []
        sides.append(keep)
    options = [answer, *sides[0], *sides[1]]
    for sign, need in ((-1, rank - len(sides[0])), (1, 3 - rank - len(sides[1]))):
        free = [
            answer + sign * k
            for k in range(1, 9 * max(need, 1))
            if low <= answer + sign * k <= high and answer + sign * k not in options
        ]
        if len(free) < need:
            return None
        options += (
            [free[i] for i in rng.choice(len(free), size=need, replace=False)] if need else []
        )
    return [ctx.display(entity, attr, v) for v in options]


def _taken(ctx: QAContext, kind: str, attr: str) -> tuple[int, int]:
    """The least and the greatest value a number of the kind takes in the noise
    profiles' histories (every step, not only the first: a wage after its raises)."""

    def compute() -> tuple[int, int]:
        values = [
            int(str(v))
            for p in ctx.noise_profiles
            for e in p.entities
            if e.kind == kind and attr in e.facts
            for v in (e.facts[attr].value, *(step.value for step in e.facts[attr].history))
        ]
        return (min(values), max(values)) if values else (-(10**9), 10**9)

    return ctx.pool.remember(("history-range", kind, attr), compute)


def whose(ctx: QAContext, entity: Entity) -> str:
    forms = ctx.loc.self_forms if entity.scenario == "user" else ctx.loc.other_forms
    return forms.whose.format(who=ctx.who(entity))


def cause(ctx: QAContext, entity: Entity, attr: str) -> str:
    change = ctx.attribute(entity, attr).changes
    assert change is not None
    return change.said.get(ctx.loc.code, change.cause)


def day_text(ctx: QAContext, when: dt.datetime | dt.date) -> str:
    return render_date(when.date() if isinstance(when, dt.datetime) else when, ctx.loc)


def never_told(ctx: QAContext, entity: Entity, attr: str) -> str:
    """The "you never told me" option, naming what was not told."""
    return ctx.loc.history.never_told_answer.format(
        whose=whose(ctx, entity), label=ctx.label(entity, attr)
    )


__all__ = [
    "cause",
    "changed",
    "day_text",
    "history_span",
    "iso",
    "morning",
    "negatives",
    "never_told",
    "since",
    "statements",
    "value_options",
    "whose",
]
