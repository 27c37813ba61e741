"""Keep weights of comparative questions: the chance a draw of a (pair, attribute) for
an outcome is kept, given who the question names and what it compares, so that every
outcome is asked as often (:mod:`memsim.qa.comparative` draws with them; what a
profile's draws end on, :func:`outcome_chances`)."""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

import numpy as np

from memsim.profile import Entity
from memsim.qa._context import QAContext
from memsim.qa._margin import comparison_margin
from memsim.schema import within_margin

OUTCOMES = ("first", "second", "same", "unknown")
EVEN = (1.0, 1.0, 1.0, 1.0)
"""Outcome weights that change nothing (:func:`outcome_weights`)."""
SLACK = 1.5
"""How far above its expected sum a profile's kept weights may come before they are
normalised by their own sum (:func:`_kept`): the larger, the more of each question's
outcome is dealt evenly rather than drawn with its weights (1 left zh comparative/events
"the same" 0.275 in expectation over make dataset's profiles, 1.5 gives 0.255, 2 moved
comparative/user away from even)."""


def margin(ctx: QAContext, a: Entity, b: Entity, attr: str) -> int:
    """The difference that counts as "the same" when a and b are compared on ``attr``
    (0: only equal values; see :mod:`memsim.qa._margin`)."""
    kind = ctx.attribute(a, attr).type
    return comparison_margin(ctx.pool, a, b, attr, kind, ctx.sort_keys(a, attr))


def compare(ctx: QAContext, a: Entity, b: Entity, attr: str, step: int = 0) -> str:
    """'first' if a's value is higher (later), 'second' if b's is, else 'same' (equal,
    or within the stated margin ``step``)."""
    x, y = a.facts[attr].value, b.facts[attr].value
    if step and within_margin(ctx.attribute(a, attr).type, x, y, step):
        return "same"
    kx, ky = ctx.sort_key(a, attr, x), ctx.sort_key(b, attr, y)
    return "first" if kx > ky else "second" if ky > kx else "same"


def order_share(
    ctx: QAContext, a: Entity, b: Entity, attr: str, step: int = 0
) -> tuple[float, float, float] | None:
    """(P(first higher), P(second higher), P(the same)) for entities named like a and b,
    in the pool ("the same": within the margin ``step``, if any). Remembered on ``a``
    per (``b``, attr, step): a draw asks it of every candidate pair for every outcome."""
    key = ("order-share", id(b), attr, step)
    hit = a.memo.get(key)
    if hit is not None and hit[0] is ctx.pool and hit[1] is b:
        return hit[2]  # type: ignore[no-any-return]
    found = _order_share(ctx, a, b, attr, step)
    a.memo[key] = (ctx.pool, b, found)  # b kept: its id is not reused while held
    return found


def _order_share(
    ctx: QAContext, a: Entity, b: Entity, attr: str, step: int
) -> tuple[float, float, float] | None:
    members = []
    for e in (a, b):
        given = ctx.revealed(e, ctx.naming(e), attr)
        if given is None:
            return None
        members.append((e.kind, given, attr))

    def compute() -> tuple[float, float, float] | None:
        pairs = ctx.pool.joint(members)
        if pairs is None:
            return None
        key_a, key_b = ctx.sort_keys(a, attr), ctx.sort_keys(b, attr)
        kind, total = ctx.attribute(a, attr).type, len(pairs)
        if step:
            pairs = [(x, y) for x, y in pairs if not within_margin(kind, x, y, step)]
        xs, ys = _keyed(key_a, [x for x, _ in pairs]), _keyed(key_b, [y for _, y in pairs])
        first = sum(map(operator.gt, xs, ys)) / total
        second = sum(map(operator.gt, ys, xs)) / total
        return (first, second, max(0.0, 1 - first - second))

    return ctx.pool.remember(("order-share", tuple(members), step), compute)


def _keyed(key: Callable[[object], Any], values: list[object]) -> list[Any]:
    """``[key(v) for v in values]``, with ``key`` called once per distinct value (a
    pool's thousands of values hold a few dozen)."""
    found = {v: key(v) for v in dict.fromkeys(values)}
    return [found[v] for v in values]


def _balanced(
    ctx: QAContext,
    a: Entity,
    b: Entity,
    attr: str,
    wanted: str,
    rng: np.random.Generator,
    floor: float = 0.0,
    step: int = 0,
    weight: float = 1.0,
) -> bool:
    """Keep a draw of a pair that realises ``wanted`` with the chance :func:`_keep` says,
    times the outcome's ``weight`` (:func:`outcome_weights`)."""
    chance = _keep(ctx, a, b, attr, wanted, floor, step) * weight
    return chance > 0 and bool(rng.random() < chance)


def _keep(
    ctx: QAContext,
    a: Entity,
    b: Entity,
    attr: str,
    wanted: str,
    floor: float = 0.0,
    step: int = 0,
) -> float:
    """Keep a draw whose outcome is ``wanted`` with probability m / P(wanted), m the
    least of P(first), P(second) and P(same) given who the question names and what it
    compares, and an "unknown" one with probability m (over the pairs that do not tie,
    whose withheld value no message says): every outcome is then kept
    equally often for every such question ("my grandmother or my younger sister: who
    is older?" is asked only as often as its rare reverse; "who has more education?",
    where ties are common, says "the same" no more often than heights that rarely tie)."""
    share = order_share(ctx, a, b, attr, step)
    if share is None or min(share) <= 0 or min(share) < floor:
        return 0.0
    least = min(share)
    if wanted == "unknown" and step:
        # within a margin, the pair's own outcome o is kept with m / P(o) above, and
        # "unknown" with 4m - m / P(o) (scaled so that it sums to m over the pair's
        # outcomes, which it does unscaled only when none is under a quarter): every
        # pair is then kept 4m in all, whatever its
        # outcome, so a profile's draws end on each outcome a quarter of the time on
        # average (kept with m over the pairs that differ, as below, "unknown" lost to
        # the outcome a profile's pairs give: within a margin of a third each, "the
        # same" came out 0.30 and "unknown" 0.21). Equal values are never asked as
        # "unknown" when the second entity is named (see _says_first).
        if a.facts[attr].value == b.facts[attr].value and _says_first(ctx, b):
            return 0.0
        own = share[OUTCOMES.index(compare(ctx, a, b, attr, step))]
        return unknown_keep(share, own)
    if wanted == "unknown" and not _says_first(ctx, b):
        # every pair, tied or not, can be asked as "unknown": kept with m, as often as
        # each other outcome. Keeping ties out (as below) left a profile whose people
        # all tie with the user only "the same" to ask: zh comparative/user read
        # "the same" 0.29 and "never told" 0.24 in expectation over make dataset's
        # profiles, 0.26 and 0.26 with this.
        return least
    if wanted == "unknown":
        # a tie is never asked as "unknown": the first entity's message would say the
        # withheld value (and the draw be redone), so the others make up for it
        tie = compare(ctx, a, b, attr, step) == "same"
        return 0.0 if tie else least / (1 - share[2])
    return least / share[OUTCOMES.index(wanted)]


def _says_first(ctx: QAContext, b: Entity) -> bool:
    """Whether a message saying the first entity's value would say the second's too,
    were they equal: so when ``b`` is named ("my sister", a place by its name), since
    any message may name it. The user ("I") is named by no value, and a message about
    someone else does not say the user's withheld value ("my father has a master's
    degree"; generation's _says_withheld and the audit read it so)."""
    return bool(ctx.naming(b))


def _kept(
    ctx: QAContext,
    candidates: list[tuple[Entity, Entity, str]],
    steps: list[int],
    floor: float,
    weights: tuple[float, ...] = EVEN,
) -> tuple[dict[str, float], float]:
    """K(o) for each outcome (times its weight, :func:`outcome_weights`), and the
    shortfall L = 1 - S / Z, Z = max(S, SLACK E[S]) with E[S] the sum K is expected to
    come to over the pool (:func:`_expected_kept`, times the mean weight), or Z = S when
    some outcome cannot be realised (L = 0).

    Why: the draws end on o with chance K(o) / S, and E[K(o)] is the same for every
    outcome, but E[K(o) / S] is not: a pair that ties keeps more or less than one that
    does not (m / P(same) against m / P(first) + m / (1 - P(same)), and no weighting
    evens them when ties are common), so in a profile where many pairs tie (events that
    all share a scale) S grows with K(same). Normalised by the expected sum instead, each
    K(o) / Z keeps its even expectation; the shortfall is dealt evenly."""
    pairs = list(zip(candidates, steps, strict=True))
    outcomes = [compare(ctx, a, b, attr, step) for (a, b, attr), step in pairs]  # once each
    kept = {
        o: w
        * sum(
            _keep(ctx, a, b, attr, o, floor, step)
            for ((a, b, attr), step), out in zip(pairs, outcomes, strict=True)
            if o == "unknown" or out == o
        )
        for o, w in zip(OUTCOMES, weights, strict=True)
    }
    total = sum(kept.values())
    if min(kept.values()) <= 0:
        return kept, 0.0
    expected = _expected_sum(ctx, candidates, steps, floor) * sum(weights) / len(weights)
    return kept, max(0.0, 1 - total / max(total, SLACK * expected))


def _expected_sum(
    ctx: QAContext, candidates: list[tuple[Entity, Entity, str]], steps: list[int], floor: float
) -> float:
    return sum(
        _expected_kept(ctx, a, b, attr, floor, step)
        for (a, b, attr), step in zip(candidates, steps, strict=True)
    )


def _expected_kept(
    ctx: QAContext, a: Entity, b: Entity, attr: str, floor: float, step: int
) -> float:
    """What :func:`_keep` sums to over the four outcomes of a pair named like a and b,
    in expectation over the pool: m for each outcome it keeps, "unknown" within a
    margin too (its weights are scaled to m: :func:`_unknown_mass`)."""
    share = order_share(ctx, a, b, attr, step)
    if share is None or min(share) <= 0 or min(share) < floor:
        return 0.0
    return 4 * min(share)


def unknown_keep(share: tuple[float, float, float], own: float) -> float:
    """The chance a draw of "unknown" is kept within a margin, for a pair whose own
    outcome has the chance ``own`` among ``share``: 4m - m / own, clipped at 0, scaled
    so that it sums to m over the pair's outcomes (:func:`_unknown_mass`)."""
    least = min(share)
    return max(0.0, 4 * least - least / own) * least / _unknown_mass(share)


def _unknown_mass(share: tuple[float, float, float]) -> float:
    """What "unknown" is kept with over a pair's own outcomes, before it is scaled to m:
    sum of P(o) max(0, 4m - m / P(o)). It is m only when every outcome has a chance of
    a quarter or more; else the clipped terms add up to more (a held-out landlord, 50
    years old or so, against tenants of 35 within a margin of 3 years: P = 0.09, 0.74,
    0.17 gives 0.18, twice m, and "I never told you both" answered 0.50-0.65 of the
    questions about the user). Divided by it, "unknown" is kept m in all, as each
    other outcome is, and a pair's outcomes keep the proportions the weights give."""
    least = min(share)
    return max(least, sum(p * max(0.0, 4 * least - least / p) for p in share))


def outcome_chances(
    ctx: QAContext,
    candidates: list[tuple[Entity, Entity, str]],
    steps: list[int],
    floor: float,
    weights: tuple[float, ...] = EVEN,
) -> dict[str, float]:
    """Each outcome's chance for a profile with these candidates: K(o) / Z + L / 4
    (:func:`_kept`); what every profile's question comes out as, on average."""
    kept, short = _kept(ctx, candidates, steps, floor, weights)
    total = sum(kept.values())
    if total <= 0:
        return dict.fromkeys(OUTCOMES, 0.0)
    return {o: short / len(OUTCOMES) + (1 - short) * kept[o] / total for o in OUTCOMES}
