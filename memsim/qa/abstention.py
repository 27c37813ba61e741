"""Abstention questions: some ask for a fact that was never told, worded exactly as the
answerable ones are.

One trajectory in every four (``UNTOLD``, the share of any one of four options; dealt
from a deck and held over every attempt, so rejected draws do not skew it, see
:func:`_outcome`) asks an unanswerable question, the rest an answerable simple
question (its attribute, value and rank dealt as simple questions', ``qa._deal``).
Every question carries the locale's "you never told me" option, naming what it asks
about ("You never told me that (my mother's work city)."), so that option is the
answer in a quarter of the questions and a distractor in the rest: picking it is
worth chance, not more.
- answerable: the asked fact and one other fact of the entity are told; the options
  are the value, two other values of the attribute and "never told";
- never told: the entity exists and another of its facts is told, the asked fact is
  withheld (no message states it, and no text fact of the entity made from it is
  said either); the options are "never told" and three values of the attribute;
- false premise (for the people of the user's life, half of the unanswerable ones,
  when someone is absent to name): the question names a relative or colleague the
  user does not have ("my sister"), by a naming value no entity of the profile has;
  the facts told are who the real ones are.

The other entities' values of the asked attribute are told as hard negatives (for the
user: the people of their life), as simple questions tell them, whatever the outcome;
and a draw is redone for the same reasons whatever the outcome, so the asked attribute
says nothing of whether it was told.

Guarantees: the answer is computed from the profile (the value, or "never told" when
no message can hold it); values are flattened and drawn as for simple questions given
what the question reveals; the question uses the simple kind's wording.
"""

from __future__ import annotations

import numpy as np

from memsim._streams import stream
from memsim.profile import Entity, Fact, Profile
from memsim.qa._choices import normalise
from memsim.qa._context import QAContext
from memsim.qa._deal import deal_fact
from memsim.qa._history import never_told
from memsim.qa._registry import qa_kind
from memsim.qa._strata import balanced, dealing
from memsim.qa._types import Draft, FactRef
from memsim.qa._wording import simple_question
from memsim.schema import location_attribute, workplace_attribute

UNTOLD = 0.25
FALSE_PREMISE = 0.5
"""Share of the unanswerable questions about people that name someone who is not there."""
OUTCOME_STREAM = 12
"""Spawn-key head of the per-profile outcome stream (changes use 11)."""
UNTOLD_DECK = 5
PREMISE_DECK = 6
"""Salts of the outcome decks (memsim.qa._strata; memsim.qa._deal uses 4)."""
FOREVER = 10**9
"""Attempts an outcome card is held for: all of them."""


@qa_kind("abstention", ("user", "roles", "items", "places"), hybrid=False)
def abstention(
    ctx: QAContext, profile: Profile, scenario: str, rng: np.random.Generator
) -> Draft | None:
    group = ctx.group(profile, scenario)
    if not group:
        return None
    untold, premise = _outcome(profile, rng)
    if untold and scenario == "roles" and premise:
        ghost = _false_premise(ctx, profile, group, rng)
        if ghost is not None:
            return ghost
        # no one absent to name this time (every relation taken): ask a fact never told
    # the user's facts a message's place says (where they are, where they work)
    places = _place_attributes(ctx, group[0]) if scenario == "user" else ()
    dealt = deal_fact(ctx, group, scenario, None, rng, exclude=places)
    if dealt is not None:
        entity, attr, given, rank = dealt.entity, dealt.attr, dealt.given, dealt.rank
    else:
        entity = group[int(rng.integers(len(group)))]
        # every draw is kept or redone whatever the outcome, so that which attribute is
        # asked says nothing of the outcome (an attribute redone only when never told was
        # asked almost only when told, and a blind reader learnt it)
        attrs = [a for a in ctx.askable(entity) if a not in places]
        if not attrs:
            return None
        attr = attrs[int(rng.integers(len(attrs)))]
        found = ctx.revealed(entity, ctx.naming(entity), attr)
        if found is None or not ctx.accept(entity, attr, rng, found):
            return None
        given, rank = found, None
    # distractors said about people of another life, so that "the option the
    # conversation mentions" is no cue (the gold of an answerable question is told)
    # the hard negatives as simple questions have them: for the user, the people of
    # their life (without them, a question about the user had its attribute said only
    # of the user, shortly, "I am X", and of strangers in the noise, "my <someone>
    # is Y": the noise stood out by its form)
    mates = ctx.mates(profile, group, entity, attr)
    said, mentions = ctx.said_of_others(profile, entity, attr, rng, given, told=mates)
    values = ctx.value_options(entity, attr, rng, given, said, rank)
    told = [a for a in ctx.askable(entity) if a != attr and not _made_from(ctx, entity, a, attr)]
    if values is None or not told:
        return None
    mentions = mentions or ctx.said_numbers(profile, entity, attr, values)
    other = told[int(rng.integers(len(told)))]
    never = never_told(ctx, entity, attr)
    if _said_elsewhere(ctx, entity, attr, other):
        return None
    if not untold and ctx.attribute(entity, attr).type == "integer":
        # the numbers come nearest first on each side of the answer; leaving out the
        # last one made the answer the largest of the three shown half the time, and
        # leaving out one at random gives it each rank among them a third of the time
        drop = 1 + int(rng.integers(3))
        values = [v for i, v in enumerate(values) if i != drop] + [values[drop]]
    options = [never, *values[1:]] if untold else [*values[:3], never]
    stated = ctx.said_options(options, said, mentions)
    question = simple_question(ctx, entity, attr, scenario, rng)
    withheld = [ctx.ref(entity, attr)]
    if untold:  # a text made from the asked value would say it (an address from a name)
        withheld += [ctx.ref(entity, a) for a in entity.facts if _made_from(ctx, entity, a, attr)]
    return Draft(
        kind="abstention",
        scenario=scenario,
        question=question,
        answer=options[0],
        options=tuple(options),
        evidence=(ctx.ref(entity, other if untold else attr),),
        # the other fact is told either way, so told facts do not mark the outcome
        negatives=(() if untold else (ctx.ref(entity, other),))
        + tuple(ctx.ref(e, attr) for e in mates if e.scenario == entity.scenario),
        told=tuple(ctx.ref(e, attr) for e in mates if e.scenario != entity.scenario),
        withheld=tuple(withheld) if untold else (),
        transform="never_told" if untold else "identity",
        params={"entity": entity.id, "attribute": attr, **({"told": [other]} if untold else {})},
        answer_value="never_told" if untold else entity.facts[attr].value,
        mentions=mentions,
        said=stated,
        hearsay=ctx.hearsay(
            entity, attr, [o for o in options if o != never] if not untold else options, stated
        ),
    )


def _outcome(profile: Profile, rng: np.random.Generator) -> tuple[bool, bool]:
    """(unanswerable, false premise), dealt (:mod:`memsim.qa._strata`): one trajectory in
    each deck of four is unanswerable, and the unanswerable ones of consecutive decks
    name someone absent in turn, so the shares are exact at any scale; held over every
    attempt (a kind retries until a draw is kept, and one outcome rejected more often
    than the other would otherwise come out less often than its share). Outside
    generation, drawn once per profile from its own stream, for the same reason."""
    if dealing(FOREVER):
        untold = balanced(rng, 4, UNTOLD_DECK, hold=FOREVER) == 0
        premise = balanced(rng, 2, PREMISE_DECK, every=4, hold=FOREVER) == 0
        return untold, premise
    own = stream(profile.seed, (OUTCOME_STREAM, profile.index))
    return bool(own.random() < UNTOLD), bool(own.random() < FALSE_PREMISE)


def _place_attributes(ctx: QAContext, user: Entity) -> tuple[str, ...]:
    """The user's attributes a message's place says (where they are, where they work)."""
    found = (
        location_attribute(ctx.schema, user.kind),
        workplace_attribute(ctx.schema, user.kind),
    )
    return tuple(a for a in found if a is not None)


def _made_from(ctx: QAContext, entity: Entity, attr: str, source: str) -> bool:
    """Whether ``attr`` of the entity is a text made (through texts) from ``source``."""
    if entity.facts[attr].type != "text":
        return False
    own, _ = ctx._made_from(entity.facts[attr].id)
    return source in own


def _said_elsewhere(ctx: QAContext, entity: Entity, attr: str, other: str) -> bool:
    """Whether the told fact's value says the withheld one, or another fact of the
    entity takes its value at some time (a hometown equal to a work city)."""
    asked = normalise(ctx.display(entity, attr))
    return asked in normalise(ctx.display(entity, other)) or any(
        normalise(ctx.display(entity, a, step.value)) == asked
        for a, fact in entity.facts.items()
        if a != attr
        for step in (fact.history or (fact,))
    )


def _false_premise(
    ctx: QAContext, profile: Profile, group: list[Entity], rng: np.random.Generator
) -> Draft | None:
    model = group[int(rng.integers(len(group)))]
    naming = ctx.naming(model)
    if len(naming) != 1 or model.facts[naming[0]].type != "categorical":
        return None
    name_attr = naming[0]
    held = {normalise(ctx.who(e)) for e in profile.entities}
    absent = [
        v
        for v in ctx.pool.distinct(model.kind, name_attr)
        if normalise(ctx.who(_named(model, name_attr, v))) not in held
    ]
    attrs = [a for a in ctx.askable(model) if model.facts[a].type != "text"]
    if not absent or not attrs:
        return None
    value = absent[int(rng.integers(len(absent)))]
    ghost = _named(model, name_attr, value)
    attr = attrs[int(rng.integers(len(attrs)))]
    given = ctx.revealed(ghost, naming, attr)
    if given is None:
        return None
    sample = ctx.pool.sample_support(model.kind, attr, 12, rng, given)
    shown = list(dict.fromkeys(ctx.display(model, attr, v) for v in sample))
    if len(shown) < 3:
        return None
    picked = [shown[i] for i in rng.choice(len(shown), size=3, replace=False)]
    options = [never_told(ctx, ghost, attr), *picked]
    question = simple_question(ctx, model, attr, "roles", rng, who=ctx.who(ghost))
    kind_mates = [e for e in group if e.kind == model.kind]
    return Draft(
        kind="abstention",
        scenario="roles",
        question=question,
        answer=options[0],
        options=tuple(options),
        evidence=tuple(FactRef(e.id, name_attr) for e in kind_mates),
        negatives=tuple(ctx.ref(e, attr) for e in kind_mates if attr in e.facts),
        transform="false_premise",
        params={"kind": model.kind, "naming": {name_attr: value}, "attribute": attr},
        answer_value="never_told",
    )


def _named(model: Entity, attr: str, value: object) -> Entity:
    """An entity of the model's kind named by ``value`` (for wording only)."""
    fact = model.facts[attr]
    ghost = Fact(fact.id, fact.attribute, fact.type, value, fact.unit)
    return Entity(model.id, model.kind, model.index, model.scenario, {attr: ghost})
