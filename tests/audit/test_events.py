"""count_between and first_of over the option prior's sample in columns give the same
counts, in the same order, as the lean per-profile path (memsim.audit._lean.LEAN) on
sampled profiles: a missing event, events of other scenarios, events outside the named
set, two events on one day, and mappings that differ by profile."""

from __future__ import annotations

import dataclasses
import datetime as dt
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from memsim.audit._columns import Columns, Pairs
from memsim.audit._derive import DerivationError, Deriver, remap
from memsim.audit._lean import LEAN
from memsim.graph import BRNet
from memsim.profile import Profile
from memsim.sampling import ProfileSampler
from memsim.schema import load_schema
from memsim.verbalize import schema_locale

SCHEMAS = Path(__file__).resolve().parents[2] / "schemas"
WHEN = dt.datetime(2024, 12, 31, 12, 0)


def _each(d: Deriver, transform: str, params: dict[str, Any], pairs: Pairs) -> Counter[Any]:
    counts: Counter[Any] = Counter()
    for profile, mapping in pairs:
        try:
            counts[LEAN[transform](d, profile, remap(params, mapping), WHEN)] += 1
        except (DerivationError, KeyError, TypeError, IndexError):
            continue
    return counts


def _split(profile: Profile) -> Profile:
    """The profile with its leisure events in a scenario of their own (daily life keeps
    every event in one): a count must then name all of each named scenario's events."""
    entities = [
        dataclasses.replace(e, scenario="leisure") if e.kind == "leisure_event" else e
        for e in profile.entities
    ]
    return dataclasses.replace(profile, entities=entities)


@pytest.mark.parametrize("split", [False, True])
@pytest.mark.parametrize("schema_name", ["daily_life.en.yaml", "daily_life.zh.yaml"])
@pytest.mark.parametrize("seed", [random.Random(17).randrange(10**6) for _ in range(2)])
def test_events_count_as_each_profile_does(schema_name: str, seed: int, split: bool) -> None:
    schema = load_schema(SCHEMAS / schema_name)
    profiles = list(ProfileSampler(BRNet(schema)).profiles(seed, 0, 250))
    if split:
        profiles = [_split(p) for p in profiles]
    d = Deriver(schema, schema_locale(schema))
    pick = random.Random(seed)
    dated = sorted({e.id for p in profiles for e in p.entities if "time" in e.facts})
    # whole scenarios too: the only sets a count is not refused on
    scenarios = [
        sorted({e.id for e in p.entities if "time" in e.facts and e.scenario == s})
        for p in profiles[:3]
        for s in {e.scenario for e in p.entities}
    ]
    columns = Columns(d, profiles)
    kept: list[Pairs] = []  # the columns remember pairs by id: none may be freed meanwhile
    seen: dict[str, Counter[Any]] = {"count_between": Counter(), "first_of": Counter()}
    for _ in range(25):
        if pick.random() < 0.5:
            named = pick.sample(dated, pick.randint(1, min(4, len(dated))))
        else:  # one or two scenarios' events, in any order
            named = [e for s in pick.sample(scenarios, 2)[: pick.randint(1, 2)] for e in s]
            named = pick.sample(named, len(named)) or [dated[0]]
        if pick.random() < 0.2:
            named.append(named[0])  # one event named twice
        start = dt.date(2024, pick.randint(1, 12), 1)
        end = start + dt.timedelta(days=pick.randint(0, 120))
        params = {
            "entities": named,
            "attribute": "time",
            "start": start.isoformat(),
            "end": end.isoformat(),
        }
        other = pick.choice(dated)
        kept += [
            [(p, {}) for p in profiles],
            [
                (p, [{}, {named[0]: other}, {named[-1]: "ghost"}][i % 3])
                for i, p in enumerate(profiles)
            ],
        ]
        for pairs in kept[-2:]:
            for transform in ("count_between", "first_of"):
                got = columns.counts(transform, params, pairs, WHEN)
                want = _each(d, transform, params, pairs)
                assert got is not None
                assert list(got.items()) == list(want.items()), (transform, params)
                seen[transform].update(want)
    # the draws reach several counts (a count needs whole scenarios) and earliest events
    assert len(seen["count_between"]) > 2 and len(seen["first_of"]) > 2


def test_a_value_that_is_no_date_is_left_to_the_profiles() -> None:
    schema = load_schema(SCHEMAS / "daily_life.en.yaml")
    profiles = list(ProfileSampler(BRNet(schema)).profiles(3, 0, 40))
    columns = Columns(Deriver(schema, schema_locale(schema)), profiles)
    pairs: Pairs = [(p, {}) for p in profiles]
    params = {
        "entities": ["user"],
        "attribute": "hometown",
        "start": "2024-01-01",
        "end": "2024-02-01",
    }
    assert columns.counts("count_between", params, pairs, WHEN) is None
    assert columns.counts("first_of", params, pairs, WHEN) is None
