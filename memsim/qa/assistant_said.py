"""Questions about what the assistant said (LongMemEval's single-session-assistant):
the user once asked the assistant to look up one attribute of one entity, the
assistant's reply stated it, and the question asks what the assistant found.

Guarantees: the fact is sampled from the graph like any fact (one attribute of one
entity, drawn as a simple question draws it), and the answer is the entity's value in
the profile; the options are drawn as a simple question's are (same attribute, other
lives' values, flattened to chance); the trajectory states the fact once, as the
evidence, and :func:`memsim.history.into_sessions` turns that user turn into the
user's request (``conversation.lookups``: the label and who, no value) and the
assistant's reply (``conversation.found``: the user's saved note, quoted), so only
the assistant states it; the look-alike facts (the same attribute of the other
entities) and the distractors said of another life's people are looked up the same
way; the question (``conversation.recalled``) names
the label and who, never the value.

The kind needs assistant turns: it is made only for histories (``memsim generate
--history-tokens``), and a locale without those ``conversation`` lines has none.
"""

from __future__ import annotations

import numpy as np

from memsim.profile import Entity, Profile
from memsim.qa._context import SCENARIOS, QAContext, others
from memsim.qa._registry import qa_kind
from memsim.qa._types import Draft
from memsim.qa.simple import draw_fact

KIND = "assistant_said"


@qa_kind(KIND, SCENARIOS, hybrid=False)
def assistant_said(
    ctx: QAContext, profile: Profile, scenario: str, rng: np.random.Generator
) -> Draft | None:
    conv = ctx.loc.conversation
    if conv is None or not (conv.lookups and conv.found and conv.recalled):
        return None
    drawn = draw_fact(ctx, profile, scenario, rng)  # as a simple question draws it
    if drawn is None:
        return None
    group, entity, attr, given, rank = drawn
    said, mentions = ctx.said_of_others(profile, entity, attr, rng, given)
    options = ctx.value_options(entity, attr, rng, given, said, rank)
    if options is None:
        return None
    mentions = mentions or ctx.said_numbers(profile, entity, attr, options)
    label = ctx.label(entity, attr)
    question = ctx.cap(ctx.choose(conv.recalled, rng).format(label=label, who=ctx.who(entity)))
    negatives = [e for e in others(group, entity) if attr in e.facts]

    # the look-alike facts are looked up too, so that an assistant reply that states a
    # value is not, by that alone, the evidence
    def ask(who: Entity) -> str:
        return ctx.cap(ctx.choose(conv.lookups, rng).format(label=label, who=ctx.who(who)))

    requests = {ctx.ref(e, attr).id: ask(e) for e in (entity, *negatives)}
    lives = {life.id: life for life in ctx.other_lives(profile)}
    for life_id, entity_id, attribute in mentions:
        # distractors said of another life's people are looked up the same way, so
        # that the noise has the form of the facts
        if life_id in lives:
            requests[f"{life_id}:{entity_id}.{attribute}"] = ask(lives[life_id].entity(entity_id))
    return Draft(
        kind=KIND,
        scenario=scenario,
        question=question,
        answer=options[0],
        options=tuple(options),
        evidence=(ctx.ref(entity, attr),),
        negatives=tuple(ctx.ref(e, attr) for e in negatives),
        transform="identity",
        params={
            "entity": entity.id,
            "attribute": attr,
            "said_by": "assistant",
            "requests": requests,
        },
        answer_value=entity.facts[attr].value,
        mentions=mentions,
        hearsay=ctx.hearsay(entity, attr, options, said),
    )
