"""Changes told explicitly ("Since my move on May 3, 2024, ...") by any message, not
only by the evidence of the questions that read value histories.

Whether a change is said explicitly must not mark a message as evidence: a filler or
hard-negative fact whose value changed before its message tells that change as often
as evidence does, in every kind of trajectory (a bag-of-words reader otherwise learns
that "since", "update" or "changed" means evidence).
"""

from __future__ import annotations

import datetime as dt

import numpy as np

from memsim.profile import Entity, Fact
from memsim.qa import QAContext
from memsim.verbalize import render_date

OTHERS_TOLD_AS_CHANGE = 1.0
"""Chance that a hard negative, filler or noise fact that changed before its message
tells the change explicitly. Above the evidence's own share (a half, or all of them for
"what was it on <day>?"): a history's evidence is several messages, each of which may
tell a change, where most other facts come up once."""


def changed_before(fact: Fact, when: dt.datetime) -> bool:
    """Whether the fact's value changed at or before ``when`` (a change to tell)."""
    return fact.last_change(when.isoformat(timespec="minutes")) is not None


def tells_change(
    role: str, facts: tuple[tuple[Entity, Fact], ...], when: dt.datetime, rng: np.random.Generator
) -> bool:
    """Whether a one-fact filler, hard-negative or noise message at ``when`` tells its
    change."""
    if role not in ("negative", "filler", "noise") or len(facts) != 1:
        return False
    if not changed_before(facts[0][1], when):
        return False
    return bool(rng.random() < OTHERS_TOLD_AS_CHANGE)


def change_text(
    ctx: QAContext, entity: Entity, fact: Fact, when: dt.datetime, rng: np.random.Generator
) -> str:
    """The change that brought the value in force at ``when``, said explicitly."""
    step = fact.last_change(when.isoformat(timespec="minutes"))
    assert step is not None and step.since is not None
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


__all__ = ["OTHERS_TOLD_AS_CHANGE", "change_text", "changed_before", "tells_change"]
