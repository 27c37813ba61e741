"""The raw answer value of the costliest history transforms (value_at, count_between,
first_of) for the option prior's sample: the same computation and the same refusals as
:mod:`memsim.audit._histories`, without rendering the answer's text, its needles and
its meaning, which the prior never reads (it counts values). With nothing withheld, as
the prior derives them."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from memsim.audit._derive import DerivationError, Deriver
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
    return tuple(value) if isinstance(value, list) else value


def count_between(d: Deriver, p: Profile, params: dict[str, Any], when: dt.datetime) -> Any:
    attr = params["attribute"]
    events = [d.fact(p, e, attr) for e in params["entities"]]
    scenario = {e.scenario for e, _ in events}
    dated = {
        e.id
        for e in p.entities
        if e.scenario in scenario and attr in e.facts and e.facts[attr].type == "datetime"
    }
    if {e.id for e, _ in events} != dated:
        raise DerivationError(f"counts over {params['entities']}, the events are {sorted(dated)}")
    first, last = (day_bounds(str(params[k]))[0] for k in ("start", "end"))
    return sum(first <= _day(f) <= last for _, f in events)


def first_of(d: Deriver, p: Profile, params: dict[str, Any], when: dt.datetime) -> Any:
    events = [d.fact(p, e, params["attribute"]) for e in params["entities"]]
    days = sorted(_day(f) for _, f in events)
    if len(set(days)) != len(days):
        raise DerivationError("two of the events are on one day")
    return min(events, key=lambda ef: _day(ef[1]))[0].id


LEAN: dict[str, Lean] = {
    "value_at": value_at,
    "count_between": count_between,
    "first_of": first_of,
}
"""Transform -> its raw value. Errors: the same as the transform's (the caller skips the
profile on DerivationError, KeyError, TypeError or IndexError, as derive() turns the last
three into DerivationError)."""

__all__ = ["LEAN", "Lean", "day_bounds"]
