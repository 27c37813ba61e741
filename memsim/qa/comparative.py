"""Comparative questions: two entities compared on an ordered attribute.

Guarantees: the outcome is computed from the profile (categorical values compare by
their declared order, dates by the calendar); the four options are the first entity,
the second, "the same" and "you never told me both", so every option can be right,
and the target outcome is drawn uniformly before a pair that realises it is searched
for, drawing pairs again until one is kept, so each outcome is the answer about a
quarter of the time (the audit's ``outcome_shares`` measures it); "first" and "second"
are kept in proportion to how unlikely they are given who the question names (the
pool's distribution), so the names do not tell which is higher.
For "never told", the second entity's fact is withheld: it appears in no message.
"""

from __future__ import annotations

import itertools

import numpy as np

from memsim.profile import Entity, Profile
from memsim.qa._context import QAContext, others
from memsim.qa._registry import qa_kind
from memsim.qa._types import Draft

OUTCOMES = ("first", "second", "same", "unknown")
DRAWS = 64
"""Draws of a (pair, attribute) for the wanted outcome before giving it up."""


def compare(ctx: QAContext, a: Entity, b: Entity, attr: str) -> str:
    """'first' if a's value is higher (later), 'second' if b's is, else 'same'."""
    x = ctx.sort_key(a, attr, a.facts[attr].value)
    y = ctx.sort_key(b, attr, b.facts[attr].value)
    return "first" if x > y else "second" if y > x else "same"


def order_share(ctx: QAContext, a: Entity, b: Entity, attr: str) -> tuple[float, float] | None:
    """(P(first higher), P(second higher)) for entities named like a and b, in the pool."""
    members = []
    for e in (a, b):
        given = ctx.revealed(e, ctx.naming(e), attr)
        if given is None:
            return None
        members.append((e.kind, given, attr))
    key = ("order-share", tuple(members))
    if key not in ctx.pool.memo:
        pairs = ctx.pool.joint(members)
        share = None
        if pairs is not None:
            keys = [(ctx.sort_key(a, attr, x), ctx.sort_key(b, attr, y)) for x, y in pairs]
            share = (
                sum(x > y for x, y in keys) / len(keys),
                sum(y > x for x, y in keys) / len(keys),
            )
        ctx.pool.memo[key] = share
    return ctx.pool.memo[key]  # type: ignore[no-any-return]


def _balanced(
    ctx: QAContext, a: Entity, b: Entity, attr: str, wanted: str, rng: np.random.Generator
) -> bool:
    """Keep a "first" / "second" outcome with probability min(P1, P2) / P(wanted), the
    probabilities given who the question names: which of the two is higher is then a coin
    flip given the question ("my grandmother or my younger sister: who is older?" is
    asked only as often as its rare reverse)."""
    share = order_share(ctx, a, b, attr)
    if share is None or min(share) == 0:
        return False
    return bool(rng.random() < min(share) / share[0 if wanted == "first" else 1])


@qa_kind("comparative", ("roles", "events", "user"))
def comparative(
    ctx: QAContext, profile: Profile, scenario: str, rng: np.random.Generator
) -> Draft | None:
    # about the user: the user against one of the people of their life, named second
    group = ctx.with_user(profile) if scenario == "user" else ctx.group(profile, scenario)
    if len(group) < 2:
        return None
    wanted = OUTCOMES[int(rng.integers(len(OUTCOMES)))]
    candidates = [
        (a, b, attr)
        for a, b in itertools.permutations(group, 2)
        for attr in ctx.askable(a, "comparative")
        if attr in b.facts
        and ctx.pooled(a, b)
        and ctx.ordered(a, attr)
        and ctx.comparable((a, b), attr)
        and attr in ctx.askable(b)
        and (wanted == "unknown" or compare(ctx, a, b, attr) == wanted)
        and (scenario != "user" or (b.scenario == "user" and a.scenario != "user"))
    ]
    if not candidates:
        return None
    # draw again (with replacement) until the balancing keeps one: returning None here
    # would let the caller draw another outcome, and the outcomes that balancing rejects
    # most ("first", "second") would end up rarer than "same" and "never told"
    for _ in range(DRAWS):
        a, b, attr = candidates[int(rng.integers(len(candidates)))]
        if wanted not in ("first", "second") or _balanced(ctx, a, b, attr, wanted, rng):
            break
    else:
        return None
    words = ctx.loc.questions.comparative_options
    kind = ctx.attribute(a, attr).type
    key = "later" if kind in ("month_day", "date", "datetime") else "higher"
    more = ctx.more(a, attr, key)
    who_a, who_b = ctx.who(a), ctx.who(b)
    question = ctx.wording("comparative", scenario, rng).format(
        a=who_a, b=who_b, label=ctx.label(a, attr), more=more
    )
    text = {
        "first": ctx.cap(who_a),
        "second": ctx.cap(who_b),
        "same": words["same"],
        "unknown": words["unknown"],
    }
    options = [text[wanted], *(text[o] for o in OUTCOMES if o != wanted)]
    withheld = (ctx.ref(b, attr),) if wanted == "unknown" else ()
    evidence = (ctx.ref(a, attr),) if wanted == "unknown" else (ctx.ref(a, attr), ctx.ref(b, attr))
    return Draft(
        kind="comparative",
        scenario=scenario,
        question=question,
        answer=options[0],
        options=tuple(options),
        evidence=evidence,
        negatives=tuple(
            ctx.ref(e, attr) for e in others(group, a) if e.id != b.id and attr in e.facts
        ),
        withheld=withheld,
        transform="compare",
        params={"first": a.id, "second": b.id, "attribute": attr, "outcome": wanted},
        answer_value=wanted,
    )
