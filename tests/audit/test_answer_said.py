"""The audit's ``answer_in_question`` reads an answer as said by the question only where
the question says it: a held-out landlord schema's noisy preface "I'm tired" was read as
saying the answer "red" (a van's colour), and "Who is older, my tenant in the attic flat
or I?" as giving away the tenant, the other option "I" being too short to count."""

from __future__ import annotations

import re
from pathlib import Path

from memsim.audit._cues import answer_said
from tests.audit.conftest import ROOT, audit_check, generate, generated_records, tampered


def test_a_latin_word_is_said_only_whole() -> None:
    asked = "I've just come back and I'm tired. Anyway: what is the colour of my van?"
    assert answer_said(asked, "red", ["white", "silver", "black"]) is None
    told = "Is my van red? Remind me: what is its colour?"
    assert answer_said(told, "red", ["white", "silver", "black"]) == "red"
    assert answer_said("What is the colour; red?", "white; red", ["a; b"]) == "red"


def test_a_short_distractor_named_too_is_no_cue() -> None:
    asked = "Who is older, my tenant in the attic flat or I?"
    options = ["They are the same", "I", "I never told you both"]
    assert answer_said(asked, "My tenant in the attic flat", options) is None
    assert (
        answer_said("我们的砧板师傅和我，谁的年龄更大？", "我们的砧板师傅", ["我", "两者一样"])
        is None
    )
    assert (
        answer_said("我们的砧板师傅的班次是什么？", "我们的砧板师傅", ["早班"]) == "我们的砧板师傅"
    )


def test_the_user_is_an_option_in_the_object_form(tmp_path: Path) -> None:
    # "Comparing my heavyweight wrestler and me, whose ...?" is answered "Me", not "I";
    # data that names the option "I" (memsim before stop 31, or made elsewhere) is read
    # with "me" for "I", else the question's "me" read as giving the wrestler away
    schema = ROOT / "tests" / "data" / "coach.en.yaml"
    generate(tmp_path, schema, 120, 40, "comparative")
    records = generated_records(tmp_path)
    second = [
        r
        for r in records
        if r["scenario"] == "user" and re.search(r" and me\b", r["QA"]["question"])
    ]
    assert second
    options = [c for r in second for c in r["QA"]["choices"].values()]
    assert "Me" in options and "I" not in options
    _, found = audit_check(tmp_path / "d", tmp_path, schema, "answer_in_question")
    assert not found, found

    for r in second:  # the option as older data names it
        r["QA"]["choices"] = {k: "I" if c == "Me" else c for k, c in r["QA"]["choices"].items()}
        if r["QA"].get("answer") == "Me":
            r["QA"]["answer"] = "I"
    bare = [
        q
        for q in (r["QA"] for r in second)
        if answer_said(
            q["question"],
            q["choices"][q["ground_truth"]],
            [c for k, c in q["choices"].items() if k != q["ground_truth"]],
        )
    ]
    assert bare  # without "me" for "I", some of them read as a cue
    _, found = audit_check(tampered(tmp_path, second), tmp_path, schema, "answer_in_question")
    assert not found, found
