"""The QA kind registry and hybrid questions (two sub-questions from two scenarios)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from memsim._registry import Registry, registry
from memsim.profile import Profile
from memsim.qa._choices import normalise
from memsim.qa._context import QAContext
from memsim.qa._strata import hybrid_part
from memsim.qa._types import Draft
from memsim.verbalize import says_itself as _name_holds

DraftFn = Callable[[QAContext, Profile, str, np.random.Generator], Draft | None]


@dataclass(frozen=True)
class QAKind:
    name: str
    scenarios: tuple[str, ...]
    """Base scenarios; every kind also has 'hybrid', built from two of them."""
    draft: DraftFn
    base: str | None = None
    """A kind that wraps another kind's questions (noisy wraps simple) names it here;
    ``draft`` then receives that kind's draft in place of the profile."""
    hybrid: bool = True
    """Whether the kind also asks hybrid questions (those over value histories do not:
    each part would fix its own time to be asked at)."""

    def make(
        self, ctx: QAContext, profile: Profile, scenario: str, rng: np.random.Generator
    ) -> Draft | None:
        if self.base is not None:
            inner = QA_KINDS.get(self.base).make(ctx, profile, scenario, rng)
            return None if inner is None else self.wrap(ctx, inner, rng)
        if scenario == "hybrid":
            return hybrid(self, ctx, profile, rng, _parts(self, ctx))
        return self.draft(ctx, profile, scenario, rng)

    @property
    def all_scenarios(self) -> tuple[str, ...]:
        return (*self.scenarios, "hybrid") if self.hybrid else self.scenarios

    def wrap(self, ctx: QAContext, inner: Draft, rng: np.random.Generator) -> Draft | None:
        return self.draft(ctx, inner, inner.scenario, rng)  # type: ignore[arg-type]


QA_KINDS: Registry[QAKind] = registry("qa_kind")


def qa_kind(
    name: str, scenarios: tuple[str, ...], base: str | None = None, hybrid: bool = True
) -> Callable[[DraftFn], DraftFn]:
    def register(fn: DraftFn) -> DraftFn:
        QA_KINDS.register(name)(QAKind(name, scenarios, fn, base, hybrid))
        return fn

    return register


def hybrid(
    kind: QAKind,
    ctx: QAContext,
    profile: Profile,
    rng: np.random.Generator,
    parts: tuple[str, ...] | None = None,
) -> Draft | None:
    """Two sub-questions of one kind about two different scenarios, asked together.

    Every distractor pairs a wrong first part with a wrong second part, so no option
    shares half of itself with the answer (which would make the answer the option
    most similar to the others). The wrong parts are paired at random (each part's
    wrong options shuffled on their own), so the four options are a random matching of
    the first parts with the second parts in which the answer is a uniform pair: the
    options' structure says nothing about which one is right (a fixed pairing, such as
    the outcomes of two comparisons in their declared order, would). Options that
    repeat a value ("1; 1") are then as likely to be the answer as any other; they are
    not avoided, which would mark the one such option left as the answer. The two parts
    rest on no common fact, so no pair of answers is ruled out by the other part."""
    scenarios = kind.scenarios if parts is None else parts
    first, second = (str(s) for s in rng.choice(scenarios, size=2, replace=False))
    with hybrid_part(1):  # which decks deal to which part: memsim.qa._strata.Parts
        a = kind.draft(ctx, profile, first, rng)
    with hybrid_part(2):
        b = kind.draft(ctx, profile, second, rng)
    if a is None or b is None:
        return None
    if any(_names(b.question, o) for o in a.options) or any(
        _names(a.question, o) for o in b.options
    ):
        # one part's question would say the other part's answer; any option is looked
        # at, not only the answer, so that which draws are redone does not depend on
        # the answer (a comparison's answer "my mother" named by the other part's
        # question would otherwise make "the same" and "never told" the usual answers)
        return None
    if len({m[0] for m in a.mentions + b.mentions}) > 1:
        return None  # distractors said of people of two other lives: the noise is one life
    if bool(_said(a)) != bool(_said(b)):
        return None  # a distractor could not be said in full, as the answer is
    if _overlap(a, b) or _overlap(b, a):
        return None  # one part withholds a fact the other part needs told
    if _shared(a, b):
        return None  # one part's answer narrows the other's: options could be struck out
    join = ctx.loc.questions.answer_join
    options = [a.answer + join + b.answer]
    wrong_a, wrong_b = _wrong(a, rng), _wrong(b, rng)
    options += [x + join + y for x, y in zip(wrong_a, wrong_b, strict=True)]
    if len({normalise(o) for o in options}) != 4:
        return None
    return Draft(
        kind=kind.name,
        scenario="hybrid",
        question=ctx.loc.questions.hybrid_join.format(first=a.question, second=b.question),
        answer=options[0],
        options=tuple(options),
        evidence=a.evidence + b.evidence,
        negatives=a.negatives + b.negatives,
        withheld=a.withheld + b.withheld,
        transform="hybrid",
        params={"parts": [_part(a), _part(b)]},
        answer_value=[a.answer_value, b.answer_value],
        mentions=a.mentions + b.mentions,
        told=a.told + b.told,
        said=a.said + b.said,
        # a value one part repeats as someone else's must not be in the other's answer
        hearsay=tuple(h for h in a.hearsay + b.hearsay if h.value not in options[0]),
    )


def _parts(kind: QAKind, ctx: QAContext) -> tuple[str, ...]:
    """The scenarios a hybrid's two parts are drawn from: the kind's base scenarios that
    the schema plans (:func:`memsim.qa.planned_scenarios`), in the kind's order. Drawn
    from every base scenario, a part about a scenario the schema cannot ask (a domain
    with one field has no comparison of fields) was drawn and thrown away; where every
    base scenario is planned the draw is what it always was."""

    def find() -> tuple[str, ...]:
        from memsim.qa._plan import planned_scenarios  # the plan reads this registry

        planned = planned_scenarios(ctx.schema, kind.name)
        return tuple(s for s in kind.scenarios if s in planned)

    return ctx.pool.remember(("hybrid-parts", kind.name), find)


def says_itself(ctx: QAContext, profile: Profile, draft: Draft) -> bool:
    """Whether the draft must state a fact its entity's name already says ("the Boston
    Career Fair" is in Boston): the statement would be a tautology, and the name would
    give the value away (the generator draws again, :func:`memsim.dataset.make_record`)."""
    refs = (*draft.evidence, *draft.negatives, *draft.told)
    if any(_name_holds(ctx.schema, ctx.loc, profile.entity(r.entity), r.attribute) for r in refs):
        return True
    lives = {p.id: p for p in ctx.other_lives(profile)} if draft.mentions else {}
    return any(
        pid in lives and _name_holds(ctx.schema, ctx.loc, lives[pid].entity(eid), attr)
        for pid, eid, attr in draft.mentions
    )


def _said(d: Draft) -> set[str]:
    """The part's distractors that its trajectory states (other entities' values, said
    of other people, or repeated as hearsay)."""
    return {*d.said, *(h.value for h in d.hearsay)}


def _wrong(d: Draft, rng: np.random.Generator) -> list[str]:
    """The part's distractors, shuffled, those its trajectory states first: zipped with
    the other part's, said ones pair with said ones, so that a distractor, like the
    answer, can have both of its parts said in the conversation. Which ones are said is
    only known from the conversation, so the order tells a blind reader nothing."""
    wrong = [d.options[1 + i] for i in rng.permutation(len(d.options) - 1)]
    said = _said(d)
    return [o for o in wrong if o in said] + [o for o in wrong if o not in said]


def _names(question: str, answer: str) -> bool:
    """Whether ``question`` holds ``answer`` (normalised, 2+ characters and not a bare
    number: "3" in "the last 3 digits" is no give-away)."""
    key = normalise(answer)
    return len(key) >= 2 and not key.isdigit() and key in normalise(question)


def _overlap(a: Draft, b: Draft) -> bool:
    """Whether ``a`` withholds a fact that ``b`` tells (the user's scenario shares the
    people of the roles scenario)."""
    return bool({f.id for f in a.withheld} & {f.id for f in (*b.evidence, *b.negatives, *b.told)})


def _shared(a: Draft, b: Draft) -> bool:
    """Whether both parts rest on one fact (counting the relatives' ages, then counting
    them again with the user): the pair of answers is then constrained, so an option
    can be struck out by consistency alone, and the options read as one question asked
    twice ("1; 1", "2; 2")."""
    return bool({f.id for f in a.evidence} & {f.id for f in b.evidence})


def _part(d: Draft) -> dict[str, object]:
    return {
        "scenario": d.scenario,
        "transform": d.transform,
        "params": d.params,
        "fact_ids": [f.id for f in d.evidence],
        "answer": d.answer,
    }
