"""memsim.verify on a whole generated dataset: every fact a message carries is
recognised as stated, and the same messages do not state wrong values."""

from __future__ import annotations

import datetime as dt
from typing import Any

from memsim.profile import Profile
from memsim.verbalize import value_at
from memsim.verify import StatedFact, fact_stated


def _statements(records: list[dict[str, Any]], profiles: dict[str, dict[str, Any]]):  # type: ignore[no-untyped-def]
    loaded = {pid: Profile.from_json(p) for pid, p in profiles.items()}
    for rec in records:
        profile = loaded[rec["profile_id"]]
        for m in rec["message_list"]:
            when = dt.datetime.fromisoformat(m["time"])
            for fid in m["facts"]:
                if ":" in fid:  # noise: a fact of another profile
                    continue
                entity_id, attr = fid.rsplit(".", 1)
                entity = profile.entity(entity_id)
                fact = entity.facts[attr]
                yield m["message"], StatedFact(entity, fact, value_at(fact, when), when)


def test_every_message_states_its_facts(
    records: list[dict[str, Any]], profiles: dict[str, dict[str, Any]], locale: Any
) -> None:
    missed = [
        f"{s.fact.id}={s.value!r}: {text}"
        for text, s in _statements(records, profiles)
        if not fact_stated(text, s, locale)
    ]
    assert not missed, missed[:10]


def _wrong(stated: StatedFact) -> object:
    """A value the fact does not have: a nearby number, day or time."""
    value = stated.value
    if stated.fact.type == "integer":
        return int(value) + 1
    if stated.fact.type == "month_day":
        month, day = (int(x) for x in str(value).split("-"))
        return f"{month:02d}-{day % 28 + 1:02d}"
    if stated.fact.type == "datetime":
        when = dt.datetime.fromisoformat(str(value))
        return (when + dt.timedelta(days=7)).isoformat(timespec="minutes")
    return None


def test_wrong_numbers_days_and_times_are_not_stated(
    records: list[dict[str, Any]], profiles: dict[str, dict[str, Any]], locale: Any
) -> None:
    checked, accepted = 0, []
    for text, s in _statements(records, profiles):
        wrong = _wrong(s)
        if wrong is None:
            continue
        checked += 1
        if fact_stated(text, StatedFact(s.entity, s.fact, wrong, s.said_at), locale):
            accepted.append(f"{s.fact.id}: {wrong!r} in {text}")
    assert checked > 500
    assert not accepted, accepted[:10]
