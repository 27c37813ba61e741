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
simple questions, never people who share the condition's value; the target attribute,
a categorical answer's value (several entities of a kind) and a number's rank are
dealt (:mod:`memsim.qa._deal`), the condition then drawn for the entity dealt.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from memsim.profile import Entity, Profile
from memsim.qa._choices import normalise
from memsim.qa._context import SCENARIOS, QAContext, others, said_words
from memsim.qa._deal import deal_fact
from memsim.qa._pool import Given
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

    dealt = deal_fact(ctx, group, scenario, "conditional", rng, reveal=by_condition)
    if dealt is not None:
        entity, target, given, rank = dealt.entity, dealt.attr, dealt.given, dealt.rank
        cond = str(dealt.by)
    else:
        entity = group[int(rng.integers(len(group)))]
        attrs = ctx.askable(entity, "conditional")
        if len(attrs) < 2:
            return None
        target, cond = (str(a) for a in rng.choice(attrs, size=2, replace=False))
        if not _worded(ctx, entity, cond) or not _names_one(ctx, group, entity, cond):
            return None
        found = ctx.revealed(entity, [cond], target)  # named by the condition alone
        if found is None or not ctx.accept(entity, target, rng, found):
            return None
        given, rank = found, None
    value = ctx.display(entity, cond)
    rivals = others(group, entity)
    told = [e for e in rivals if target in e.facts]  # hard negatives: their values are said
    said, mentions = ctx.said_of_others(profile, entity, target, rng, given, avoid=cond, told=told)
    options = ctx.value_options(entity, target, rng, given, said, rank)
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


def by_condition(
    ctx: QAContext,
    group: Sequence[Entity],
    entity: Entity,
    target: str,
    draw: np.random.Generator,
) -> tuple[Given, str | None] | None:
    """A condition that names the entity alone, drawn, and what it reveals about
    ``target`` (the entity is named by the condition alone)."""
    conds = [
        a for a in ctx.askable(entity, "conditional") if a != target and _worded(ctx, entity, a)
    ]
    if not conds:
        return None
    cond = conds[int(draw.integers(len(conds)))]
    if not _names_one(ctx, group, entity, cond):
        return None
    given = ctx.revealed(entity, [cond], target)
    return None if given is None else (given, cond)


def _names_one(ctx: QAContext, group: Sequence[Entity], entity: Entity, cond: str) -> bool:
    """Whether the entity's value of ``cond`` names it alone in its group: no other
    entity shares it, and no other's value changes (it may match at another time)."""
    value = normalise(ctx.display(entity, cond))
    rivals = [e for e in others(group, entity) if cond in e.facts]
    return not any(
        e.facts[cond].history or normalise(ctx.display(e, cond)) == value for e in rivals
    )


def _worded(ctx: QAContext, entity: Entity, cond: str) -> bool:
    """Whether ``cond`` can be a condition: a value that is a sentence ("whose verdict is
    It feeds back ...?") needs a condition wording of its own."""
    return not said_words(ctx.attribute(entity, cond)) or bool(
        ctx.loc.questions.of_attribute(entity.kind, cond, "condition", ctx.role(entity, cond))
    )
