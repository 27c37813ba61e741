"""Aggregative questions: how many entities of a scenario satisfy a predicate.

Guarantees: the count is computed from the profile; the predicate's boundary is
exact in the wording ("more than 40" excludes 40, "at least 40" includes it); every
entity the count ranges over has the attribute stated (all are evidence); the target
count is drawn uniformly from 0..n before a predicate realising it is searched for.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

import numpy as np

from memsim.profile import Entity, Profile
from memsim.qa._choices import numeric_options
from memsim.qa._context import QAContext
from memsim.qa._registry import qa_kind
from memsim.qa._types import Draft

OPS: dict[str, Callable[[Any, Any], Any]] = {
    "eq": operator.eq,
    "gt": operator.gt,
    "ge": operator.ge,
    "lt": operator.lt,
    "le": operator.le,
    "before": operator.lt,
    "after": operator.gt,
}


def count(
    ctx: QAContext,
    group: list[Entity],
    attr: str,
    op: str,
    threshold: object,
    keys: list[object] | None = None,
) -> int:
    """How many of the group satisfy ``attr op threshold`` (``keys``: the group's
    precomputed sort keys for ``attr``)."""
    if keys is None:
        keys = [ctx.sort_key(e, attr, e.facts[attr].value) for e in group]
    key = ctx.sort_key(group[0], attr, threshold)
    return sum(bool(OPS[op](k, key)) for k in keys)


def predicates(ctx: QAContext, group: list[Entity], attr: str) -> list[tuple[str, object]]:
    """Candidate (operator, threshold) pairs for an attribute of the group."""
    a = ctx.attribute(group[0], attr)
    if a.type == "categorical" and not a.ordered:
        return [("eq", v) for v in ctx.pool.distinct(group[0].kind, attr)]
    values = sorted(
        {e.facts[attr].value for e in group}, key=lambda v: ctx.sort_key(group[0], attr, v)
    )
    if a.type == "integer":
        points = sorted({int(v) + d for v in values for d in (-1, 0, 1)})
        return [(op, p) for p in points for op in ("gt", "ge", "lt", "le")]
    if a.type in ("month_day", "date"):
        return [(op, v) for v in values for op in ("before", "after")]
    if a.type == "categorical":  # ordered: compare by the declared order
        return [(op, v) for v in ctx.schema.values_of(a) for op in ("gt", "ge", "lt", "le", "eq")]
    return []


@qa_kind("aggregative", ("roles", "events"))
def aggregative(
    ctx: QAContext, profile: Profile, scenario: str, rng: np.random.Generator
) -> Draft | None:
    group = ctx.group(profile, scenario)
    if len(group) < 2:
        return None
    target = int(rng.integers(len(group) + 1))
    numbers = numeric_options(target, rng, 0, len(group))
    if numbers is None:  # the drawn rank does not fit this count: draw again
        return None
    shared = [
        a for a in ctx.askable(group[0]) if all(a in e.facts and a in ctx.askable(e) for e in group)
    ]
    shared = [
        a for a in shared if ctx.attribute(group[0], a).type != "text" and ctx.comparable(group, a)
    ]
    found = []
    for attr in shared:
        keys = [ctx.sort_key(e, attr, e.facts[attr].value) for e in group]
        found += [
            (attr, op, t)
            for op, t in predicates(ctx, group, attr)
            if count(ctx, group, attr, op, t, keys) == target
        ]
    if not found:
        return None
    attr, op, threshold = found[int(rng.integers(len(found)))]
    shown = ctx.display(group[0], attr, threshold)
    predicate = ctx.loc.questions.predicate(op, attr).format(value=shown)
    question = ctx.wording("aggregative", scenario, rng).format(
        group=ctx.group_label(group, plural=True),
        label=ctx.label(group[0], attr),
        predicate=predicate,
    )
    options = [str(n) for n in numbers]
    return Draft(
        kind="aggregative",
        scenario=scenario,
        question=question,
        answer=options[0],
        options=tuple(options),
        evidence=tuple(ctx.ref(e, attr) for e in group),
        transform="count",
        params={
            "entities": [e.id for e in group],
            "attribute": attr,
            "op": op,
            "threshold": threshold,
        },
        answer_value=target,
    )
