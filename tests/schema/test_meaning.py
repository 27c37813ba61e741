"""What the code knows about kinds and attributes comes from the schema: declared in a
format-2 file, inferred from today's names in a format-1 file, checked at its line."""

from __future__ import annotations

from pathlib import Path

import pytest

from memsim.schema import (
    SchemaError,
    describe,
    is_asked,
    load_schema,
    location_attribute,
    parse_schema,
    persona_attributes,
    pool_of,
    schema_warnings,
    time_attribute,
    transforms_of,
    user_kind,
    word,
    workplace_attribute,
)

ROOT = Path(__file__).resolve().parents[2]
TINY = (ROOT / "tests" / "data" / "tiny.yaml").read_text()


def test_format_1_keeps_the_meaning_of_its_names() -> None:
    schema = load_schema(ROOT / "schemas" / "daily_life.en.yaml")
    assert user_kind(schema) == "user"
    assert location_attribute(schema, "user") == "work_city"
    assert workplace_attribute(schema, "user") == "employer"
    assert time_attribute(schema, "work_event") == "time"
    assert location_attribute(schema, "work_event") == "location"
    assert not is_asked(schema, "relative", "gender")
    assert persona_attributes(schema) == ["gender", "age", "occupation", "personality"]
    assert transforms_of(schema, "relative", "age") == ("age_difference",)
    assert transforms_of(schema, "relative", "phone") == ("digit_sum", "email_domain")
    assert transforms_of(schema, "work_event", "time") == ("days_between", "weekday")
    assert transforms_of(schema, "item", "name") == ()


def test_format_2_reads_declarations_and_infers_from_types() -> None:
    schema = load_schema(ROOT / "schemas" / "campus.en.yaml")
    assert user_kind(schema) == "student"
    assert location_attribute(schema, "student") == "campus"
    assert workplace_attribute(schema, "student") == "study_spot"
    assert time_attribute(schema, "exam") == "time"
    assert not is_asked(schema, "classmate", "gender")
    assert is_asked(schema, "classmate", "age")
    assert persona_attributes(schema) == ["age", "year", "major"]
    assert transforms_of(schema, "instructor", "experience") == ("difference",)
    assert transforms_of(schema, "classmate", "phone") == ("digit_sum",)
    assert transforms_of(schema, "instructor", "email") == ("email_domain",)
    assert transforms_of(schema, "exam", "time") == ("days_between", "weekday")
    assert pool_of(schema, "instructor") == "staff"
    assert word(schema, "instructor", "title", "en", "higher") == "more senior"
    assert word(schema, "instructor", "title", "zh", "higher") is None
    lines = describe(schema)
    assert "student (user, the user)" in lines
    assert any(line.split()[0] == "gender" and "questions: -" in line for line in lines)


def test_names_mean_nothing_in_format_2() -> None:
    schema = parse_schema(TINY.replace("format_version: 1", "format_version: 2"), "t.yaml")
    assert location_attribute(schema, "user") is None
    assert is_asked(schema, "relative", "gender")
    assert persona_attributes(schema) == []
    assert user_kind(schema) == "user"  # scenario: user, not the name


def test_bad_declarations_are_all_reported_at_their_lines() -> None:
    text = TINY.replace(
        "      values: [high school, bachelor, phd]\n      ordered: true\n",
        "      values: [high school, bachelor, phd]\n      ordered: true\n"
        "      transforms: [diference, season]\n      role: time\n"
        "      words: {en: {higher: further, gt: more, most: x}}\n"
        "      questions: [simple, chit_chat]\n",
    ).replace("    height:\n", "    height:\n      persona: true\n")
    with pytest.raises(SchemaError) as err:
        parse_schema(text, "t.yaml")
    text_of = "\n".join(err.value.messages)
    for expected in (
        "unknown transform 'diference'",
        "transform 'season' needs a month_day attribute, not categorical",
        "role 'time' needs a datetime attribute, not categorical",
        "the predicate 'gt' must hold {value}",
        "unknown comparison word 'most'",
        "unknown question kind 'chit_chat'",
        "only the user's attributes set the persona, not relative's",
    ):
        assert expected in text_of, text_of
    assert all(m.startswith("t.yaml:") for m in err.value.messages)


def test_validate_warns_of_what_generation_would_meet(tmp_path: Path) -> None:
    text = TINY.replace(
        '      phrasings: {en: ["{who} {be} {value}."]}',
        '      phrasings: {en: ["{who} {be} {value}.", "It is {value}."]}',
    ).replace(
        "        end: 2024-06-30\n        dist: {kind: date_uniform, hours: [8, 21]}",
        "        end: 2024-03-03\n        transforms: [weekday]\n"
        "        dist: {kind: date_uniform, hours: [8, 21]}",
    )
    path = tmp_path / "t.yaml"
    path.write_text(text)
    warnings = schema_warnings(path)
    assert any(":14:" in w and "does not say whose fact it is" in w for w in warnings), warnings
    assert any("the roles (relative) has 2 entities" in w for w in warnings), warnings
    assert any("covers 3 weekdays" in w for w in warnings), warnings
    assert all(w.startswith(f"{path}:") and ": warning: " in w for w in warnings)
    assert not schema_warnings(ROOT / "schemas" / "campus.en.yaml")
