"""The option prior's per-value path (memsim.audit._per_value) gives the same counts, in
the same order, as the lean per-profile path (memsim.audit._lean.LEAN) on sampled
profiles of random seeds: values that change before the question, refusals (too few
digits, no e-mail address, a fact that never changes), and mappings that differ by
profile."""

from __future__ import annotations

import datetime as dt
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from memsim.audit._columns import Columns, Pairs
from memsim.audit._derive import DerivationError, Deriver, remap
from memsim.audit._lean import LEAN
from memsim.audit._per_value import PER_VALUE
from memsim.graph import BRNet
from memsim.sampling import ProfileSampler
from memsim.schema import load_schema
from memsim.verbalize import schema_locale

SCHEMAS = Path(__file__).resolve().parents[2] / "schemas"
WHENS = [dt.datetime(2024, 6, 15, 9, 30), dt.datetime(2024, 12, 31, 23, 0)]

PERSON = "{person}"
EVENT = "{event}"
CASES: list[tuple[str, dict[str, Any]]] = [
    ("digit_sum", {"entity": "user", "attribute": "phone", "k": 4}),
    ("digit_sum", {"entity": PERSON, "attribute": "age", "k": 2}),
    ("digit_sum", {"entity": PERSON, "attribute": "age", "k": 3}),  # too few: refused
    ("digit_sum", {"entity": "user", "attribute": "weight", "k": 2}),  # changes
    ("season", {"entity": PERSON, "attribute": "birthday"}),
    ("season", {"entity": EVENT, "attribute": "time"}),
    ("weekday", {"entity": EVENT, "attribute": "time"}),
    ("email_domain", {"entity": PERSON, "attribute": "email"}),
    ("email_domain", {"entity": PERSON, "attribute": "hometown"}),  # no "@": refused
    ("date_of", {"entity": EVENT, "attribute": "time"}),
    ("age_difference", {"entities": ["user", PERSON], "attribute": "age"}),
    ("difference", {"entities": [PERSON, "user"], "attribute": "height"}),
    ("difference", {"entities": [PERSON, "user"], "attribute": "weight"}),  # refused
    ("difference", {"entities": ["user", "user"], "attribute": "weight"}),  # changes
    ("difference", {"entities": ["user", PERSON], "attribute": "hometown"}),  # raises
    ("days_between", {"entities": [EVENT, "{event2}"], "attributes": ["time", "time"]}),
    ("current_value", {"entity": "user", "attribute": "weight"}),
    ("current_value", {"entity": PERSON, "attribute": "work_city"}),
    ("value_before", {"entity": "user", "attribute": "weight", "change": 1}),
    ("value_before", {"entity": "user", "attribute": "hobby", "change": 2}),
    ("elapsed", {"entity": "user", "attribute": "weight", "change": 1, "unit": "days"}),
    ("elapsed", {"entity": "user", "attribute": "work_city", "change": 1, "unit": "weeks"}),
]


def _each(
    d: Deriver, transform: str, params: dict[str, Any], pairs: Pairs, when: dt.datetime
) -> Counter[Any]:
    counts: Counter[Any] = Counter()
    for profile, mapping in pairs:
        try:
            counts[LEAN[transform](d, profile, remap(params, mapping), when)] += 1
        except (DerivationError, KeyError, TypeError, IndexError):
            continue
    return counts


def _fill(value: Any, slots: dict[str, str]) -> Any:
    if isinstance(value, list):
        return [_fill(v, slots) for v in value]
    return slots.get(value, value) if isinstance(value, str) else value


@pytest.mark.parametrize("schema_name", ["daily_life.en.yaml", "daily_life.zh.yaml"])
@pytest.mark.parametrize("seed", [random.Random(1017).randrange(10**6) for _ in range(2)])
def test_per_value_counts_as_each_profile_does(schema_name: str, seed: int) -> None:
    schema = load_schema(SCHEMAS / schema_name)
    profiles = list(ProfileSampler(BRNet(schema)).profiles(seed, 0, 300))
    d = Deriver(schema, schema_locale(schema))
    pick = random.Random(seed)
    people = sorted({e.id for p in profiles for e in p.entities if e.kind == "relative"})
    events = sorted({e.id for p in profiles for e in p.entities if "time" in e.facts})
    columns = Columns(d, profiles)
    kept: list[Pairs] = []  # the columns remember pairs by id: none may be freed meanwhile
    answered: set[str] = set()
    for transform, template in CASES:
        event, event2 = pick.sample(events, 2)
        slots = {PERSON: pick.choice(people), EVENT: event, "{event2}": event2}
        params = {k: _fill(v, slots) for k, v in template.items()}
        named = params.get("entity") or pick.choice(params["entities"])
        kept += [
            [(p, {}) for p in profiles],
            [
                (p, [{}, {named: pick.choice(people + events)}, {named: "ghost"}][i % 3])
                for i, p in enumerate(profiles)
            ],
        ]
        for pairs in kept[-2:]:
            for when in WHENS:
                got = columns.counts(transform, params, pairs, when)
                if got is None:  # left to the per-profile path: only where it raises
                    with pytest.raises(ValueError):
                        _each(d, transform, params, pairs, when)
                    continue
                want = _each(d, transform, params, pairs, when)
                assert list(got.items()) == list(want.items()), (transform, params, when)
                if want:
                    answered.add(transform)
    assert answered == set(PER_VALUE)
