"""A schema value, label or unit holding a template brace ("{who}") is refused at
validate with file:line, before profiles or data are made from it; a profile value
holding one is refused when read."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hostile_run import SCHEMA, assert_refused, memsim

CASES = {
    "domain value": ("    - Los Angeles\n", "    - Los {who} Angeles\n"),
    "attribute value": ("values: [male, female]", "values: [male, '{who}']"),
    "label": ("label: {en: height}", "label: {en: 'height {unit}'}"),
    "escaped brace": ("values: [male, female]", "values: [male, 'fe}}male']"),
}


@pytest.mark.parametrize("case", list(CASES))
def test_brace_in_a_schema_value_is_refused(tmp_path: Path, case: str) -> None:
    old, new = CASES[case]
    text = SCHEMA.read_text(encoding="utf-8")
    assert old in text
    line = text[: text.index(old)].count("\n") + 1  # the line the edit is on
    schema = tmp_path / "s.yaml"
    schema.write_text(text.replace(old, new, 1), encoding="utf-8")
    assert_refused(memsim("schema", "validate", schema), f"{schema}:{line}:", "template token")
    proc = memsim("profiles", "--schema", schema, "--n", 2, "--out", tmp_path / "p")
    assert_refused(proc, f"{schema}:{line}:")
    assert not (tmp_path / "p").exists()


def test_brace_in_a_profile_value_is_refused(small: Path) -> None:
    path = small / "profiles" / "p000000.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    data["entities"][0]["facts"][0]["value"] = "{who} Smith"
    path.write_text(json.dumps(data), encoding="utf-8")
    proc = memsim(
        "generate", "--schema", SCHEMA, "--profiles", small / "profiles",
        "--out", small / "again", "--per-type", 1, "--types", "simple", "--no-progress",
    )  # fmt: skip
    assert_refused(proc, str(path), "holds a template brace")
