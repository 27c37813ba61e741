"""A schema's locale overlay: its wording merged over its language's locale data."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from memsim.rewrite import load_prompts, prompts_for
from memsim.schema import load_schema, parse_schema
from memsim.verbalize import faker_locale, load_locale, merge, schema_locale

TINY = Path(__file__).resolve().parents[1] / "data" / "tiny.yaml"
CHAT = [f"Line {i} of our own small talk." for i in range(20)]


def _with_overlay(tmp_path: Path, overlay: str) -> Path:
    path = tmp_path / "s.yaml"
    path.write_text(TINY.read_text(encoding="utf-8") + overlay, encoding="utf-8")
    return path


def test_merge_is_deep_for_mappings_and_replaces_the_rest() -> None:
    base = {"a": {"x": 1, "y": [1, 2]}, "b": "s"}
    assert merge(base, {"a": {"y": [3]}, "c": 1}) == {"a": {"x": 1, "y": [3]}, "b": "s", "c": 1}
    assert base == {"a": {"x": 1, "y": [1, 2]}, "b": "s"}


def test_no_overlay_is_the_language_file() -> None:
    assert schema_locale(load_schema(TINY)) == load_locale("en")


def test_inline_overlay_replaces_chit_chat_and_one_comparison_word(tmp_path: Path) -> None:
    lines = "".join(f"\n      - {c}" for c in CHAT)
    path = _with_overlay(
        tmp_path,
        "locale_overlay:\n  en:\n    chit_chat:"
        + lines
        + "\n    questions:\n      comparative_options: {higher: greater}\n",
    )
    loc = schema_locale(load_schema(path))
    assert loc.chit_chat == CHAT
    assert loc.questions.comparative_options["higher"] == "greater"
    assert (
        loc.questions.comparative_options["same"]
        == load_locale("en").questions.comparative_options["same"]
    )


def test_overlay_file_is_found_beside_the_schema(tmp_path: Path) -> None:
    (tmp_path / "words.yaml").write_text(
        "en:\n  home: the dorm\n  faker: en_GB\n", encoding="utf-8"
    )
    schema = load_schema(_with_overlay(tmp_path, "locale_overlay: words.yaml\n"))
    assert schema_locale(schema).home == "the dorm"
    assert faker_locale(schema) == "en_GB"


def test_overlay_file_is_read_once_per_version(tmp_path: Path) -> None:
    words = tmp_path / "words.yaml"
    words.write_text("en:\n  home: the dorm\n", encoding="utf-8")
    schema = load_schema(_with_overlay(tmp_path, "locale_overlay: words.yaml\n"))
    first = schema_locale(schema)
    assert schema_locale(schema) is first  # remembered, not parsed again
    words.write_text("en:\n  home: the flat, edited\n", encoding="utf-8")
    assert schema_locale(schema).home == "the flat, edited"  # an edit is seen
    words.unlink()
    with pytest.raises(ValueError, match="cannot read"):
        schema_locale(schema)


def test_bad_overlay_names_the_file_and_the_key(tmp_path: Path) -> None:
    path = _with_overlay(tmp_path, "locale_overlay:\n  en: {homee: x}\n")
    line = path.read_text(encoding="utf-8").splitlines().index("  en: {homee: x}") + 1
    with pytest.raises(ValueError, match=rf"s\.yaml:{line}:8: locale_overlay 'en': homee: Extra"):
        schema_locale(load_schema(path))


def test_bad_overlay_file_names_the_line_of_each_problem(tmp_path: Path) -> None:
    # an overlay file: each problem at the key that makes it, in the overlay file
    (tmp_path / "words.yaml").write_text(
        "en:\n  home: the dorm\n  chit_chat: [a, b]\n  questions:\n    simpel: [x]\n",
        encoding="utf-8",
    )
    schema = load_schema(_with_overlay(tmp_path, "locale_overlay: words.yaml\n"))
    with pytest.raises(ValueError) as err:
        schema_locale(schema)
    lines = str(err.value).splitlines()
    assert len(lines) == 2
    assert re.match(r".*words\.yaml:3:3: locale_overlay 'en': chit_chat: .*at least 20", lines[0])
    assert re.match(r".*words\.yaml:5:5: locale_overlay 'en': questions\.simpel: Extra", lines[1])


def test_faker_locale_comes_from_locale_data() -> None:
    text = TINY.read_text(encoding="utf-8")
    assert faker_locale(parse_schema(text)) == "en_US"


def test_rewrite_prompts_from_the_overlay(tmp_path: Path) -> None:
    schema = load_schema(
        _with_overlay(
            tmp_path,
            "locale_overlay:\n  en:\n    rewrite_prompts: {persona_field: '{label}={value}'}\n",
        )
    )
    prompts, digest = prompts_for(schema_locale(schema))
    assert prompts.persona_field == "{label}={value}"
    assert digest != load_prompts("en")[1]
    assert prompts.system == load_prompts("en")[0].system
