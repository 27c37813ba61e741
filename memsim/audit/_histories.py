"""Re-derivations of the answers that read value histories and times (knowledge_update,
temporal, abstention), from the profile's histories alone: written apart from
:mod:`memsim.qa` (nothing here calls it), like :mod:`memsim.audit._transforms`, whose
registry they join.

- ``current_value``: the value in force when the question is asked;
- ``value_before``: the value just before change k (the question names its day);
- ``value_at``: the value in force on the day the question names;
- ``elapsed``: calendar days (or whole weeks, rounded down) from change k's day to
  the day the question is asked;
- ``first_of``: the earliest of the events, or "never told" when one time is withheld;
- ``count_between``: the events whose day is inside the window, both ends included;
- ``date_of``: the event's day;
- ``never_told``: the asked fact is withheld; the answer is "never told";
- ``false_premise``: no entity of the profile is named as the question names one.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from memsim.audit._derive import DerivationError, Derived, Deriver
from memsim.audit._transforms import transform
from memsim.profile import Entity, Fact, Profile
from memsim.verbalize import capitalize_first, refer, render_date


def _step(fact: Fact, k: int) -> tuple[Any, dt.datetime]:
    """(value, day it began) of change k of the fact's history."""
    if not 1 <= k < len(fact.history):
        raise DerivationError(f"{fact.id} has no change {k}")
    since = fact.history[k].since
    assert since is not None
    return fact.history[k].value, dt.datetime.fromisoformat(since)


def changed_value(fact: Fact, when: dt.datetime) -> Any:
    """The value in force at ``when`` of a fact that changed (current_value's answer), or
    the refusal."""
    if len(fact.history) < 2:
        raise DerivationError(f"{fact.id} never changes")
    return fact.value_at(when.isoformat(timespec="minutes"))


def value_before_change(fact: Fact, k: int, when: dt.datetime) -> tuple[Any, dt.datetime]:
    """(value before change ``k``, the day the change began): value_before's answer, or
    the refusal."""
    _, began = _step(fact, k)
    if began >= when:
        raise DerivationError(f"change {k} of {fact.id} is not before the question")
    return fact.history[k - 1].value, began


def elapsed_since(fact: Fact, params: dict[str, Any], when: dt.datetime) -> tuple[Any, int]:
    """(the value change ``params["change"]`` made, the days or full weeks from it to
    ``when``): elapsed's answer, or the refusal."""
    value, began = _step(fact, int(params["change"]))
    days = (when.date() - began.date()).days
    if days < 0:
        raise DerivationError("the change is after the question")
    unit = params["unit"]
    if unit not in ("days", "weeks"):
        raise DerivationError(f"unknown unit {unit!r}")
    return value, days if unit == "days" else days // 7


def _whose(d: Deriver, entity: Entity) -> str:
    forms = d.loc.self_forms if entity.scenario == "user" else d.loc.other_forms
    return forms.whose.format(who=d.who(entity))


def _value(d: Deriver, entity: Entity, fact: Fact, value: Any, when: dt.datetime) -> Derived:
    # the values the fact held at other times are these questions' distractors by design
    return Derived(
        d.display(entity, fact, value),
        value,
        frozenset({fact.id}),
        d.value_means(entity, fact, value, when),
        terms=lambda: (_whose(d, entity), d.label(entity, fact.attribute)),
    )


@transform("current_value")
def current_value(
    d: Deriver, p: Profile, params: dict[str, Any], _: frozenset[str], when: dt.datetime
) -> Derived:
    entity, fact = d.fact(p, params["entity"], params["attribute"])
    return _value(d, entity, fact, changed_value(fact, when), when)


@transform("value_before")
def value_before(
    d: Deriver, p: Profile, params: dict[str, Any], _: frozenset[str], when: dt.datetime
) -> Derived:
    entity, fact = d.fact(p, params["entity"], params["attribute"])
    value, began = value_before_change(fact, int(params["change"]), when)
    found = _value(d, entity, fact, value, when)
    day = render_date(began.date(), d.loc)
    return Derived(**{**found.__dict__, "terms": lambda: (*found.needles, day)})


@transform("value_at")
def value_at(
    d: Deriver, p: Profile, params: dict[str, Any], _: frozenset[str], when: dt.datetime
) -> Derived:
    entity, fact = d.fact(p, params["entity"], params["attribute"])
    day = dt.date.fromisoformat(str(params["day"]))
    if day >= when.date():
        raise DerivationError(f"{day} is not before the question")
    start, end = (dt.datetime.combine(day, t) for t in (dt.time(0), dt.time(23, 59)))
    value = fact.value_at(end.isoformat(timespec="minutes"))
    if fact.value_at(start.isoformat(timespec="minutes")) != value:
        raise DerivationError(f"{fact.id} changes on {day}: the day has no one value")
    found = _value(d, entity, fact, value, when)
    shown = render_date(day, d.loc)
    return Derived(**{**found.__dict__, "terms": lambda: (*found.needles, shown)})


@transform("elapsed")
def elapsed(
    d: Deriver, p: Profile, params: dict[str, Any], _: frozenset[str], when: dt.datetime
) -> Derived:
    entity, fact = d.fact(p, params["entity"], params["attribute"])
    value, number = elapsed_since(fact, params, when)
    shown = d.display(entity, fact, value)
    return Derived(
        str(number),
        number,
        frozenset({fact.id}),
        d.number_means(number),
        terms=lambda: (_whose(d, entity), d.label(entity, fact.attribute), shown),
    )


def _events(d: Deriver, p: Profile, params: dict[str, Any]) -> list[tuple[Entity, Fact]]:
    return [d.fact(p, e, params["attribute"]) for e in params["entities"]]


def _day(fact: Fact) -> dt.date:
    return dt.datetime.fromisoformat(str(fact.value)).date()


@transform("first_of")
def first_of(
    d: Deriver, p: Profile, params: dict[str, Any], withheld: frozenset[str], when: dt.datetime
) -> Derived:
    events = _events(d, p, params)
    told = [(e, f) for e, f in events if f.id not in withheld]
    if len(told) < len(events):
        text, value = d.loc.history.never_told, "unknown"
    else:
        days = sorted(_day(f) for _, f in events)
        if len(set(days)) != len(days):
            raise DerivationError("two of the events are on one day")
        first = min(events, key=lambda ef: _day(ef[1]))[0]
        text, value = capitalize_first(d.as_option(first)), first.id
    return Derived(
        text,
        value,
        frozenset(f.id for _, f in told),
        d.text_means(text),
        terms=lambda: tuple(d.who(e) for e, _ in events),
    )


@transform("count_between")
def count_between(
    d: Deriver, p: Profile, params: dict[str, Any], _: frozenset[str], when: dt.datetime
) -> Derived:
    events = _events(d, p, params)
    scenario = {e.scenario for e, _ in events}
    dated = {
        e.id
        for e in p.entities
        if e.scenario in scenario
        and params["attribute"] in e.facts
        and e.facts[params["attribute"]].type == "datetime"
    }
    if {e.id for e, _ in events} != dated:
        raise DerivationError(f"counts over {params['entities']}, the events are {sorted(dated)}")
    first, last = (dt.date.fromisoformat(str(params[k])) for k in ("start", "end"))
    number = sum(first <= _day(f) <= last for _, f in events)
    shown = (render_date(first, d.loc), render_date(last, d.loc))
    return Derived(
        str(number),
        number,
        frozenset(f.id for _, f in events),
        d.number_means(number),
        terms=lambda: shown,
    )


@transform("date_of")
def date_of(
    d: Deriver, p: Profile, params: dict[str, Any], _: frozenset[str], when: dt.datetime
) -> Derived:
    entity, fact = d.fact(p, params["entity"], params["attribute"])
    day = _day(fact)
    text = render_date(day, d.loc)
    return Derived(
        text,
        day.isoformat(),
        frozenset({fact.id}),
        d.text_means(text),
        terms=lambda: (d.who(entity),),
    )


@transform("never_told")
def never_told(
    d: Deriver, p: Profile, params: dict[str, Any], withheld: frozenset[str], when: dt.datetime
) -> Derived:
    entity, fact = d.fact(p, params["entity"], params["attribute"])
    if fact.id not in withheld:
        raise DerivationError(f"{fact.id} is not withheld, yet the answer is 'never told'")
    told = frozenset(f"{entity.id}.{a}" for a in params.get("told", ()))
    text = d.loc.history.never_told_answer.format(
        whose=_whose(d, entity), label=d.label(entity, fact.attribute)
    )
    # asked with the simple kind's wording: "the age of my mother", "my age"
    named = d.loc.self_forms.whose if entity.scenario == "user" else d.who(entity)
    return Derived(text, "never_told", told, d.text_means(text), terms=lambda: (named,))


@transform("false_premise")
def false_premise(
    d: Deriver, p: Profile, params: dict[str, Any], _: frozenset[str], when: dt.datetime
) -> Derived:
    kind, naming, attr = params["kind"], dict(params["naming"]), params["attribute"]
    mates = [e for e in p.entities if e.kind == kind]
    if not mates or len(naming) != 1:
        raise DerivationError(f"no {kind} to name, or not one naming attribute: {naming}")
    (name_attr, value), model = next(iter(naming.items())), mates[0]
    for e in mates:
        if any(str(s.value) == str(value) for s in e.facts[name_attr].history) or str(
            e.facts[name_attr].value
        ) == str(value):
            raise DerivationError(f"{e.id} is named by {name_attr} = {value!r}: it exists")
    model_fact = model.facts[name_attr]
    ghost_fact = Fact(model_fact.id, name_attr, model_fact.type, value, model_fact.unit)
    ghost = Entity(f"{kind}[absent]", kind, -1, model.scenario, {name_attr: ghost_fact})
    who = refer(ghost, d.schema.entities[kind].refer.get(d.loc.code, ""), d.loc)
    whose = d.loc.other_forms.whose.format(who=who)
    text = d.loc.history.never_told_answer.format(whose=whose, label=d.label(model, attr))
    return Derived(
        text,
        "never_told",
        frozenset(f"{e.id}.{name_attr}" for e in mates),
        d.text_means(text),
        terms=lambda: (who, d.label(model, attr)),
    )


__all__ = [
    "count_between",
    "current_value",
    "date_of",
    "elapsed",
    "false_premise",
    "first_of",
    "never_told",
    "value_at",
    "value_before",
]
