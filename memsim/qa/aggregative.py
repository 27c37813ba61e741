"""Aggregative questions: how many entities of a scenario satisfy a predicate.

Guarantees: the count is computed from the profile; the predicate's boundary is
exact in the wording ("more than 40" excludes 40, "at least 40" includes it); every
entity the count ranges over has the attribute stated (all are evidence); predicates
are those under which at least four counts are possible, with thresholds that do not
depend on the profile. The count is dealt first, in shares solved over the pool so
that counts come out uniform even though each profile is asked once (a profile that
cannot give the dealt count gives one it can), then a predicate that gives it for this
profile is drawn by strengths fitted over the pool so that the count asked is as often
its predicate's likeliest count as any other (the option prior picks the likeliest), so
the predicate says little about the answer (memsim.qa._counts).
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np
from numpy.typing import NDArray

from memsim.profile import Entity, Profile
from memsim.qa._choices import numeric_options, rank_room
from memsim.qa._context import QAContext
from memsim.qa._counts import (
    deal,
    deal_top,
    dealt_plan,
    share_ranks,
    strength_table,
)
from memsim.qa._pool import MIN_COUNT_SHARE, day_key
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
    """Candidate (operator, threshold) pairs for an attribute of the group, the same for
    every profile (thresholds come from the pool, never from the group's own values, so
    a threshold says nothing about the group)."""
    a = ctx.attribute(group[0], attr)
    if a.type == "categorical" and not a.ordered:
        return [("eq", v) for v in ctx.pool.distinct(group[0].kind, attr)]
    if a.type == "categorical":  # ordered: compare by the declared order
        return [(op, v) for v in ctx.schema.values_of(a) for op in ("gt", "ge", "lt", "le", "eq")]
    if a.type == "integer":
        seen = {int(str(v)) for e in group for v in ctx.pool.distinct(e.kind, attr)}
        return [(op, p) for p in sorted(seen) for op in ("gt", "ge", "lt", "le")]
    if a.type == "month_day":
        days = [f"{m:02d}-{d:02d}" for m in range(1, 13) for d in (1, 15)]
        return [(op, v) for v in days for op in ("before", "after")]
    return []


def _keys(ctx: QAContext, entity: Entity, attr: str) -> Callable[[object], float]:
    a = ctx.attribute(entity, attr)
    if a.type == "categorical":
        order = {v: float(i) for i, v in enumerate(ctx.schema.values_of(a))}
        return lambda v: order[str(v)]
    if a.type == "integer":
        return lambda v: float(str(v))
    return day_key


def eligible(
    ctx: QAContext, group: list[Entity], attr: str
) -> list[tuple[str, object, NDArray[np.float64]]]:
    """The predicates on ``attr`` under which at least four counts are possible (a pool
    share of MIN_COUNT_SHARE or more), with the pool's count distribution, impossible
    counts set to 0 (computed once per pool and group shape)."""
    slots = tuple((e.kind, e.index) for e in group)

    def compute() -> list[tuple[str, object, NDArray[np.float64]]]:
        key = _keys(ctx, group[0], attr)
        keys = ctx.pool.group_column(slots, attr, key)
        found = []
        if keys is not None:
            for op, threshold in predicates(ctx, group, attr):
                share = ctx.pool.count_distribution(keys, op, key(threshold))
                share[share < MIN_COUNT_SHARE] = 0.0
                if (share > 0).sum() >= 4:
                    found.append((op, threshold, share))
        return found

    return list(ctx.pool.remember(("aggregative", slots, attr), compute))


def _acceptance(share: NDArray[np.float64]) -> float:
    weight = kept_weight(share)
    return float(weight[weight > 0].min() * (weight > 0).sum())


def _candidates(
    ctx: QAContext, group: list[Entity], attrs: tuple[str, ...]
) -> tuple[list[tuple[str, str, object, NDArray[np.float64]]], NDArray[np.float64]]:
    """Every eligible predicate on the attributes, and the probability of drawing each:
    proportional to its acceptance rate (#possible counts x the rarest one's share)."""

    def compute() -> tuple[list[tuple[str, str, object, NDArray[np.float64]]], NDArray[np.float64]]:
        found = [
            (attr, op, t, share) for attr in attrs for op, t, share in eligible(ctx, group, attr)
        ]
        weights = np.array([_acceptance(share) for *_, share in found])
        return found, weights / weights.sum() if found else weights

    key = ("aggregative-candidates", tuple((e.kind, e.index) for e in group), attrs)
    return ctx.pool.remember(key, compute)


def _same_four(
    ctx: QAContext,
    group: list[Entity],
    attrs: tuple[str, ...],
    found: list[tuple[str, str, object, NDArray[np.float64]]],
) -> bool:
    """Whether every predicate allows the same four counts: memoised beside
    :func:`_candidates` (whose key decides ``found``), as it was measured at 15% of
    generating a dataset when asked again for every question."""
    key = ("aggregative-same-four", tuple((e.kind, e.index) for e in group), attrs)
    return ctx.pool.remember(
        key,
        lambda: (
            len({tuple(np.flatnonzero(share > 0)) for *_, share in found}) == 1
            and all((share > 0).sum() == 4 for *_, share in found)
        ),
    )


Plan = tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.bool_], float]
"""The shares each count is dealt with, the strength (candidate x count) each predicate is drawn
with, whether each count is the predicate's likeliest by pool share (candidate x count),
and the share of trajectories dealt "the likeliest" (memsim.qa._counts.top_share)."""


def _dealt(
    ctx: QAContext,
    group: list[Entity],
    attrs: tuple[str, ...],
    found: list[tuple[str, str, object, NDArray[np.float64]]],
    weights: NDArray[np.float64],
) -> Plan:
    """How counts and predicates are dealt for this group shape (:data:`Plan`),
    computed once."""
    slots = tuple((e.kind, e.index) for e in group)

    def compute() -> Plan:
        key_of = {a: _keys(ctx, group[0], a) for a in attrs}
        columns = {a: ctx.pool.group_column(slots, a, key_of[a]) for a in attrs}
        pool_keys = {a: c for a, c in columns.items() if c is not None}
        usable = [i for i, (a, *_) in enumerate(found) if a in pool_keys]
        kept = [kept_weight(share) for *_, share in found]
        table = strength_table(weights, kept, len(group))
        shares, fitted, top = dealt_plan(
            pool_keys,
            [found[i] for i in usable],
            weights[usable],
            [kept[i] for i in usable],
            key_of,
            len(group),
        )
        table[usable] = fitted
        likeliest = share_ranks(table, [share for *_, share in found]) == 0
        return shares, table, likeliest, top

    return ctx.pool.remember(("aggregative-deal", slots, attrs), compute)


def _counts(
    ctx: QAContext,
    group: list[Entity],
    attrs: tuple[str, ...],
    found: list[tuple[str, str, object, NDArray[np.float64]]],
) -> NDArray[np.int_]:
    """Each candidate's count for this group, as :func:`count` gives it, one comparison
    per (attribute, operator) over all its thresholds (a workshop's prices have
    thousands: a call per candidate was most of generating its dataset)."""

    def compute() -> list[tuple[str, str, NDArray[np.int_], NDArray[np.object_]]]:
        by: dict[tuple[str, str], list[int]] = {}
        for i, (attr, op, _, _) in enumerate(found):
            by.setdefault((attr, op), []).append(i)
        return [
            (
                attr,
                op,
                np.array(at),
                _objects(ctx.sort_key(group[0], attr, found[i][2]) for i in at),
            )
            for (attr, op), at in by.items()
        ]

    memo_key = ("aggregative-thresholds", tuple((e.kind, e.index) for e in group), attrs)
    out = np.zeros(len(found), dtype=np.int_)
    own: dict[str, NDArray[np.object_]] = {}
    for attr, op, at, thresholds in ctx.pool.remember(memo_key, compute):
        if attr not in own:
            own[attr] = _objects(ctx.sort_key(e, attr, e.facts[attr].value) for e in group)
        hits = OPS[op](own[attr][None, :], thresholds[:, None])
        out[at] = np.asarray(hits, dtype=bool).sum(axis=1)
    return out


def _objects(values: Iterable[object]) -> NDArray[np.object_]:
    """A 1-d object array (elementwise comparisons as Python's, whatever the values)."""
    items = list(values)
    out = np.empty(len(items), dtype=object)
    out[:] = items
    return out


def _dealt_draw(
    ctx: QAContext,
    group: list[Entity],
    shared: list[str],
    found: list[tuple[str, str, object, NDArray[np.float64]]],
    weights: NDArray[np.float64],
    rng: np.random.Generator,
) -> tuple[str, str, object, NDArray[np.float64], int]:
    """Deal the count, then draw a predicate among those that give it for this profile
    (a count the profile cannot give falls back to one it can; every count the profile
    gives is allowed by every predicate, so there is one), by the fitted strengths,
    among those under which it is (or is not) the likeliest count, as dealt
    (:func:`memsim.qa._counts.deal_top`; the other ones when none is)."""
    counts = _counts(ctx, group, tuple(shared), found)
    shares, table, likeliest, top = _dealt(ctx, group, tuple(shared), found, weights)
    at = np.arange(len(found))
    strength = table[at, counts]
    able = [int(c) for c in np.unique(counts[strength > 0])]
    target = deal(shares, rng)
    if target not in able:
        target = able[int(rng.integers(len(able)))]
    chance = np.where(counts == target, strength, 0.0)
    dealt = np.where(likeliest[at, counts] == deal_top(top, rng), chance, 0.0)
    if dealt.sum() > 0:
        chance = dealt
    attr, op, threshold, share = found[int(rng.choice(len(found), p=chance / chance.sum()))]
    return attr, op, threshold, share, target


def kept_weight(share: NDArray[np.float64]) -> NDArray[np.float64]:
    """How often each count is drawn and survives :func:`count_options` (its pool share,
    times the share of ranks that fit it when options are spread around it)."""
    possible = share > 0
    if possible.sum() == 4:
        return share.copy()  # the options are the four possible counts: every rank fits
    high = len(share) - 1
    return np.array([p * rank_room(c, 0, high) for c, p in enumerate(share)])


def count_options(
    target: int, share: NDArray[np.float64], rng: np.random.Generator
) -> list[int] | None:
    """The answer and three other counts, all possible under the predicate: the four
    possible ones when there are four (the answer, uniform over them, has a uniform
    rank), else spread around the answer with a uniform rank (numeric_options)."""
    possible = [int(c) for c in np.flatnonzero(share > 0)]
    if len(possible) == 4:
        return [target, *(c for c in possible if c != target)]
    numbers = numeric_options(target, rng, 0, len(share) - 1)
    if numbers is None or any(share[n] == 0 for n in numbers):
        return None  # the drawn rank does not fit this count: draw again
    return numbers


@qa_kind("aggregative", ("roles", "events", "user", "items", "places"))
def aggregative(
    ctx: QAContext, profile: Profile, scenario: str, rng: np.random.Generator
) -> Draft | None:
    # about the user: "how many of us" (the user and the people of their life, of the
    # user's pool: a domain's outside collaborators are not counted beside its labmates)
    if scenario == "user":
        user = ctx.group(profile, "user")
        group = [e for e in ctx.with_user(profile) if user and ctx.pooled(e, user[0])]
    else:
        pools = ctx.pools(ctx.group(profile, scenario))
        pick = int(rng.integers(len(pools))) if len(pools) > 1 else 0
        group = pools[pick] if pools else []
    if len(group) < 2:
        return None
    askable = [frozenset(ctx.askable(e, "aggregative")) for e in group]  # once per entity
    shared = [
        a
        for a in ctx.askable(group[0], "aggregative")
        if all(a in e.facts and a in ok for e, ok in zip(group, askable, strict=True))
    ]
    shared = [
        a for a in shared if ctx.attribute(group[0], a).type != "text" and ctx.comparable(group, a)
    ]
    found, weights = _candidates(ctx, group, tuple(shared))
    if not found:
        return None
    if _same_four(ctx, group, tuple(shared), found):
        # every predicate allows the same four counts, which are then the options (three
        # entities: 0-3), so dealing the count and drawing a predicate that gives it
        # tells nothing through the options
        # (memsim.qa._counts: the profile is fixed, so keeping draws by their pool share
        # alone left '1' and '2' the answer of most questions)
        attr, op, threshold, share, target = _dealt_draw(ctx, group, shared, found, weights, rng)
    else:
        # larger groups: a predicate's options are the counts it allows, so which count
        # is asked must not depend on the predicate: keep draws by the pool share
        attr, op, threshold, share = found[int(rng.choice(len(found), p=weights))]
        target = count(ctx, group, attr, op, threshold)
        # keep with probability min / P(target): the count is then uniform over the
        # possible counts given the predicate (an impossible one is never the answer)
        weight = kept_weight(share)
        if weight[target] == 0 or rng.random() >= weight[weight > 0].min() / weight[target]:
            return None
    numbers = count_options(target, share, rng)
    if numbers is None:
        return None
    shown = ctx.display(group[0], attr, threshold)
    predicate = ctx.predicate(group[0], attr, op).format(value=shown)
    question = ctx.wording("aggregative", scenario, rng, group[0]).format(
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
