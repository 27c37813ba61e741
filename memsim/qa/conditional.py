"""Conditional questions: the entity is identified by another of its attribute values,
one that no other entity of the scenario shares.

Guarantees: the condition value is unique among the scenario's entities (after
normalisation), so exactly one entity matches; the question names the group as the
kinds of the entity's pool that have both attributes; a sentence (an opinion) picks an
entity out only in a wording of its own (``questions.by_attribute``: 'the item I
described as "..."'); the answer is that entity's value of
the asked attribute, flattened and with distractors as for simple questions given what
the condition reveals (a doctor's education is not "high school"); two evidence facts
(the condition and the asked attribute); both attributes of the other entities are
stated as hard negatives; distractors are said about people of another life as for
simple questions, never people who share the condition's value.
"""

from __future__ import annotations

import numpy as np

from memsim.profile import Profile
from memsim.qa._choices import normalise
from memsim.qa._context import SCENARIOS, QAContext, others, said_words
from memsim.qa._registry import qa_kind
from memsim.qa._types import Draft
from memsim.qa._wording import conditional_question


@qa_kind("conditional", SCENARIOS)
def conditional(
    ctx: QAContext, profile: Profile, scenario: str, rng: np.random.Generator
) -> Draft | None:
    group = ctx.group(profile, scenario)
    if not group:
        return None
    entity = group[int(rng.integers(len(group)))]
    attrs = ctx.askable(entity, "conditional")
    if len(attrs) < 2:
        return None
    target, cond = (str(a) for a in rng.choice(attrs, size=2, replace=False))
    if said_words(ctx.attribute(entity, cond)) and not ctx.loc.questions.of_attribute(
        entity.kind, cond, "condition", ctx.role(entity, cond)
    ):
        return None  # "whose verdict is It feeds back ...?": a sentence needs its own wording
    value = ctx.display(entity, cond)
    rivals = others(group, entity)
    if any(cond in e.facts and normalise(ctx.display(e, cond)) == normalise(value) for e in rivals):
        return None
    if any(cond in e.facts and e.facts[cond].history for e in rivals):
        return None  # a rival's value changes: it may match the condition at another time
    given = ctx.revealed(entity, [cond], target)  # named by the condition alone
    if given is None or not ctx.accept(entity, target, rng, given):
        return None
    told = [e for e in rivals if target in e.facts]  # hard negatives: their values are said
    said, mentions = ctx.said_of_others(profile, entity, target, rng, given, avoid=cond, told=told)
    options = ctx.value_options(entity, target, rng, given, said)
    if options is None:
        return None
    mentions = mentions or ctx.said_numbers(profile, entity, target, options, avoid=cond)
    stated = ctx.said_options(options, said, mentions)
    # named as the kinds it could be among: those of its pool that have both attributes
    # ("the bandmate whose hometown is ...", not "the bandmate or crew member" when crew
    # members are pooled apart and have no hometown); the value is unique in the scenario
    kin = [e for e in group if ctx.pooled(e, entity) and target in e.facts and cond in e.facts]
    question = conditional_question(
        ctx, entity, target, cond, value, ctx.group_label(kin, plural=False), scenario, rng
    )
    return Draft(
        kind="conditional",
        scenario=scenario,
        question=question,
        answer=options[0],
        options=tuple(options),
        evidence=(ctx.ref(entity, cond), ctx.ref(entity, target)),
        negatives=tuple(ctx.ref(e, a) for e in rivals for a in (cond, target) if a in e.facts),
        transform="identity",
        params={
            "entity": entity.id,
            "attribute": target,
            "condition": cond,
            "condition_value": value,
        },
        answer_value=entity.facts[target].value,
        mentions=mentions,
        said=stated,
        hearsay=ctx.hearsay(entity, target, options, stated),
    )
