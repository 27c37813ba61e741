"""Faults a new user's format-2 schema met (issue 16, held-out coach and library
domains): a kind without ``refer`` in the schema's locale was named by its id ("Coach
turned 54 this year", a comparison answered "Coach" that the audit read as nothing), and
validate said nothing; now it is an error at the kind's line. Format 1 keeps its
inferred meaning (its tiny test schemas name nothing). Phrasings that never say their
unit are a warning; a derived attribute given ``changes`` is an error (a binned one
made `memsim profiles` fail with a KeyError)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from memsim.schema import SchemaError, load_schema, schema_warnings

ROOT = Path(__file__).resolve().parents[2]
LANDLORD = ROOT / "tests" / "data" / "landlord.en.yaml"


def _without_refer(tmp_path: Path, kind_line: str) -> tuple[Path, int]:
    """The landlord schema with the ``refer`` of the kind declared at ``kind_line``
    removed, and the line its mapping starts on."""
    lines = LANDLORD.read_text(encoding="utf-8").splitlines()
    start = lines.index(kind_line)
    indent = len(kind_line) - len(kind_line.lstrip()) + 2
    cut = next(
        i for i in range(start + 1, len(lines)) if lines[i].startswith(" " * indent + "refer:")
    )
    assert lines[cut].rstrip().endswith("}"), lines[cut]  # a one-line flow mapping
    del lines[cut]
    path = tmp_path / "landlord.en.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path, start + 2  # the kind's mapping starts on the line after its name


def _kinds() -> list[str]:
    text = LANDLORD.read_text(encoding="utf-8")
    schema = load_schema(LANDLORD)
    user = next(k for k, e in schema.entities.items() if e.scenario == "user")
    other = next(k for k, e in schema.entities.items() if e.scenario == "roles")
    assert f"\n  {user}:\n" in text and f"\n  {other}:\n" in text
    return [user, other]


@pytest.mark.parametrize("which", [0, 1])
def test_a_kind_without_refer_is_an_error_at_its_line(tmp_path: Path, which: int) -> None:
    kind = _kinds()[which]
    path, line = _without_refer(tmp_path, f"  {kind}:")
    with pytest.raises(SchemaError) as caught:
        load_schema(path)
    message = str(caught.value)
    assert f"{path}:{line}:" in message and f"{kind} has no refer for its locale 'en'" in message
    if which == 0:
        assert '"I" in en' in message  # the user is told what to write


def test_an_attribute_whose_phrasings_never_say_its_unit_is_a_warning(tmp_path: Path) -> None:
    # the held-out coach schema wrote "{who} {be} {value} old." and read "I am 44 old"
    assert not [w for w in schema_warnings(LANDLORD) if "its unit" in w]
    text = LANDLORD.read_text(encoding="utf-8")
    assert text.count(" {unit}") >= 5
    path = tmp_path / "landlord.en.yaml"
    path.write_text(text.replace(" {unit}", ""), encoding="utf-8")
    said = load_schema(path)  # a warning, not an error
    warned = [w for w in schema_warnings(path) if "no phrasing says its unit" in w]
    with_units = {
        (kind, name)
        for kind in said.entities
        for name, attr in said.attributes_of(kind).items()
        if attr.unit
        and "{unit}"
        in " ".join(
            t
            for ts in load_schema(LANDLORD).attributes_of(kind)[name].phrasings.values()
            for t in ts
        )
    }
    assert with_units and len(warned) >= len(with_units) - 2, warned  # a few say the unit's words
    assert all(re.match(rf"{re.escape(str(path))}:\d+:\d+: ", w) for w in warned)


COACH = ROOT / "tests" / "data" / "coach.en.yaml"


@pytest.mark.parametrize(
    "label",
    [
        "label: {en: standing among coaches}",  # bins: profiles failed with a KeyError
        "label: {en: hourly rent with booking fee}",  # expr: moved off its formula
        "label: {en: cleaning schedule}",  # lookup: never moved
    ],
)
def test_a_derived_attribute_that_changes_is_an_error_at_its_line(
    tmp_path: Path, label: str
) -> None:
    text = COACH.read_text(encoding="utf-8")
    assert text.count(label) == 1
    change = "changes: {p: 0.5, step: [1, 3], cause: c, said: {en: the review}}"
    text = text.replace(label, f"{change}\n        {label}")
    path = tmp_path / "coach.en.yaml"
    path.write_text(text, encoding="utf-8")
    line = text.splitlines().index(f"        {change}") + 1
    with pytest.raises(SchemaError) as caught:
        load_schema(path)
    assert f"{path}:{line}:" in str(caught.value)
    assert "a derived attribute is a function of its parents" in str(caught.value)
