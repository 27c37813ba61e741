"""The option prior's columns give the same counts, in the same order, as re-deriving the
raw answer on each sampled profile (memsim.audit._sample.FAST)."""

from __future__ import annotations

import datetime as dt
import itertools
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from memsim.audit._columns import Columns, Pairs
from memsim.audit._derive import DerivationError, Deriver, remap
from memsim.audit._lean import LEAN
from memsim.audit._sample import FAST
from memsim.graph import BRNet
from memsim.profile import Profile
from memsim.sampling import ProfileSampler
from memsim.schema import load_schema
from memsim.verbalize import schema_locale

SCHEMA = Path(__file__).resolve().parents[2] / "schemas" / "daily_life.en.yaml"


@pytest.fixture(scope="module")
def sample() -> tuple[Deriver, list[Profile]]:
    schema = load_schema(SCHEMA)
    profiles = list(ProfileSampler(BRNet(schema)).profiles(7, 0, 300))
    return Deriver(schema, schema_locale(schema)), profiles


def _each(d: Deriver, transform: str, params: dict[str, Any], pairs: Pairs) -> Counter[Any]:
    counts: Counter[Any] = Counter()
    for profile, mapping in pairs:
        try:
            counts[FAST[transform](d, profile, remap(params, mapping))] += 1
        except (DerivationError, KeyError):
            continue
    return counts


def _slots(profiles: list[Profile], kind: str) -> list[str]:
    return sorted({e.id for p in profiles for e in p.entities if e.kind == kind})


CASES = [
    ("identity", {"entity": "user", "attribute": "hometown"}),
    ("identity", {"entity": "user", "attribute": "age"}),
    ("compare", {"first": "{0}", "second": "{1}", "attribute": "age"}),
    ("compare", {"first": "{0}", "second": "{1}", "attribute": "birthday"}),
    ("compare", {"first": "{0}", "second": "{1}", "attribute": "education"}),
    ("compare", {"first": "{0}", "second": "{1}", "attribute": "hometown"}),  # not ordered
    # a stated margin: values that close are "same" before their keys are compared
    ("compare", {"first": "{0}", "second": "{1}", "attribute": "age", "margin": 2}),
    ("compare", {"first": "{0}", "second": "{1}", "attribute": "height", "margin": 5}),
    ("compare", {"first": "{0}", "second": "{1}", "attribute": "birthday", "margin": 60}),
    ("compare", {"first": "{0}", "second": "{1}", "attribute": "birthday", "margin": 0.5}),
    ("count", {"entities": "*", "attribute": "age", "op": "gt", "threshold": 40}),
    ("count", {"entities": "*", "attribute": "birthday", "op": "le", "threshold": "06-15"}),
    ("count", {"entities": "*", "attribute": "education", "op": "ge", "threshold": "nonsense"}),
    ("count", {"entities": "*", "attribute": "gender", "op": "eq", "threshold": "female"}),
]


@pytest.mark.parametrize(("transform", "template"), CASES)
def test_columns_count_as_each_profile_does(
    sample: tuple[Deriver, list[Profile]], transform: str, template: dict[str, Any]
) -> None:
    d, profiles = sample
    people = _slots(profiles, "relative") + _slots(profiles, "colleague")
    params = dict(template)
    if transform == "compare":
        params.update(first=people[0], second=people[1])
    if transform == "count":
        params["entities"] = people[:4]
    same: Pairs = [(p, {}) for p in profiles]
    # mappings that differ by profile: the item's first person is another slot, or one
    # no profile has (skipped), in some profiles
    mapped: Pairs = [
        (p, [{}, {people[0]: people[2]}, {people[0]: "ghost"}][i % 3])
        for i, p in enumerate(profiles)
    ]
    columns = Columns(d, profiles)
    for pairs in (same, mapped):
        got = columns.counts(transform, params, pairs)
        want = _each(d, transform, params, pairs)
        assert got is not None
        assert list(got.items()) == list(want.items())
    assert (
        sum(want.values()) > 0
        or template.get("threshold") == "nonsense"
        or (template["attribute"] == "hometown")
    )


@pytest.mark.parametrize("attribute", ["weight", "work_city", "hobby", "age"])
@pytest.mark.parametrize("day", ["2024-03-02", "2024-05-20", "2024-07-31", "2024-09-30"])
def test_value_at_counts_as_the_lean_path_does(
    sample: tuple[Deriver, list[Profile]], attribute: str, day: str
) -> None:
    """A fact that changes is asked in Python, a day it changes on refused, and a day
    not before the question refuses every profile, as LEAN['value_at'] does."""
    d, profiles = sample
    when = dt.datetime(2024, 9, 1, 12, 0)
    people = _slots(profiles, "relative")
    columns = Columns(d, profiles)
    for entity in ("user", people[0]):
        params = {"entity": entity, "attribute": attribute, "day": day}
        mapped: Pairs = [
            (p, [{}, {entity: people[1]}, {entity: "ghost"}][i % 3]) for i, p in enumerate(profiles)
        ]
        for pairs in ([(p, {}) for p in profiles], mapped):
            want: Counter[Any] = Counter()
            for profile, mapping in pairs:
                try:
                    want[LEAN["value_at"](d, profile, remap(params, mapping), when)] += 1
                except (DerivationError, KeyError):
                    continue
            got = columns.counts("value_at", params, pairs, when)
            assert got is not None
            assert list(got.items()) == list(want.items())
    changing = columns.changing(attribute)
    assert changing.any() == (attribute != "age")


@pytest.mark.parametrize("margin", [30, 1.5, 0.25, 400])
def test_compare_with_a_margin_counts_as_each_profile_does(
    sample: tuple[Deriver, list[Profile]], margin: float
) -> None:
    """Event times (date-times) a margin of days apart, including fractions of a day,
    measured over the sample as value_distance measures each pair: the outcome counts,
    in the same order, with "same" for those within the margin."""
    d, profiles = sample
    events = _slots(profiles, "work_event") + _slots(profiles, "leisure_event")
    columns = Columns(d, profiles)
    seen: Counter[Any] = Counter()
    kept: list[Pairs] = []  # the columns remember pairs by id: none may be freed meanwhile
    for first, second in itertools.pairwise(events):
        params = {"first": first, "second": second, "attribute": "time", "margin": margin}
        mapped: Pairs = [
            (p, [{}, {first: events[-1]}, {second: "ghost"}][i % 3]) for i, p in enumerate(profiles)
        ]
        kept += [[(p, {}) for p in profiles], mapped]
        for pairs in kept[-2:]:
            got = columns.counts("compare", params, pairs)
            want = _each(d, "compare", params, pairs)
            assert got is not None
            assert list(got.items()) == list(want.items())
            seen.update(want)
    # the events lie within one year: a margin of 400 days makes every pair "same"
    assert seen["same"] and (margin > 366) == (not seen["first"] and not seen["second"])
