"""One re-derivation per transform in use (identity, compare, count, digit_sum,
age_difference, days_between, season, weekday, email_domain, hybrid), from the
profile's values at the reference time (the time the question is asked)."""

from __future__ import annotations

import datetime as dt
import operator
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from memsim.audit._derive import DerivationError, Derived, Deriver
from memsim.audit._text import squash
from memsim.profile import Profile
from memsim.schema import pool_of, within_margin, word
from memsim.verbalize import capitalize_first

Transform = Callable[[Deriver, Profile, dict[str, Any], frozenset[str], dt.datetime], Derived]
TRANSFORMS: dict[str, Transform] = {}

COMPARE = {
    "gt": operator.gt,
    "ge": operator.ge,
    "lt": operator.lt,
    "le": operator.le,
    "eq": operator.eq,
    "after": operator.gt,
    "before": operator.lt,
}


def transform(name: str) -> Callable[[Transform], Transform]:
    def register(fn: Transform) -> Transform:
        TRANSFORMS[name] = fn
        return fn

    return register


def derive(
    d: Deriver,
    profile: Profile,
    name: str,
    params: dict[str, Any],
    withheld: frozenset[str],
    when: dt.datetime,
) -> Derived:
    fn = TRANSFORMS.get(name)
    if fn is None:
        raise DerivationError(f"unknown transform {name!r}")
    try:
        return fn(d, profile, params, withheld, when)
    except (KeyError, TypeError, IndexError) as exc:
        raise DerivationError(f"{name}: params {params} do not fit the profile ({exc})") from None


def _at(fact: Any, when: dt.datetime) -> Any:
    return fact.value_at(when.isoformat(timespec="minutes")) if fact.history else fact.value


@transform("identity")
def identity(
    d: Deriver, p: Profile, params: dict[str, Any], _: frozenset[str], when: dt.datetime
) -> Derived:
    entity, fact = d.fact(p, params["entity"], params["attribute"])
    value = _at(fact, when)
    facts = {fact.id}
    named: list[Callable[[], str]] = [lambda: d.label(entity, fact.attribute)]
    if "condition" in params:
        cond = d.fact(p, entity.id, params["condition"])[1]
        shown = d.display(entity, cond, _at(cond, when))
        if squash(shown) != squash(str(params.get("condition_value"))):
            raise DerivationError(
                f"condition {cond.id} is {shown!r}, not {params.get('condition_value')!r}"
            )
        rivals = [
            e.id
            for e in p.entities
            if e.id != entity.id
            and e.scenario == entity.scenario
            and cond.attribute in e.facts
            and squash(d.display(e, e.facts[cond.attribute], _at(e.facts[cond.attribute], when)))
            == squash(shown)
        ]
        if rivals:
            raise DerivationError(f"the condition {shown!r} also holds for {rivals}")
        facts.add(cond.id)
        named += [lambda: d.label(entity, cond.attribute), lambda: shown]
    else:
        # the user is asked about as "my ...", not by the pronoun the messages use
        user = entity.scenario == "user"
        named.append(lambda: d.loc.self_forms.whose if user else d.who(entity))
    others = tuple(
        d.display(entity, fact, step.value) for step in fact.history if step.value != value
    )
    return Derived(
        d.display(entity, fact, value),
        value,
        frozenset(facts),
        d.value_means(entity, fact, value, when),
        others,
        lambda: tuple(f() for f in named),
    )


@transform("compare")
def compare(
    d: Deriver, p: Profile, params: dict[str, Any], withheld: frozenset[str], when: dt.datetime
) -> Derived:
    attr = params["attribute"]
    a, fa = d.fact(p, params["first"], attr)
    b, fb = d.fact(p, params["second"], attr)
    words = d.loc.questions.comparative_options
    if fb.id in withheld or fa.id in withheld:
        outcome, facts = "unknown", {f.id for f in (fa, fb) if f.id not in withheld}
    else:
        vx, vy = _at(fa, when), _at(fb, when)
        x, y = d.key(a, fa, vx), d.key(b, fb, vy)
        outcome = "first" if x > y else "second" if y > x else "same"
        margin = float(params.get("margin") or 0)  # stated in the question
        if margin and within_margin(fa.type, vx, vy, margin):
            outcome = "same"
        facts = {fa.id, fb.id}
    text = {
        "first": capitalize_first(d.as_option(a)),
        "second": capitalize_first(d.as_option(b)),
        "same": words["same"],
        "unknown": words["unknown"],
    }[outcome]
    return Derived(
        text,
        outcome,
        frozenset(facts),
        d.text_means(text),
        terms=lambda: (d.who(a), d.who(b), d.label(a, attr)),
    )


@transform("count")
def count(
    d: Deriver, p: Profile, params: dict[str, Any], _: frozenset[str], when: dt.datetime
) -> Derived:
    attr, op = params["attribute"], params["op"]
    named = [d.fact(p, e, attr) for e in params["entities"]]
    scenario = {e.scenario for e, _ in named}
    pools = {pool_of(d.schema, e.kind) for e, _ in named}
    group = {
        e.id for e in p.entities if e.scenario in scenario and pool_of(d.schema, e.kind) in pools
    }
    if set(params["entities"]) != group:
        raise DerivationError(f"counts over {params['entities']}, the group is {sorted(group)}")
    first_entity, first_fact = named[0]
    if op == "eq":  # equality needs no order (unordered categoricals are counted this way)
        number = sum(str(_at(f, when)) == str(params["threshold"]) for _, f in named)
    else:
        threshold = d.key(first_entity, first_fact, params["threshold"])
        number = sum(bool(COMPARE[op](d.key(e, f, _at(f, when)), threshold)) for e, f in named)
    shown = d.display(first_entity, first_fact, params["threshold"])
    own = word(d.schema, first_entity.kind, attr, d.loc.code, op)
    unit = d.schema.attributes_of(first_entity.kind)[attr].unit
    predicate = (own or d.loc.questions.predicate(op, attr, unit)).format(value=shown)
    return Derived(
        str(number),
        number,
        frozenset(f.id for _, f in named),
        d.number_means(number),
        terms=lambda: (d.label(first_entity, attr), predicate),
    )


def _number(
    number: int, facts: set[str], d: Deriver, terms: Callable[[], tuple[str, ...]]
) -> Derived:
    return Derived(str(number), number, frozenset(facts), d.number_means(number), terms=terms)


@transform("digit_sum")
def digit_sum(
    d: Deriver, p: Profile, params: dict[str, Any], _: frozenset[str], when: dt.datetime
) -> Derived:
    entity, fact = d.fact(p, params["entity"], params["attribute"])
    k = int(params["k"])
    digits = [int(c) for c in str(_at(fact, when)) if c.isdigit()]
    if len(digits) < k:
        raise DerivationError(f"{fact.id} has fewer than {k} digits")
    return _number(
        sum(digits[-k:]), {fact.id}, d, lambda: (d.who(entity), d.label(entity, fact.attribute))
    )


@transform("age_difference")
def age_difference(
    d: Deriver, p: Profile, params: dict[str, Any], _: frozenset[str], when: dt.datetime
) -> Derived:
    (a, fa), (b, fb) = (d.fact(p, e, params["attribute"]) for e in params["entities"])
    number = abs(int(_at(fa, when)) - int(_at(fb, when)))
    return _number(number, {fa.id, fb.id}, d, lambda: (d.who(a), d.who(b)))


@transform("difference")
def difference(
    d: Deriver, p: Profile, params: dict[str, Any], withheld: frozenset[str], when: dt.datetime
) -> Derived:
    """An age difference said in the attribute's unit ("6 hours", "6小时")."""
    found = age_difference(d, p, params, withheld, when)
    entity = p.entity(params["entities"][0])
    unit = d.attribute(entity, params["attribute"]).unit
    shown = d.loc.with_unit_of(found.display, unit)
    if shown == found.display:
        return found
    return replace(found, display=shown, means=d.number_means(int(found.value), unit))


@transform("days_between")
def days_between(
    d: Deriver, p: Profile, params: dict[str, Any], _: frozenset[str], when: dt.datetime
) -> Derived:
    pairs = [d.fact(p, e, a) for e, a in zip(params["entities"], params["attributes"], strict=True)]
    (a, fa), (b, fb) = pairs
    days = [dt.date.fromisoformat(str(_at(f, when))[:10]) for f in (fa, fb)]
    return _number(abs((days[0] - days[1]).days), {fa.id, fb.id}, d, lambda: (d.who(a), d.who(b)))


@transform("season")
def season(
    d: Deriver, p: Profile, params: dict[str, Any], _: frozenset[str], when: dt.datetime
) -> Derived:
    entity, fact = d.fact(p, params["entity"], params["attribute"])
    month = int(str(_at(fact, when)).split("-")[-2])
    names = [name for name, months in d.loc.seasons.items() if month in months]
    if len(names) != 1:
        raise DerivationError(f"month {month} is in {len(names)} seasons of the locale")
    return Derived(
        names[0],
        names[0],
        frozenset({fact.id}),
        d.text_means(names[0]),
        terms=lambda: (d.who(entity), d.label(entity, fact.attribute)),
    )


@transform("weekday")
def weekday(
    d: Deriver, p: Profile, params: dict[str, Any], _: frozenset[str], when: dt.datetime
) -> Derived:
    entity, fact = d.fact(p, params["entity"], params["attribute"])
    day = dt.date.fromisoformat(str(_at(fact, when))[:10])
    name = d.loc.calendar.weekdays[day.weekday()]
    return Derived(
        name, name, frozenset({fact.id}), d.text_means(name), terms=lambda: (d.who(entity),)
    )


@transform("email_domain")
def email_domain(
    d: Deriver, p: Profile, params: dict[str, Any], _: frozenset[str], when: dt.datetime
) -> Derived:
    entity, fact = d.fact(p, params["entity"], params["attribute"])
    value = str(_at(fact, when))
    if "@" not in value:
        raise DerivationError(f"{fact.id} = {value!r} is not an e-mail address")
    domain = value.split("@", 1)[1]
    return Derived(
        domain,
        domain,
        frozenset({fact.id}),
        d.text_means(domain),
        terms=lambda: (d.who(entity), d.label(entity, fact.attribute)),
    )


@transform("hybrid")
def hybrid(
    d: Deriver, p: Profile, params: dict[str, Any], withheld: frozenset[str], when: dt.datetime
) -> Derived:
    parts = [
        derive(d, p, str(part["transform"]), part["params"], withheld, when)
        for part in params["parts"]
    ]
    if len(parts) != 2:
        raise DerivationError(f"a hybrid has {len(parts)} parts")
    join = d.loc.questions.answer_join
    first, second = parts

    def means(option: str) -> bool:
        cuts = [i for i in range(len(option)) if option.startswith(join, i)]
        return any(first.means(option[:i]) and second.means(option[i + len(join) :]) for i in cuts)

    return Derived(
        first.display + join + second.display,
        [first.value, second.value],
        first.facts | second.facts,
        means,
        terms=lambda: first.needles + second.needles,
    )


__all__ = ["TRANSFORMS", "derive"]
