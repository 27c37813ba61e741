"""Bad schemas get every problem reported, each at its file:line:col."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from memsim.schema import SchemaError, parse_schema

TINY = (Path(__file__).parents[1] / "data" / "tiny.yaml").read_text()


def problems(text: str) -> list[str]:
    with pytest.raises(SchemaError) as info:
        parse_schema(text, "s.yaml")
    return info.value.messages


def line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


def at(found: list[str], text: str, needle: str, fragment: str) -> None:
    """Some problem says ``fragment`` and points at the line of ``text`` holding ``needle``."""
    line = line_of(text, needle)
    hits = [m for m in found if fragment in m]
    assert hits, (fragment, found)
    assert any(re.match(rf"s\.yaml:{line}:\d+: ", m) for m in hits), (line, hits)


def edit(old: str, new: str) -> str:
    assert old in TINY, old
    return TINY.replace(old, new, 1)


def test_tiny_schema_loads() -> None:
    schema = parse_schema(TINY, "tiny.yaml")
    assert schema.entities["relative"].count == 2
    assert list(schema.attributes_of("relative"))[:2] == ["gender", "education"]


def test_yaml_syntax_error_has_position_not_traceback() -> None:
    text = edit("count: 2\n    scenario: roles", "count: [2\n    scenario: roles")
    (msg,) = problems(text)
    assert re.match(r"s\.yaml:\d+:\d+: YAML syntax error", msg)


def test_unknown_key_points_at_the_key() -> None:
    text = edit("      unit: cm\n", "      unit: cm\n      colour: red\n")
    (msg,) = problems(text)
    assert msg == f"s.yaml:{line_of(text, 'colour')}:7: unknown key 'colour'"


def test_an_unknown_key_of_a_distribution_says_the_keys_it_takes() -> None:
    # a new user's guess: an attribute's min/max as uniform_int's bounds (lab.en.yaml)
    text = edit("{kind: uniform_int, low: 22, high: 60}", "{kind: uniform_int, min: 22, max: 60}")
    found = problems(text)
    assert len(found) == 2
    for msg in found:
        assert msg.endswith("(uniform_int takes: given, offset_from, kind, low, high, cases)")
    at(found, text, "min: 22", "unknown key 'min'")


def test_duplicate_key_is_an_error() -> None:
    text = edit("    count: 1\n", "    count: 1\n    count: 1\n")
    line = line_of(text, "count: 1") + 1  # the second of the two
    assert any(re.match(rf"s\.yaml:{line}:\d+: .*duplicate key 'count'", m) for m in problems(text))


def test_all_problems_reported_at_once() -> None:
    text = edit("probs: [0.4, 0.4, 0.2]", "probs: [0.4, 0.4, 0.3]")
    text = text.replace("offset_from: user.age", "offset_from: user.agee")
    text = text.replace("          phd: [0.6, 0.4, 0.0]\n", "")
    found = problems(text)
    assert any("probabilities sum to 1.1, not 1" in m for m in found)
    assert any("unknown parent 'agee'" in m for m in found)
    assert any("no row for phd and no default" in m for m in found)
    agee = next(m for m in found if "agee" in m)
    assert agee.startswith(f"s.yaml:{line_of(text, 'user.agee')}:")


def test_row_that_does_not_sum_to_one_is_named() -> None:
    text = edit("bachelor: [0.5, 0.3, 0.2]", "bachelor: [0.5, 0.3, 0.3]")
    found = problems(text)
    assert any("row 'bachelor': probabilities sum to 1.1, not 1" in m for m in found)
    assert all(m.startswith(f"s.yaml:{line_of(text, 'bachelor: [0.5')}:") for m in found)


def test_table_row_with_unknown_parent_value() -> None:
    text = edit("bachelor: [0.5, 0.3, 0.2]", "masters: [0.5, 0.3, 0.2]")
    at(problems(text), text, "masters:", "row 'masters' names unknown parent value(s) ['masters']")


def test_table_shape_mismatch() -> None:
    text = edit("bachelor: [0.5, 0.3, 0.2]", "bachelor: [0.5, 0.5]")
    at(problems(text), text, "bachelor: [0.5, 0.5]", "has 2 probabilities for 3 values")


def test_cycle_is_printed() -> None:
    text = edit(
        "dist: {kind: uniform_int, low: 22, high: 60}",
        "dist: {kind: gaussian, offset_from: 'relative[0].age', mean: -20, std: 2}",
    )
    (msg,) = problems(text)
    assert "dependency cycle:" in msg
    assert "user.age" in msg and "relative[0].age" in msg
    assert re.match(r"s\.yaml:\d+:\d+: ", msg)


def test_cycle_is_reported_with_the_other_problems() -> None:
    text = edit(
        "dist: {kind: uniform_int, low: 22, high: 60}",
        "dist: {kind: gaussian, offset_from: 'relative[0].age', mean: -20, std: 2}",
    )
    text = text.replace("bachelor: [0.5, 0.3, 0.2]", "bachelor: [0.5, 0.3, 0.3]")
    text = text.replace("sources: {user.work_city: 0.6}", "sources: {boss.work_city: 0.6}")
    found = problems(text)
    at(found, text, "bachelor: [0.5, 0.3, 0.3]", "row 'bachelor': probabilities sum to 1.1")
    at(found, text, "boss.work_city", "unknown entity kind 'boss'")
    (cycle,) = [m for m in found if "dependency cycle: " in m]
    # it points at the distribution of one node of the cycle
    lines = {
        line_of(text, "offset_from: 'relative[0].age'"),
        line_of(text, "offset_from: user.age"),
    }
    assert int(cycle.split(":")[1]) in lines | {n - 1 for n in lines}, cycle


def test_any_entitys_attributes_may_change_but_not_what_names_it() -> None:
    # the person set is shared by the user and the relatives: both may change now that
    # questions read histories; a relative's relation (its name, "my mother") may not
    text = edit(
        "      ordered: true\n", "      ordered: true\n      changes: {p: 0.1, cause: exam}\n"
    )
    parse_schema(text, "tiny.yaml")
    text = edit("        distinct: true\n", "        changes: {p: 0.1, cause: x}\n")
    found = problems(text)
    at(found, text, "changes: {p: 0.1, cause: x}", "named by cannot change")


def test_integer_changes_need_a_step_and_after_names_a_changing_attribute() -> None:
    text = edit(
        "dist: {kind: uniform_int, low: 22, high: 60}",
        "dist: {kind: uniform_int, low: 22, high: 60}\n        changes: {p: 0.5, cause: y}",
    )
    at(problems(text), text, "changes: {p: 0.5, cause: y}", "needs a step range")
    text = edit(
        "changes: {p: 0.2, cause: relocation}",
        "changes: {p: 0.2, cause: relocation, after: age, p_after: 0.5}",
    )
    at(problems(text), text, "after: age", "'age' is not another attribute of user that changes")


def test_unknown_parent_and_unknown_kind() -> None:
    text = edit("sources: {user.work_city: 0.6}", "sources: {boss.work_city: 0.6}")
    at(problems(text), text, "boss.work_city", "unknown entity kind 'boss'")


def test_ambiguous_reference_to_a_multi_slot_kind() -> None:
    text = edit(
        "dist: {kind: uniform_int, low: 22, high: 60}",
        "dist: {kind: uniform_int, low: 22, high: 60, offset_from: relative.age}",
    )
    at(problems(text), text, "offset_from: relative.age", "name one as relative[i].age")


def test_impossible_distinct_constraint() -> None:
    # 3 relatives drawn without replacement from a relation that has 2 possible values
    text = edit("  relative:\n    count: 2", "  relative:\n    count: 3")
    text = text.replace("values: [father, mother, brother]", "values: [father, mother]")
    text = text.replace(
        "cases: {father: {mean: 28, std: 3}, mother: {mean: 26, std: 3}, brother: {mean: 0, std: 4}}",
        "cases: {father: {mean: 28, std: 3}, mother: {mean: 26, std: 3}}",
    )
    found = problems(text)
    assert any("cannot draw 3 distinct values: prior gives 2 possible value(s)" in m for m in found)
    assert all(re.match(r"s\.yaml:\d+:\d+: ", m) for m in found)


def test_missing_gaussian_case() -> None:
    text = edit(", brother: {mean: 0, std: 4}}", "}")
    assert any("no case for value(s) ['brother']" in m for m in problems(text))


def test_wrong_distribution_for_type() -> None:
    text = edit("dist: {kind: date_uniform}", "dist: {kind: gaussian, mean: 1, std: 1}")
    assert any(
        "a month_day attribute takes date_uniform, not gaussian" in m for m in problems(text)
    )


def test_unknown_template_token() -> None:
    text = edit(
        'phrasings: {en: ["{who} {be} {value}."]}', 'phrasings: {en: ["{who} {bee} {value}."]}'
    )
    assert any("unknown token {bee}" in m for m in problems(text))


def test_copy_source_outside_domain() -> None:
    text = edit("values: [team meeting, hackathon]", "values: [team meeting, hackathon, Boston]")
    text = text.replace(
        "      name:\n        type: categorical\n        values: [team meeting",
        "      name:\n        type: categorical\n        values: [team meeting",
    )
    # a relative's work city copying the user's education would yield values outside its domain
    text = text.replace("sources: {user.work_city: 0.6}", "sources: {user.education: 0.6}")
    assert any("which are not values of this attribute" in m for m in problems(text))


def test_format_version_is_required_and_checked() -> None:
    text = edit("format_version: 1", "format_version: 7")
    (msg,) = problems(text)
    assert msg.startswith("s.yaml:1:17: format_version")


def test_not_a_mapping() -> None:
    assert problems("- a\n- b\n") == ["s.yaml:1:1: a schema is a YAML mapping"]


def test_merge_key_override_is_not_a_duplicate() -> None:
    text = edit(
        "      birthday:\n        type: month_day\n        dist: {kind: date_uniform}",
        "      birthday: &bday\n        type: month_day\n        dist: {kind: date_uniform}\n"
        "      anniversary:\n        <<: *bday\n        label: {en: anniversary}",
    )
    schema = parse_schema(text, "s.yaml")
    assert schema.attributes_of("relative")["anniversary"].label == {"en": "anniversary"}


def test_probabilities_within_tolerance_are_renormalised() -> None:
    from memsim.graph import BRNet, DiscreteConditionals

    text = edit("probs: [0.4, 0.4, 0.2]", "probs: [0.4, 0.4, 0.2005]")
    net = BRNet(parse_schema(text, "s.yaml"))
    row = DiscreteConditionals(net).probs(net["user.education"], {}, 1)[0]
    assert row.sum() == pytest.approx(1.0, abs=1e-12)
