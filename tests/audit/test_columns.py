"""The option prior's columns give the same counts, in the same order, as re-deriving the
raw answer on each sampled profile (memsim.audit._sample.FAST)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from memsim.audit._columns import Columns, Pairs
from memsim.audit._derive import DerivationError, Deriver, remap
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
