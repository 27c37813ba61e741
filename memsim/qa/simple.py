"""Simple questions: one attribute of one entity, named as the user names it.

Guarantees: the answer is the entity's value in the profile; the three distractors
are other values of the same attribute (from other profiles) that the question leaves
possible (a mother's name is a woman's name), distinct from the answer and from each
other after normalisation; answers are flattened to uniform over those values, so the
prior given what the question reveals is at chance, and the attribute asked, a
categorical answer's value (several entities of a kind) and a number's rank among its
options are dealt from decks, so the shares are even in every kind and scenario, not
only in expectation (:mod:`memsim.qa._deal`); the same attribute of the other
entities of the scenario is stated in the trajectory as hard negatives; up to three
distractors are values of people of one other sampled life, kept by the same flattening
as answers and stated in the trajectory (as noise), so the answer is not the only option
the conversation mentions.
"""

from __future__ import annotations

import numpy as np

from memsim.profile import Entity, Profile
from memsim.qa._context import USER_TOO, QAContext
from memsim.qa._deal import deal_fact
from memsim.qa._pool import Given
from memsim.qa._registry import qa_kind
from memsim.qa._types import Draft
from memsim.qa._wording import simple_question


def draw_fact(
    ctx: QAContext, profile: Profile, scenario: str, rng: np.random.Generator
) -> tuple[list[Entity], Entity, str, Given, int | None] | None:
    """The fact a one-fact question asks: an entity of the scenario's group, one of its
    askable attributes, what naming the entity reveals, and the rank of a number among
    its options (None: drawn); dealt (:mod:`memsim.qa._deal`), else drawn and kept by
    the pool's flattening (so answers come out uniform); None when this draw has none.
    Returns (group, entity, attribute, given, rank)."""
    group = ctx.group(profile, scenario)
    if not group:
        return None
    dealt = deal_fact(ctx, group, scenario, "simple", rng)
    if dealt is not None:
        return group, dealt.entity, dealt.attr, dealt.given, dealt.rank
    entity = group[int(rng.integers(len(group)))]
    attrs = ctx.askable(entity, "simple")
    if not attrs:
        return None
    attr = attrs[int(rng.integers(len(attrs)))]
    given = ctx.revealed(entity, ctx.naming(entity), attr)
    if given is None or not ctx.accept(entity, attr, rng, given):
        return None
    return group, entity, attr, given, None


@qa_kind("simple", USER_TOO)
def simple(
    ctx: QAContext, profile: Profile, scenario: str, rng: np.random.Generator
) -> Draft | None:
    drawn = draw_fact(ctx, profile, scenario, rng)
    if drawn is None:
        return None
    group, entity, attr, given, rank = drawn
    told = ctx.mates(profile, group, entity, attr)  # the hard negatives
    said, mentions = ctx.said_of_others(profile, entity, attr, rng, given, told=told)
    options = ctx.value_options(entity, attr, rng, given, said, rank)
    if options is None:
        return None
    mentions = mentions or ctx.said_numbers(profile, entity, attr, options)
    stated = ctx.said_options(options, said, mentions)
    question = simple_question(ctx, entity, attr, scenario, rng)
    return Draft(
        kind="simple",
        scenario=scenario,
        question=question,
        answer=options[0],
        options=tuple(options),
        evidence=(ctx.ref(entity, attr),),
        negatives=tuple(ctx.ref(e, attr) for e in told if e.scenario == entity.scenario),
        told=tuple(ctx.ref(e, attr) for e in told if e.scenario != entity.scenario),
        transform="identity",
        params={"entity": entity.id, "attribute": attr},
        answer_value=entity.facts[attr].value,
        mentions=mentions,
        said=stated,
        hearsay=ctx.hearsay(entity, attr, options, stated),
    )
