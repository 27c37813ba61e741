"""The raw answer value of the history transforms (value_at, count_between, first_of,
current_value, value_before, elapsed, date_of)
and the number and text transforms that render nothing else (digit_sum, difference,
days_between, season, weekday, email_domain) for the option prior's sample: the same
computation and the same refusals as :mod:`memsim.audit._histories` and
:mod:`memsim.audit._transforms`, without building the answer's text, its needles and its
meaning, which the prior never reads (it counts values). With nothing withheld, as the
prior derives them."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from memsim.audit._derive import DerivationError, Deriver
from memsim.audit._histories import changed_value, elapsed_since, value_before_change
from memsim.audit._transforms import _at
from memsim.profile import Fact, Profile

Lean = Callable[[Deriver, Profile, dict[str, Any], dt.datetime], Any]


# A question's days are parsed once, not once per sample profile (the prior derives
# each question on 1,000 of them), and an event's time once for all the questions.
@lru_cache(maxsize=8192)
def _parse_day(text: str) -> dt.date:
    return dt.datetime.fromisoformat(text).date()


@lru_cache(maxsize=1024)
def day_bounds(text: str) -> tuple[dt.date, str, str]:
    day = dt.date.fromisoformat(text)
    return day, f"{day.isoformat()}T00:00", f"{day.isoformat()}T23:59"


def _day(fact: Fact) -> dt.date:
    return _parse_day(str(fact.value))


def value_at(d: Deriver, p: Profile, params: dict[str, Any], when: dt.datetime) -> Any:
    _, fact = d.fact(p, params["entity"], params["attribute"])
    day, start, end = day_bounds(str(params["day"]))
    if day >= when.date():
        raise DerivationError(f"{day} is not before the question")
    value = fact.value_at(end)
    if fact.value_at(start) != value:
        raise DerivationError(f"{fact.id} changes on {day}: the day has no one value")
    return _hashable(value)


def _hashable(value: Any) -> Any:
    """A list value as a tuple: the prior counts answers in dicts."""
    return tuple(value) if isinstance(value, list) else value


def count_between(d: Deriver, p: Profile, params: dict[str, Any], when: dt.datetime) -> Any:
    days = _event_days(p, params["attribute"], params["entities"])
    first, last = (day_bounds(str(params[k]))[0] for k in ("start", "end"))
    return sum(first <= day <= last for day in days)


def _event_days(p: Profile, attr: str, entities: list[str]) -> tuple[dt.date, ...]:
    """The days of the named events, or the refusal: once per profile, attribute and
    entities in any order (the questions of one scenario name the same events, each in
    its own order, and the prior asks every sample profile about each; neither the
    refusal nor the count depends on the order)."""
    key = ("audit event days", attr, *sorted(entities))
    found: tuple[dt.date, ...] | str | None = p.memo.get(key)
    if found is None:
        try:
            found = p.memo[key] = _checked_days(p, attr, entities)
        except DerivationError as exc:
            p.memo[key] = str(exc)
            raise
    if isinstance(found, str):
        raise DerivationError(found)
    return found


def _checked_days(p: Profile, attr: str, entities: list[str]) -> tuple[dt.date, ...]:
    facts, dated_in = _events_of(p, attr)
    events = []
    for e in entities:
        found = facts.get(e)
        if found is None:  # as Deriver.fact refuses an entity or a fact it lacks
            raise DerivationError(f"profile {p.id} has no {e}.{attr}")
        events.append(found)
    scenario = {s for s, _, _ in events}
    dated = set().union(*(dated_in.get(s, ()) for s in scenario))
    if {e for _, e, _ in events} != dated:
        raise DerivationError(f"counts over {entities}, the events are {sorted(dated)}")
    return tuple(_day(f) for _, _, f in events)


def _events_of(
    p: Profile, attr: str
) -> tuple[dict[str, tuple[str, str, Fact]], dict[str, frozenset[str]]]:
    """The entities of ``p`` with ``attr``, by id as ``Profile.entity`` finds them
    (scenario, id, fact), and per scenario the ids of those whose ``attr`` is a
    date-time: once per profile, since the prior asks each sample profile about every
    count."""
    key = ("audit events", attr)
    found = p.memo.get(key)
    if found is None:
        facts: dict[str, tuple[str, str, Fact]] = {}
        ids: dict[str, set[str]] = {}
        first: set[str] = set()
        for e in p.entities:
            if attr in e.facts and e.facts[attr].type == "datetime":
                ids.setdefault(e.scenario, set()).add(e.id)
            if e.id not in first:  # the first of a repeated id, as Profile.entity finds
                first.add(e.id)
                if attr in e.facts:
                    facts[e.id] = (e.scenario, e.id, e.facts[attr])
        found = p.memo[key] = facts, {s: frozenset(x) for s, x in ids.items()}
    return found


def first_of(d: Deriver, p: Profile, params: dict[str, Any], when: dt.datetime) -> Any:
    events = [d.fact(p, e, params["attribute"]) for e in params["entities"]]
    days = sorted(_day(f) for _, f in events)
    if len(set(days)) != len(days):
        raise DerivationError("two of the events are on one day")
    return min(events, key=lambda ef: _day(ef[1]))[0].id


def digit_sum(d: Deriver, p: Profile, params: dict[str, Any], when: dt.datetime) -> Any:
    _, fact = d.fact(p, params["entity"], params["attribute"])
    return digit_sum_of(d, _at(fact, when), params)


def digit_sum_of(d: Deriver, value: Any, params: dict[str, Any]) -> Any:
    k = int(params["k"])
    digits = [int(c) for c in str(value) if c.isdigit()]
    if len(digits) < k:
        raise DerivationError(f"{value!r} has fewer than {k} digits")
    return sum(digits[-k:])


def difference(d: Deriver, p: Profile, params: dict[str, Any], when: dt.datetime) -> Any:
    # unpacked from a generator, as the transform does: a third entity is looked up first
    (_, fa), (_, fb) = (d.fact(p, e, params["attribute"]) for e in params["entities"])
    return abs(int(_at(fa, when)) - int(_at(fb, when)))


def days_between(d: Deriver, p: Profile, params: dict[str, Any], when: dt.datetime) -> Any:
    pairs = [d.fact(p, e, a) for e, a in zip(params["entities"], params["attributes"], strict=True)]
    (_, fa), (_, fb) = pairs
    days = [dt.date.fromisoformat(str(_at(f, when))[:10]) for f in (fa, fb)]
    return abs((days[0] - days[1]).days)


def season(d: Deriver, p: Profile, params: dict[str, Any], when: dt.datetime) -> Any:
    _, fact = d.fact(p, params["entity"], params["attribute"])
    return season_of(d, _at(fact, when), params)


def season_of(d: Deriver, value: Any, params: dict[str, Any]) -> Any:
    month = int(str(value).split("-")[-2])
    names = [name for name, months in d.loc.seasons.items() if month in months]
    if len(names) != 1:
        raise DerivationError(f"month {month} is in {len(names)} seasons of the locale")
    return names[0]


def weekday(d: Deriver, p: Profile, params: dict[str, Any], when: dt.datetime) -> Any:
    _, fact = d.fact(p, params["entity"], params["attribute"])
    return weekday_of(d, _at(fact, when), params)


def weekday_of(d: Deriver, value: Any, params: dict[str, Any]) -> Any:
    day = dt.date.fromisoformat(str(value)[:10])
    return d.loc.calendar.weekdays[day.weekday()]


def email_domain(d: Deriver, p: Profile, params: dict[str, Any], when: dt.datetime) -> Any:
    _, fact = d.fact(p, params["entity"], params["attribute"])
    return email_domain_of(d, _at(fact, when), params)


def email_domain_of(d: Deriver, value: Any, params: dict[str, Any]) -> Any:
    text = str(value)
    if "@" not in text:
        raise DerivationError(f"{text!r} is not an e-mail address")
    return text.split("@", 1)[1]


def current_value(d: Deriver, p: Profile, params: dict[str, Any], when: dt.datetime) -> Any:
    _, fact = d.fact(p, params["entity"], params["attribute"])
    return _hashable(changed_value(fact, when))


def value_before(d: Deriver, p: Profile, params: dict[str, Any], when: dt.datetime) -> Any:
    _, fact = d.fact(p, params["entity"], params["attribute"])
    return _hashable(value_before_change(fact, int(params["change"]), when)[0])


def elapsed(d: Deriver, p: Profile, params: dict[str, Any], when: dt.datetime) -> Any:
    _, fact = d.fact(p, params["entity"], params["attribute"])
    return elapsed_since(fact, params, when)[1]


def date_of(d: Deriver, p: Profile, params: dict[str, Any], when: dt.datetime) -> Any:
    _, fact = d.fact(p, params["entity"], params["attribute"])
    return date_of_value(d, fact.value, params)


def date_of_value(d: Deriver, value: Any, params: dict[str, Any]) -> Any:
    """The day of a fact's first value (what date_of answers; _day reads it so too)."""
    return _parse_day(str(value)).isoformat()


LEAN: dict[str, Lean] = {
    "current_value": current_value,
    "value_before": value_before,
    "elapsed": elapsed,
    "date_of": date_of,
    "value_at": value_at,
    "count_between": count_between,
    "first_of": first_of,
    "digit_sum": digit_sum,
    "age_difference": difference,
    "difference": difference,
    "days_between": days_between,
    "season": season,
    "weekday": weekday,
    "email_domain": email_domain,
}
"""Transform -> its raw value. Errors: the same as the transform's (the caller skips the
profile on DerivationError, KeyError, TypeError or IndexError, as derive() turns the last
three into DerivationError)."""

OF_VALUE: dict[str, Callable[[Deriver, Any, dict[str, Any]], Any]] = {
    "digit_sum": digit_sum_of,
    "season": season_of,
    "weekday": weekday_of,
    "email_domain": email_domain_of,
    "date_of": date_of_value,
}
"""The transforms whose raw value is a function of one value (date_of: the fact's first
one; the others: the one in force at the question's time), by that function, with the
same errors as the transform's (but for the fact's id in their messages)."""

__all__ = ["LEAN", "OF_VALUE", "Lean", "day_bounds"]
