"""`memsim schema validate` rejects malformed wording entries of a locale overlay at
their file:line: a person's phrase ending in punctuation (it stands before "'s" or a
verb: "workshop, Candice,'s") or holding a comma (an aside never closed), an entry missing a token it needs, a token no code fills."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from memsim.cli import main
from memsim.schema._tokens import ends_badly
from memsim.verbalize import load_locale

DATA = Path(__file__).resolve().parents[1] / "data"
WORKSHOP = DATA / "workshop.en.yaml"
ANCHOR = "    hearsay_of:\n"


def _validate(tmp_path: Path, entry_key: str, entries: list[str]) -> tuple[int, str, int]:
    """Validate the workshop schema with ``entries`` under its overlay's ``entry_key``
    (a top-level key of the overlay, or ``questions.<key>``): exit code, stderr, and the
    line of the first entry."""
    text = WORKSHOP.read_text(encoding="utf-8")
    assert text.count(ANCHOR) == 1
    key = entry_key.split(".")
    indent = "    " + "  " * (len(key) - 1)
    header = "".join(f"{'    ' + '  ' * i}{k}:\n" for i, k in enumerate(key))
    block = header + "".join(f'{indent}  - "{e}"\n' for e in entries)
    if header in text:  # the overlay has this list already: ours go first in it
        text = text.replace(header, block, 1)
    elif key[0] == "questions":  # ...or a questions mapping to put it in
        text = text.replace("    questions:\n", block, 1)
    else:
        text = text.replace(ANCHOR, block + ANCHOR, 1)
    path = tmp_path / "workshop.en.yaml"
    path.write_text(text, encoding="utf-8")
    first = text.splitlines().index(f'{indent}  - "{entries[0]}"') + 1
    result = CliRunner().invoke(main, ["schema", "validate", str(path)])
    return result.exit_code, result.output + (result.stderr or ""), first


def test_a_person_ending_in_a_comma_is_rejected_at_its_line(tmp_path: Path) -> None:
    code, out, line = _validate(
        tmp_path,
        "hearsay_people",
        ["my supplier {first}", "my friend from the workshop, {first},", "my client {first}"],
    )
    assert code == 2
    assert re.search(
        rf"workshop\.en\.yaml:{line + 1}:\d+: locale_overlay 'en': hearsay_people\.1: .*"
        r"ends in ','",
        out,
    ), out


@pytest.mark.parametrize("person", ["a referee friend, {first}", "我一个朋友，{last}{first}"])
def test_a_person_with_an_inner_comma_is_rejected_at_its_line(tmp_path: Path, person: str) -> None:
    # "A referee friend, Carmen's birthday is on December 12.": generated and audited
    # clean, but the aside the comma opens is never closed
    code, out, line = _validate(tmp_path, "hearsay_people", ["my supplier {first}", person])
    assert code == 2
    assert re.search(
        rf"workshop\.en\.yaml:{line + 1}:\d+: locale_overlay 'en': hearsay_people\.1: .*"
        r"opens an aside",
        out,
    ), out
    # the same entry without its comma passes
    plain = person.replace(", ", " ").replace("，", "")
    code, out, _ = _validate(tmp_path, "hearsay_people", ["my supplier {first}", plain])
    assert code == 0, out


@pytest.mark.parametrize(
    ("key", "entry", "says"),
    [
        ("hearsay_people", "my supplier", r"has none of \{first\} or \{last\}"),
        ("hearsay_people", "my supplier {first} {name}", r"\{name\} is filled by nothing"),
        ("hearsay_people", "my supplier {first} ", r"has spaces"),
        ("hearsay_of", "Another maker told me their {label}.", r"lacks \{value\}"),
        ("hearsay", "A maker said so.", r"lacks \{value\}"),
        ("questions.noisy_preface", "What a day. Anyway:", r"lacks \{question\}"),
        ("questions.simple", "What is the {label} of {whom}?", r"lacks \{who\}"),
        ("two_facts", "{first}", r"lacks \{second\}"),
        ("hearsay", "Someone said {value", r"braces do not parse"),
        # wording by scenario is checked as the kind's own is
        ("questions.by_scenario.roles.simple", "What is the {label} of {whom}?", r"lacks \{who\}"),
        (
            "questions.by_scenario.user.simple",
            "What is my {label} {x}?",
            r"\{x\} is filled by nothing",
        ),
        ("questions.by_scenario.events.comparative", "Which is {more}, {a}?", r"lacks \{b\}"),
        ("questions.by_scenario.roles.aggregative", "How many {group}?", r"lacks \{predicate\}"),
    ],
)
def test_malformed_wording_is_rejected(tmp_path: Path, key: str, entry: str, says: str) -> None:
    code, out, line = _validate(tmp_path, key, [entry])
    assert code == 2, out
    assert re.search(rf"workshop\.en\.yaml:{line}:\d+: locale_overlay 'en': {key}\.0: ", out), out
    assert re.search(says, out), out


def test_the_bundled_wording_passes() -> None:
    for code in ("en", "zh"):
        assert load_locale(code).hearsay_people


@pytest.mark.parametrize("written", ["label: {en: workshop owner}", "label: {en: phone number}"])
def test_a_label_ending_in_a_comma_is_rejected_at_its_line(tmp_path: Path, written: str) -> None:
    # a kind's label is followed by "'s" ("workshop owner's phone number"), an
    # attribute's by the rest of a question ("the phone number of ...")
    text = WORKSHOP.read_text(encoding="utf-8")
    assert text.count(written) == 1
    bad = written.replace("{en: ", '{en: "').replace("}", ',"}')
    text = text.replace(written, bad)
    path = tmp_path / "workshop.en.yaml"
    path.write_text(text, encoding="utf-8")
    line = next(i for i, t in enumerate(text.splitlines(), 1) if bad in t)
    result = CliRunner().invoke(main, ["schema", "validate", str(path)])
    assert result.exit_code == 2
    assert re.search(rf"workshop\.en\.yaml:{line}:\d+: .*ends in ','", result.output), result.output


@pytest.mark.parametrize(
    ("phrase", "bad"),
    [
        ("那本《{title}》", False),  # a book title's closing mark is followed by 的
        ("my {brand} (rented)", False),
        ("「{name}」", False),
        ("‘{name}’", False),
        ("my friend, {first},", True),
        ("我的{x}。", True),
        ("我的{x}；", True),
    ],
)
def test_a_phrase_may_end_in_a_closing_bracket_of_any_script(phrase: str, bad: bool) -> None:
    # a held-out Chinese library schema's refer "那本《{title}》" was rejected
    assert (ends_badly(phrase) is not None) is bad


def test_the_users_wording_by_scenario_may_leave_the_user_unnamed(tmp_path: Path) -> None:
    # "我的{label}是什么？", "Between {a} and me, ...": the user is "I", not a {who} or {b}
    code, out, _ = _validate(tmp_path, "questions.by_scenario.user.simple", ["What is my {label}?"])
    assert code == 0, out
    code, out, _ = _validate(
        tmp_path, "questions.by_scenario.user.comparative", ["Is {a} or am I {more}?"]
    )
    assert code == 0, out
    code, out, line = _validate(tmp_path, "questions.by_scenario.roles.simpel", ["{who}: {label}?"])
    assert code == 2
    assert re.search(
        rf"workshop\.en\.yaml:{line - 1}:\d+: .*by_scenario\.roles\.simpel: .*worded by nothing",
        out,
    ), out


def test_overlay_problems_are_reported_beside_the_schemas_own(tmp_path: Path) -> None:
    """A schema that does not load had its overlay checked only once its own problems
    were fixed: one round of fixes per file."""
    _, _, _ = _validate(tmp_path, "hearsay", ["A maker said so."])
    path = tmp_path / "workshop.en.yaml"
    text = path.read_text(encoding="utf-8")
    assert text.count("format_version: 2") == 1
    path.write_text(text.replace("format_version: 2", "format_version: 2\nbogus_key: 1"), "utf-8")
    result = CliRunner().invoke(main, ["schema", "validate", str(path)])
    assert result.exit_code == 2
    out = result.output + (result.stderr or "")
    assert "bogus_key" in out, out
    assert re.search(r"workshop\.en\.yaml:\d+:\d+: locale_overlay 'en': hearsay\.0: .*lacks", out)


@pytest.mark.parametrize(
    "written", ["{who}'s full name is {value}.", "{who}’s full name is {value}."]
)
def test_a_users_phrasing_that_cannot_say_the_user_is_warned_at_its_line(
    tmp_path: Path, written: str
) -> None:
    """ "{who}'s" reads "I's" of the user (and "{who}'s" may be "is": "my mentor's
    coming"): the phrasing should say {whose} or {who} {be}."""
    text = WORKSHOP.read_text(encoding="utf-8")
    good = '            - "{whose} full name is {value}."\n'
    assert text.count(good) == 1
    text = text.replace(good, f'            - "{written}"\n')
    path = tmp_path / "workshop.en.yaml"
    path.write_text(text, encoding="utf-8")
    line = text.splitlines().index(f'            - "{written}"') + 1
    result = CliRunner().invoke(main, ["schema", "validate", str(path)])
    out = result.output + (result.stderr or "")
    assert re.search(rf"workshop\.en\.yaml:{line}:\d+: warning: .*\{{whose\}}", out), out
    assert result.exit_code == 0, out
