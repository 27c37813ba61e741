"""Numeric parameters conditioned on several discrete parents (``given: [a, b]`` with
cases keyed "a|b", as table rows are): the sampler picks each profile's case by its
combination, and the loader names missing and unknown combinations."""

from __future__ import annotations

import re
from collections import defaultdict

import numpy as np
import pytest

from memsim.graph import BRNet
from memsim.sampling import sample_profiles
from memsim.schema import SchemaError, parse_schema

CASES = {
    "male|north": (180, 3),
    "male|south": (172, 3),
    "female|north": (166, 3),
    "female|south": (158, 3),
}


def schema_text(cases: dict[str, tuple[int, int]], flat: str = "") -> str:
    rows = "\n".join(
        f"            '{key}': {{mean: {mean}, std: {std}}}" for key, (mean, std) in cases.items()
    )
    return f"""format_version: 1
name: t
version: '1'
locale: en
timeline: {{start: 2024-01-01, end: 2024-12-31}}
entities:
  k:
    count: 1
    scenario: user
    attributes:
      gender:
        type: categorical
        values: [male, female]
        dist: {{kind: categorical}}
      region:
        type: categorical
        values: [north, south]
        dist: {{kind: categorical, probs: [0.3, 0.7]}}
      height:
        type: integer
        min: 100
        max: 250
        dist:
          kind: gaussian{flat}
          given: [gender, region]
          cases:
{rows}
"""


def test_each_combination_gets_its_own_parameters() -> None:
    net = BRNet(parse_schema(schema_text(CASES)))
    assert sorted(net["k.height"].parents) == ["k.gender", "k.region"]
    heights: dict[str, list[int]] = defaultdict(list)
    for profile in sample_profiles(net, 0, 4000):
        key = f"{profile.fact('k.gender').value}|{profile.fact('k.region').value}"
        heights[key].append(int(profile.fact("k.height").value))
    assert set(heights) == set(CASES)
    for key, (mean, std) in CASES.items():
        values = np.array(heights[key])
        # the sample mean is within 5 standard errors of the case's mean (rounding adds
        # at most 0.5 to any value, so it is allowed for too)
        assert abs(values.mean() - mean) < 5 * std / np.sqrt(len(values)) + 0.5, key
    # the region prior (0.3 north) is not disturbed by the conditioning
    north = sum(len(v) for k, v in heights.items() if k.endswith("north"))
    assert abs(north / 4000 - 0.3) < 5 * np.sqrt(0.3 * 0.7 / 4000)


def test_a_missing_combination_is_named_unless_flat_parameters_cover_it() -> None:
    partial = {k: v for k, v in CASES.items() if k != "female|south"}
    with pytest.raises(SchemaError) as info:
        parse_schema(schema_text(partial), "s.yaml")
    (msg,) = info.value.messages
    assert re.match(r"s\.yaml:\d+:\d+: k\.height: no case for value\(s\) \['female\|south'\]", msg)
    # flat parameters cover what the cases leave out
    parse_schema(schema_text(partial, flat="\n          mean: 160\n          std: 5"))


def test_unknown_and_malformed_combinations_are_named() -> None:
    bad = {**CASES, "male|east": (170, 3), "male": (170, 3)}
    with pytest.raises(SchemaError) as info:
        parse_schema(schema_text(bad), "s.yaml")
    (msg,) = info.value.messages
    assert "cases for unknown value(s) ['male|east', 'male']" in msg
