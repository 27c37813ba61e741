"""Derived attributes: deterministic functions of their parents, sampled as nodes of the
graph (a lookup is a deterministic CPD of the pgmpy network), checked at their lines."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from memsim.graph import BRNet, to_pgmpy
from memsim.sampling import ProfileSampler
from memsim.schema import Derived, SchemaError, load_schema, parse_schema
from memsim.schema._derived import bin_codes, evaluate_expr

ROOT = Path(__file__).resolve().parents[2]
TINY = (ROOT / "tests" / "data" / "tiny.yaml").read_text()


def _derived(**kw: object) -> Derived:
    return Derived.model_validate({"kind": "derived", **kw})


def test_expr_is_integer_arithmetic_element_by_element() -> None:
    dist = _derived(of=["user.price", "qty"], expr="price * 108 // 100 + qty % 2 - -1")
    out = evaluate_expr(dist, [np.array([100, 161]), np.array([3, 4])])
    assert out.tolist() == [100 * 108 // 100 + 1 + 1, 161 * 108 // 100 + 0 + 1]


def test_bins_label_each_range() -> None:
    dist = _derived(of=["age"], bins={"child": 0, "teen": 13, "adult": 20})
    assert bin_codes(dist, np.array([-3, 0, 12, 13, 19, 20, 90])).tolist() == [0, 0, 0, 1, 1, 2, 2]


def test_campus_derived_values_follow_their_parents_and_lookups_are_in_pgmpy() -> None:
    schema = load_schema(ROOT / "schemas" / "campus.en.yaml")
    net = BRNet(schema)
    assert net["student.division"].discrete and not net["instructor[0].career_stage"].discrete
    for profile in ProfileSampler(net).profiles(0, 0, 200):
        facts = {f"{e.id}.{a}": f.value for e in profile.entities for a, f in e.facts.items()}
        upper = facts["student.year"] in ("junior", "senior")
        assert facts["student.division"] == ("upper division" if upper else "lower division")
        assert facts["textbook.price_with_tax"] == min(400, facts["textbook.price"] * 108 // 100)
        years = facts["instructor[0].experience"]
        stage = "new" if years < 5 else "established" if years < 20 else "veteran"
        assert facts["instructor[0].career_stage"] == stage
    cpd = to_pgmpy(net).model.get_cpds(to_pgmpy(net).names["student.division"])
    assert set(np.unique(cpd.values)) == {0.0, 1.0}


def test_bad_derived_distributions_are_reported_at_their_lines() -> None:
    text = TINY.replace(
        "      dist: {kind: categorical, probs: [0.4, 0.4, 0.2]}\n",
        "      dist: {kind: derived, of: [occupation], bins: {phd: 0, bachelor: 3}}\n",
        1,
    ).replace(
        "        dist: {kind: uniform_int, low: 22, high: 60}",
        '        dist: {kind: derived, of: [height], expr: "height / 2 + tall"}',
    )
    with pytest.raises(SchemaError) as err:
        parse_schema(text, "t.yaml")
    messages = "\n".join(err.value.messages)
    assert "bins needs integer attributes; 'occupation' is categorical" in messages
    assert "expr may use + - * // % only" in messages
    assert "expr names 'tall'" in messages
