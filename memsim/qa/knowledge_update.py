"""Knowledge-update questions: a value that changed, once or more, during the timeline.

Two forms, drawn with equal chance:
- ``now``: "what is my work city now?" The answer is the value in force when the
  question is asked (after the last change).
- ``before``: "what was my work city before my move on May 3, 2024?" The answer is the
  value just before that change.

Guarantees: the answer is computed from the fact's history in the profile; every value
of the history is told once, in a message sent while it holds, so the trajectory
tells the whole history in order and each message says the value in force at its time;
each change is told explicitly ("since my move on May 3, ...") or implicitly (the new
value is simply used), at random, and the change a ``before`` question names is told
explicitly (its day is in the message); the superseded values are distractors first,
then other values of the attribute (numbers near the answer), all distinct after
normalisation, and those the history does not say are said to be someone else's
(:mod:`memsim.trajectory._hearsay`), so every option is mentioned; the attribute asked
is dealt (else drawn) so that each is evidence in about as many messages over the
dataset, and a categorical answer's value or a number's rank among its options is
dealt per attribute, so each comes up in even shares in every kind and scenario, not
only in expectation (:mod:`memsim.qa._deal_change`; a trajectory that cannot realise
its card draws as before, :func:`memsim.qa._history.pick_changed`); the question is
asked after the last change.
"""

from __future__ import annotations

import numpy as np

from memsim.profile import Profile
from memsim.qa._context import QAContext
from memsim.qa._deal_change import deal_change
from memsim.qa._history import (
    balanced_answer,
    cause,
    changed,
    day_text,
    history_span,
    iso,
    negatives,
    pick_changed,
    since,
    statements,
    unsaid_hearsay,
    value_options,
    whose,
)
from memsim.qa._registry import qa_kind
from memsim.qa._types import Draft

EXPLICIT = 0.5
"""Chance that a change is told explicitly (else the new value is simply used)."""


@qa_kind("knowledge_update", ("user", "roles", "items", "places", "events"), hybrid=False)
def knowledge_update(
    ctx: QAContext, profile: Profile, scenario: str, rng: np.random.Generator
) -> Draft | None:
    group = ctx.group(profile, scenario)
    dealt = deal_change(ctx, group, scenario, rng)
    if dealt is not None:
        entity, attr, form, k = dealt.entity, dealt.attr, dealt.form, dealt.change
    else:
        found = changed(ctx, group)
        if not found:
            return None
        entity, attr = pick_changed(ctx, found, rng)
        form = "now" if rng.random() < 0.5 else "before"
        k = int(rng.integers(1, len(entity.facts[attr].history)))  # a "before" names it
    fact = entity.facts[attr]
    n = len(fact.history)
    told = ["change" if rng.random() < EXPLICIT else "plain" for _ in range(n)]
    if form == "before":
        told[k] = "change"
    span = history_span(ctx, fact, rng)
    answer = fact.history[-1].value if form == "now" else fact.history[k - 1].value
    if dealt is None and not balanced_answer(ctx, entity, attr, answer, rng):
        return None
    options = value_options(
        ctx, entity, attr, answer, rng, rank=None if dealt is None else dealt.rank
    )
    if options is None:
        return None
    template = ctx.loc.questions.asked(
        ctx.choose(ctx.loc.history.knowledge_update[form], rng), ctx.attribute(entity, attr).type
    )
    question = template.format(
        whose=whose(ctx, entity),
        label=ctx.label(entity, attr),
        cause=cause(ctx, entity, attr),
        date=day_text(ctx, since(fact, k)),
    )
    ref = ctx.ref(entity, attr)
    # the hard negatives tell their changes explicitly as often as this history does
    # (a "before" question's change is always told): the telling marks no role
    explicit = told[1:].count("change") / (n - 1)
    plain, timed = negatives(ctx, group, entity, attr, span, explicit, rng)
    params: dict[str, object] = {"entity": entity.id, "attribute": attr, "form": form}
    if form == "before":
        params["change"] = k
    return Draft(
        kind="knowledge_update",
        scenario=scenario,
        question=question,
        answer=options[0],
        options=tuple(options),
        evidence=(ref,),
        negatives=plain,
        transform="current_value" if form == "now" else "value_before",
        params=params,
        answer_value=answer,
        statements=statements(ref, fact, span, told) + timed,
        span=(iso(span[0]), iso(span[1])),
        hearsay=unsaid_hearsay(ctx, entity, attr, options),
    )
