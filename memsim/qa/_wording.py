"""Questions worded for the attribute they ask about, where the locale (or the schema's
locale overlay) says how (``questions.by_attribute``): "What did I think of the
Ninja air fryer?", "How old is my peer?", "What did I think of the item I own?",
"Which is later, the Boston Career Fair or the Chicago Movie Night?". Without such
wording the kinds' general templates are used ("What is the {label} of {who}?").

Guarantees: the same tokens reach a template whichever wording is chosen, so an
attribute's wording says no more about the answer than the general one; a template
that agrees with its subject through ``{be}``/``{have}``/``{s}`` gets the user's forms
("How old am I?") or another's ("How old is my peer?"), and one whose verb cannot agree
("What does {who} do?") is not asked of the user.
"""

from __future__ import annotations

import numpy as np

from memsim.profile import Entity
from memsim.qa._context import QAContext
from memsim.schema import is_person
from memsim.verbalize import template_fields

AGREEING = frozenset({"be", "have", "s"})


def simple_question(
    ctx: QAContext,
    entity: Entity,
    attr: str,
    scenario: str,
    rng: np.random.Generator,
    who: str | None = None,
) -> str:
    """A question about ``entity``'s ``attr`` (``who`` names it, by default as
    messages do)."""
    user = ctx.is_user(entity)
    who = ctx.who(entity) if who is None else who
    kind_of = ctx.attribute(entity, attr).type
    wordings = ctx.loc.questions.of_attribute(
        entity.kind, attr, "simple", ctx.role(entity, attr), kind_of
    )
    own = [t for t in wordings if not (user and _disagrees(ctx, t))]
    if not own:
        template = ctx.wording("simple", scenario, rng, entity)
        return template.format(label=ctx.label(entity, attr), who=who)
    forms = ctx.loc.self_forms if user else ctx.loc.other_forms
    return ctx.cap(
        ctx.choose(own, rng).format(
            who=who,
            whose=forms.whose.format(who=who),
            be=forms.be,
            have=forms.have,
            s=forms.s,
            label=ctx.label(entity, attr),
        )
    )


def _disagrees(ctx: QAContext, template: str) -> bool:
    """Whether ``template`` has the user as a subject whose verb cannot agree ("What does
    {who} do?"): it names ``{who}`` and none of the agreeing tokens, in a language
    where the user's forms differ from another's (not in Chinese)."""
    mine, theirs = ctx.loc.self_forms, ctx.loc.other_forms
    if (mine.be, mine.have, mine.s) == (theirs.be, theirs.have, theirs.s):
        return False
    fields = set(template_fields(template))
    return "who" in fields and not AGREEING & fields


def conditional_question(
    ctx: QAContext,
    entity: Entity,
    target: str,
    cond: str,
    value: str,
    group: str,
    scenario: str,
    rng: np.random.Generator,
) -> str:
    """A question about ``target`` of the entity picked out by its ``cond`` being
    ``value``: the target's own wording around the condition's noun phrase ("What did
    I think of the item I own?") where the locale has either, else the general
    conditional templates."""
    phrases = ctx.loc.questions.of_attribute(entity.kind, cond, "condition", ctx.role(entity, cond))
    asks = [
        t
        for t in ctx.loc.questions.of_attribute(
            entity.kind, target, "simple", ctx.role(entity, target)
        )
        if "whose" not in template_fields(t)  # no possessive of a long phrase
    ]
    label, cond_label = ctx.label(entity, target), ctx.label(entity, cond)
    # a pool that counts with its own measure word picks one out with it too, in any
    # wording: an attribute's, a role's or the general one (zh 那单, 那家, not 那个)
    pool = ctx.pool_name(entity)
    measure = ctx.loc.questions.measure_of(pool, is_person(ctx.schema, entity.kind))
    if not phrases and not asks:
        template = ctx.wording("conditional", scenario, rng, entity)
        return ctx.loc.questions.asked(template, ctx.attribute(entity, target).type).format(
            label=label, group=group, cond_label=cond_label, cond_value=value, measure=measure
        )
    phrase = ctx.choose(phrases, rng) if phrases else ctx.loc.questions.condition_of(pool)
    who = phrase.format(
        group=group, value=value, a=ctx.loc.article_for(value), label=cond_label, measure=measure
    )
    if asks:
        forms = ctx.loc.other_forms
        template = ctx.choose(asks, rng)
        return ctx.cap(
            template.format(who=who, be=forms.be, have=forms.have, s=forms.s, label=label)
        )
    general = ctx.loc.questions.asked(
        ctx.wording("simple", "", rng), ctx.attribute(entity, target).type
    )
    return ctx.cap(general.format(label=label, who=who))


def comparative_question(
    ctx: QAContext,
    entity: Entity,
    attr: str,
    scenario: str,
    rng: np.random.Generator,
    tokens: dict[str, str],
) -> str:
    """A comparison of two entities' ``attr`` ("Who is older, {a} or {b}?"), else the
    general comparative templates ("whose {label} is {more}")."""
    own = ctx.loc.questions.of_attribute(entity.kind, attr, "comparative", ctx.role(entity, attr))
    template = ctx.choose(own, rng) if own else ctx.wording("comparative", scenario, rng, entity)
    return ctx.cap(template.format(**tokens))


__all__ = ["comparative_question", "conditional_question", "simple_question"]
