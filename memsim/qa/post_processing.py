"""Post-processing questions: the answer is a transform of remembered facts.

Transforms (each registered by name, recorded in the provenance with its parameters):
``digit_sum`` (sum of the last k digits of a number-like value), ``difference``
(absolute difference of two integer facts, said in the attribute's unit: "6 hours";
``age_difference`` is the same, worded for ages, its number alone), ``days_between``
(absolute number of days between two dated facts), ``season``
(of a month-day, by the locale's season table),
``weekday`` (of a date-time) and ``email_domain``. Guarantees: the answer is computed
by the transform from the profile's values; numeric answers are flattened to uniform
over their likely values given who the question names (:func:`flat_options`) and take a
uniform rank among their options; season and weekday distractors are other seasons and
weekdays; each transform is drawn again until it gives a question, so transforms come
out in about equal shares (numeric ones at least half); a weekday or e-mail domain
question states the other events' dates or people's addresses too (hard negatives), one
of whose weekdays or domains is a distractor, and its evidence date is said absolutely
(the trajectory starts weeks before it), so the answer is not the only option written in
the conversation; the e-mail domains no one's address says are said to be someone
else's (the locale's ``hearsay_of``).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

import numpy as np

from memsim.profile import Entity, Profile
from memsim.qa._choices import pick_distinct
from memsim.qa._context import QAContext
from memsim.qa._numeric import age_gap, day_gap, digit_sum_share, flat_options, pool_share
from memsim.qa._plan import DIGITS, PAIRED
from memsim.qa._registry import qa_kind
from memsim.qa._types import Draft, FactRef, Hearsay
from memsim.schema import time_attribute

DRAWS = 32
"""Draws of the chosen transform before giving it up (transforms come out in about
equal shares, so numeric ones are at least half of a scenario's)."""
Transform = Callable[[QAContext, list[Entity], np.random.Generator], Draft | None]
TRANSFORMS: dict[str, Transform] = {}
"""name -> builder; which attributes a transform may use is the schema's say
(:func:`memsim.schema.transforms_of`)."""


def transform(*names: str) -> Callable[[Transform], Transform]:
    def register(fn: Transform) -> Transform:
        for name in names:
            TRANSFORMS[name] = fn
        return fn

    return register


def digit_sum(text: str, k: int) -> int:
    digits = [int(c) for c in str(text) if c.isdigit()]
    return sum(digits[-k:])


def season_of(month_day: str, seasons: dict[str, list[int]]) -> str:
    month = int(month_day.split("-")[0])
    return next(name for name, months in seasons.items() if month in months)


def _draft(
    ctx: QAContext,
    name: str,
    question: str,
    answer: str,
    options: list[str],
    evidence: tuple[FactRef, ...],
    params: dict[str, object],
    value: object,
    negatives: tuple[FactRef, ...] = (),
    hearsay: tuple[Hearsay, ...] = (),
) -> Draft:
    return Draft(
        negatives=negatives,
        hearsay=hearsay,
        kind="post_processing",
        scenario="",
        question=question,
        answer=answer,
        options=tuple(options),
        evidence=evidence,
        transform=name,
        params=params,
        answer_value=value,
    )


def _typed(ctx: QAContext, group: list[Entity], name: str) -> list[tuple[Entity, str]]:
    """The (entity, attribute) pairs of the group that transform ``name`` may use."""
    return [
        (e, a)
        for e in group
        for a in ctx.askable(e, "post_processing")
        if name in ctx.transforms(e, a)
    ]


def available(ctx: QAContext, group: list[Entity]) -> list[str]:
    """The transforms the group can be asked, in registration order: some attribute
    allows it, and a transform of two values has two (one item's price alone has no
    difference to take; memsim.qa._plan's ``PAIRED``)."""
    having: dict[str, list[str]] = {}  # transform -> the attribute of each value
    for e in group:
        for a in ctx.askable(e, "post_processing"):
            for t in ctx.transforms(e, a):
                if t != "digit_sum" or _digits(e.facts[a].value) >= DIGITS:
                    having.setdefault(t, []).append(a)
    return [name for name in TRANSFORMS if name in having and _enough(name, having[name])]


def _enough(name: str, attrs: list[str]) -> bool:
    need = PAIRED.get(name)
    if need == "same":
        return len(attrs) > len(set(attrs))  # some attribute of two entities
    return need is None or len(attrs) >= 2


def _digits(value: object) -> int:
    return sum(c.isdigit() for c in str(value))


@transform("digit_sum")
def _digit_sum(ctx: QAContext, group: list[Entity], rng: np.random.Generator) -> Draft | None:
    pairs = [
        (e, a) for e, a in _typed(ctx, group, "digit_sum") if _digits(e.facts[a].value) >= DIGITS
    ]
    if not pairs:
        return None
    entity, attr = pairs[int(rng.integers(len(pairs)))]
    k = int(rng.integers(2, 5))
    answer = digit_sum(str(entity.facts[attr].value), k)
    numbers = flat_options(answer, digit_sum_share(k), rng)
    if numbers is None:
        return None
    options = [str(n) for n in numbers]
    question = ctx.choose(ctx.loc.questions.post_processing["digit_sum"], rng).format(
        k=k, label=ctx.label(entity, attr), who=ctx.who(entity)
    )
    return _draft(
        ctx,
        "digit_sum",
        question,
        options[0],
        options,
        (ctx.ref(entity, attr),),
        {"entity": entity.id, "attribute": attr, "k": k},
        answer,
    )


def _difference(name: str) -> Transform:
    """The absolute difference of two entities' values of one integer attribute that
    allows transform ``name`` (``age_difference``, worded for ages, or ``difference``)."""

    def build(ctx: QAContext, group: list[Entity], rng: np.random.Generator) -> Draft | None:
        pairs = _typed(ctx, group, name)
        attrs = list(dict.fromkeys(a for _, a in pairs))
        if not attrs:
            return None
        attr = attrs[int(rng.integers(len(attrs)))] if len(attrs) > 1 else attrs[0]
        people = [e for e, x in pairs if x == attr]
        if len(people) < 2:
            return None
        a, b = (people[i] for i in rng.choice(len(people), size=2, replace=False))
        answer = abs(int(a.facts[attr].value) - int(b.facts[attr].value))
        numbers = flat_options(answer, pool_share(ctx, [(a, attr), (b, attr)], age_gap), rng)
        if numbers is None:
            return None
        # a difference is said in the attribute's unit ("6 hours"); an age difference
        # is not, its question names the unit ("how many years apart in age")
        unit = ctx.attribute(a, attr).unit if name == "difference" else None
        options = [ctx.loc.with_unit_of(str(n), unit) for n in numbers]
        question = ctx.choose(ctx.loc.questions.post_processing[name], rng).format(
            a=ctx.who(a), b=ctx.who(b), label=ctx.label(a, attr)
        )
        return _draft(
            ctx,
            name,
            question,
            options[0],
            options,
            (ctx.ref(a, attr), ctx.ref(b, attr)),
            {"entities": [a.id, b.id], "attribute": attr},
            answer,
        )

    return build


transform("age_difference")(_difference("age_difference"))
transform("difference")(_difference("difference"))


@transform("season")
def _season(ctx: QAContext, group: list[Entity], rng: np.random.Generator) -> Draft | None:
    pairs = _typed(ctx, group, "season")
    if not pairs:
        return None
    entity, attr = pairs[int(rng.integers(len(pairs)))]
    answer = season_of(str(entity.facts[attr].value), ctx.loc.seasons)
    rest = [s for s in ctx.loc.seasons if s != answer]
    options = [answer, *(rest[i] for i in rng.permutation(len(rest))[:3])]
    question = ctx.choose(ctx.loc.questions.post_processing["season"], rng).format(
        label=ctx.label(entity, attr), who=ctx.who(entity)
    )
    return _draft(
        ctx,
        "season",
        question,
        answer,
        options,
        (ctx.ref(entity, attr),),
        {"entity": entity.id, "attribute": attr},
        answer,
    )


@transform("email_domain")
def _email_domain(ctx: QAContext, group: list[Entity], rng: np.random.Generator) -> Draft | None:
    pairs = [(e, a) for e, a in _typed(ctx, group, "email_domain") if "@" in str(e.facts[a].value)]
    if not pairs:
        return None
    entity, attr = pairs[int(rng.integers(len(pairs)))]
    answer = str(entity.facts[attr].value).split("@", 1)[1]
    # the other people's addresses are stated too, and their domains come first among
    # the distractors: the answer is not the only domain the conversation holds
    rivals = [e for e in group if e.id != entity.id and "@" in str(e.facts.get(attr, ""))]
    said = (
        pick_distinct([str(e.facts[attr].value).split("@", 1)[1] for e in rivals], [answer], 1, rng)
        or []
    )
    sample = ctx.pool.sample_distinct(entity.kind, attr, 40, rng)
    domains = [str(v).split("@", 1)[1] for v in sample if "@" in str(v)]
    picked = pick_distinct(domains, [answer, *said], 3 - len(said), rng)
    if picked is None:
        return None
    picked = [*said, *picked]
    question = ctx.choose(ctx.loc.questions.post_processing["email_domain"], rng).format(
        label=ctx.label(entity, attr), who=ctx.who(entity)
    )
    # people who share a domain (one employer, one school) leave the others unsaid: the
    # user says those are someone else's, so every domain offered is in the conversation
    label = ctx.loc.domain_label.format(label=ctx.hearsay_label(entity, attr))
    hearsay = ctx.hearsay_values([answer, *picked], said, label) if ctx.loc.hearsay_of else ()
    return _draft(
        ctx,
        "email_domain",
        question,
        answer,
        [answer, *picked],
        (ctx.ref(entity, attr),),
        {"entity": entity.id, "attribute": attr},
        answer,
        negatives=tuple(ctx.ref(e, attr) for e in rivals),
        hearsay=hearsay,
    )


def _day(entity: Entity, attr: str) -> dt.date:
    return dt.date.fromisoformat(str(entity.facts[attr].value)[:10])


def _wording(ctx: QAContext, name: str, dates: list[tuple[Entity, str]]) -> list[str]:
    """A date transform's questions: of the entities themselves where every date is when
    its entity happens ("On which day of the week is my Tulsa show?"), else of the dates
    by their labels (``<name>_of``: "... is the start date of my client Harbor Hotels?")."""
    timed = all(a == time_attribute(ctx.schema, e.kind) for e, a in dates)
    own = ctx.loc.questions.post_processing.get(f"{name}_of")
    return ctx.loc.questions.post_processing[name] if timed or not own else own


@transform("days_between")
def _days_between(ctx: QAContext, group: list[Entity], rng: np.random.Generator) -> Draft | None:
    dated = _typed(ctx, group, "days_between")
    if len(dated) < 2:
        return None
    (a, attr_a), (b, attr_b) = (dated[i] for i in rng.choice(len(dated), size=2, replace=False))
    answer = abs((_day(a, attr_a) - _day(b, attr_b)).days)
    share = pool_share(ctx, [(a, attr_a), (b, attr_b)], day_gap)
    numbers = flat_options(answer, share, rng)
    if numbers is None:
        return None
    options = [str(n) for n in numbers]
    question = ctx.choose(_wording(ctx, "days_between", [(a, attr_a), (b, attr_b)]), rng).format(
        a=ctx.who(a), b=ctx.who(b), label_a=ctx.label(a, attr_a), label_b=ctx.label(b, attr_b)
    )
    return _draft(
        ctx,
        "days_between",
        question,
        options[0],
        options,
        (ctx.ref(a, attr_a), ctx.ref(b, attr_b)),
        {"entities": [a.id, b.id], "attributes": [attr_a, attr_b]},
        answer,
    )


@transform("weekday")
def _weekday(ctx: QAContext, group: list[Entity], rng: np.random.Generator) -> Draft | None:
    dated = _typed(ctx, group, "weekday")
    if not dated:
        return None
    entity, attr = dated[int(rng.integers(len(dated)))]
    weekdays = ctx.loc.calendar.weekdays
    answer = weekdays[_day(entity, attr).weekday()]
    # the other events' dates are stated too, and one of their weekdays comes first
    # among the distractors (the conversation may name it: "next Tuesday")
    rivals = [(e, a) for e, a in dated if e.id != entity.id]
    said = pick_distinct([weekdays[_day(e, a).weekday()] for e, a in rivals], [answer], 1, rng)
    rest = [w for w in weekdays if w != answer and w not in (said or [])]
    chosen = [*(said or []), *(rest[i] for i in rng.permutation(len(rest)))][:3]
    options = [answer, *chosen]
    question = ctx.choose(_wording(ctx, "weekday", [(entity, attr)]), rng).format(
        who=ctx.who(entity), label=ctx.label(entity, attr)
    )
    return _draft(
        ctx,
        "weekday",
        question,
        answer,
        options,
        (ctx.ref(entity, attr),),
        {"entity": entity.id, "attribute": attr},
        answer,
        negatives=tuple(ctx.ref(e, a) for e, a in rivals),
    )


@qa_kind("post_processing", ("roles", "events", "user", "items", "places"))
def post_processing(
    ctx: QAContext, profile: Profile, scenario: str, rng: np.random.Generator
) -> Draft | None:
    if scenario == "user":
        return _about_user(ctx, profile, rng)
    group = ctx.group(profile, scenario)
    names = available(ctx, group)
    if not names:
        return None
    name = names[int(rng.integers(len(names)))]
    # draw again with the same transform: returning None would let the caller draw
    # another one, and the numeric transforms, whose flattening rejects most draws,
    # would become rare
    for _ in range(DRAWS):
        draft = TRANSFORMS[name](ctx, group, rng)
        if draft is not None:
            return Draft(**{**draft.__dict__, "scenario": scenario})
    return None


def _people(ctx: QAContext, profile: Profile) -> list[Entity]:
    """The people who have the user's attribute the schema words as an age difference."""
    user = ctx.group(profile, "user")[0]
    attrs = [a for a in user.facts if "age_difference" in ctx.transforms(user, a)]
    return [
        e for e in ctx.with_user(profile) if e.scenario != "user" and attrs and attrs[0] in e.facts
    ]


USER_TRANSFORMS = ("age_difference", "digit_sum", "season")
"""The user's own transforms; not ``email_domain``: the user's address is the only one
their conversation says, so the domain asked would be the only option it mentions."""


def _about_user(ctx: QAContext, profile: Profile, rng: np.random.Generator) -> Draft | None:
    """The user's own numbers and dates: their age against one of the people of their
    life ("how many years apart in age are my father and I?"), or a transform of one of
    their facts, asked with the locale's wording for the user ("... of my phone number")."""
    user = ctx.group(profile, "user")
    if not user:
        return None
    # the user's transforms this profile can be asked (all three in daily life): drawn
    # among all three, a user with digit sums alone was asked one in three draws, each
    # kept as rarely as its sum is common (3-6%), and 400 draws could fail
    names = [n for n in USER_TRANSFORMS if n != "age_difference" or _people(ctx, profile)]
    names = [n for n in names if n == "age_difference" or _typed(ctx, user, n)] or ["digit_sum"]
    name = names[int(rng.integers(len(names)))]
    if name == "age_difference":
        people = _people(ctx, profile)
        if not people:
            return None
        other = people[int(rng.integers(len(people)))]
        draft = TRANSFORMS[name](ctx, [other, user[0]], rng)
        if draft is None or draft.params["entities"] != [other.id, user[0].id]:
            return None  # the user is named last ("my father and I")
        return Draft(**{**draft.__dict__, "scenario": "user"})
    wording = ctx.loc.questions.by_scenario.get("user", {}).get(f"post_processing.{name}")
    draft = TRANSFORMS[name](ctx, user, rng)
    if draft is None or not wording:
        return None
    question = ctx.choose(wording, rng).format(
        k=draft.params.get("k", ""), label=ctx.label(user[0], str(draft.params["attribute"]))
    )
    return Draft(**{**draft.__dict__, "scenario": "user", "question": question})
