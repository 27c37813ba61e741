"""count_between and first_of over the option prior's sample in columns: the named events'
days (slot x profile) and, per profile and scenario, how many of its entities have a
date-time of the attribute, so that every sampled profile is answered at once.

Guarantee: :func:`count_between` and :func:`first_of` return the same Counter, in the
same order, as :data:`memsim.audit._lean.LEAN`'s on each (profile, mapping) pair,
skipping the pairs it refuses; whenever that cannot be shown from the columns (a value
that is not a date, a profile with a repeated entity id, parameters it cannot read) they
return None and the caller derives profile by profile.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from memsim.audit._lean import day_bounds

if TYPE_CHECKING:
    from memsim.audit._columns import Columns, Pairs

Codes = npt.NDArray[np.int64]


class Events:
    """One attribute's days by (slot, profile) and its dated entities per scenario."""

    def __init__(self, columns: Columns, attr: str, days: Codes):
        self.days = days  # the date's ordinal (0: no such fact; the last slot row too)
        shape = (len(columns.entities), len(columns.profiles))
        self.scenario = np.full(shape, -1, dtype=np.int64)
        self.dated = np.zeros(shape, dtype=bool)
        scenarios: dict[str, int] = {}
        for s, cells in enumerate(columns.entities):
            for r, e in enumerate(cells):
                if e is not None:
                    self.scenario[s, r] = scenarios.setdefault(e.scenario, len(scenarios))
                    self.dated[s, r] = attr in e.facts and e.facts[attr].type == "datetime"
        # per profile and scenario, its dated entities (one slot each: ids do not repeat)
        self.per_scenario = np.zeros((len(columns.profiles), len(scenarios) + 1), np.int64)
        where = np.argwhere(self.dated)
        np.add.at(self.per_scenario, (where[:, 1], self.scenario[where[:, 0], where[:, 1]]), 1)

    @classmethod
    def of(cls, columns: Columns, attr: str) -> Events | None:
        if columns.repeated_ids:
            return None  # a repeated id: which entity counts, the profile says
        found = columns.codes(attr)
        if found is None:
            return None
        matrix, values = found
        try:
            ordinals = [dt.datetime.fromisoformat(str(v)).date().toordinal() for v in values]
        except Exception:  # refused, or raised, profile by profile as it would be
            return None
        return cls(columns, attr, np.array([*ordinals, 0], dtype=np.int64)[matrix])


def _named(
    columns: Columns, params: dict[str, Any], pairs: Pairs
) -> tuple[Events, Codes, Codes, npt.NDArray[np.bool_]] | None:
    """The attribute's events, each pair's row, the named slots (entity x pair), and
    whether every named entity has the attribute's fact."""
    try:
        attr, entities = str(params["attribute"]), [str(e) for e in params["entities"]]
    except (KeyError, TypeError):
        return None
    events = columns.events(attr)
    if events is None or not entities:
        return None
    picked = [columns.pick(pairs, e) for e in entities]
    rows = picked[0][0]
    slots = np.stack([s for _, s in picked])
    codes = columns.codes(attr)
    assert codes is not None
    has = np.asarray((codes[0][slots, rows] >= 0).all(axis=0), dtype=bool)
    return events, rows, slots, has


def count_between(columns: Columns, params: dict[str, Any], pairs: Pairs) -> Counter[Any] | None:
    """The named events on a day between start and end; a profile is refused where one
    is missing or the named ones are not all its scenarios' dated events."""
    found = _named(columns, params, pairs)
    if found is None:
        return None
    events, rows, slots, has = found
    try:
        first, last = (day_bounds(str(params[k]))[0].toordinal() for k in ("start", "end"))
    except Exception:  # let the per-profile path raise it as it would
        return None
    # the named ids, as a set, must be the dated events of the named events' scenarios:
    # every one dated, and as many distinct ones as those scenarios have dated events
    distinct = np.zeros(rows.shape, dtype=np.int64)
    dated_there = np.zeros(rows.shape, dtype=np.int64)
    scenario = events.scenario[slots, rows]
    for k in range(len(slots)):
        earlier = slots[:k]
        distinct += (earlier != slots[k]).all(axis=0)
        new = (scenario[:k] != scenario[k]).all(axis=0)
        dated_there += np.where(new, events.per_scenario[rows, scenario[k]], 0)
    ok = has & events.dated[slots, rows].all(axis=0) & (distinct == dated_there)
    days = events.days[slots[:, ok], rows[ok]]
    number = ((days >= first) & (days <= last)).sum(axis=0)
    return _ordered(number, int)


def first_of(columns: Columns, params: dict[str, Any], pairs: Pairs) -> Counter[Any] | None:
    """The named event with the earliest day (its id in the sampled profile); a profile
    is refused where one is missing or two are on one day."""
    found = _named(columns, params, pairs)
    if found is None:
        return None
    events, rows, slots, has = found
    days = events.days[slots, rows]
    apart = np.ones(rows.shape, dtype=bool)
    for k in range(1, len(slots)):
        apart &= (days[:k] != days[k]).all(axis=0)
    ok = has & apart
    earliest = slots[days[:, ok].argmin(axis=0), np.flatnonzero(ok)]
    return _ordered(earliest, lambda c: columns.slot_names[c])


def _ordered(codes: Codes, label: Any) -> Counter[Any]:
    # imported here: _columns imports this module, for its dispatch
    from memsim.audit._columns import _ordered as ordered

    return ordered(codes, label)


__all__ = ["Events", "count_between", "first_of"]
