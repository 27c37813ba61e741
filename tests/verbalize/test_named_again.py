"""A phrasing that names its subject twice says it once, then by the possessive of one
already named ("my mentor celebrates their birthday", not "my mentor celebrates my
mentor's birthday"), in messages, in lines about people outside the profile and in the
patterns the audit reads those lines back with; the user keeps "my"."""

from __future__ import annotations

from memsim.verbalize import load_locale
from memsim.verbalize._agree import named_again
from memsim.verbalize._outsider import outsider_pattern
from memsim.verbalize._template import fact_tokens, fill

TWICE = "{who} celebrate{s} {whose} birthday on {value}."


def test_only_a_later_possessive_is_said_again() -> None:
    assert named_again(TWICE) == "{who} celebrate{s} {whose_again} birthday on {value}."
    assert named_again("{whose} dog and {whose} cat") == "{whose} dog and {whose_again} cat"
    assert named_again("{whose} name is {value}.") == "{whose} name is {value}."
    assert named_again("{who} {be} {value}, {who} said.") == "{who} {be} {value}, {who} said."


def test_someone_else_is_named_once_and_the_user_says_my() -> None:
    loc = load_locale("en")
    other = fact_tokens(loc, loc.other_forms, "May 3", "my mentor", None)
    mine = fact_tokens(loc, loc.self_forms, "May 3", "I", None)
    assert fill(loc, TWICE, other) == "My mentor celebrates their birthday on May 3."
    assert fill(loc, TWICE, mine) == "I celebrate my birthday on May 3."


def test_the_audit_reads_a_line_about_an_outsider_back() -> None:
    loc = load_locale("en")
    who = loc.hearsay_people[0].format(first="Anna", last="Lee")
    line = fill(loc, TWICE, fact_tokens(loc, loc.other_forms, "May 3", who, None))
    assert "their birthday" in line and line.count("Anna") == 1
    found = outsider_pattern(TWICE, loc, "").fullmatch(line)
    assert found is not None and found.group("value") == "May 3"


def test_chinese_says_its_own_possessive_again() -> None:
    loc = load_locale("zh")
    tokens = fact_tokens(loc, loc.other_forms, "5月3日", "我朋友李安", None)
    assert fill(loc, "{who}在{value}过{whose}生日。", tokens) == "我朋友李安在5月3日过自己的生日。"
    mine = fact_tokens(loc, loc.self_forms, "5月3日", "我", None)
    assert fill(loc, "{who}在{value}过{whose}生日。", mine) == "我在5月3日过我的生日。"


def test_a_locale_without_the_form_repeats_the_possessive() -> None:
    loc = load_locale("en")
    plain = loc.model_copy(
        update={"other_forms": loc.other_forms.model_copy(update={"again": None})}
    )
    tokens = fact_tokens(plain, plain.other_forms, "May 3", "my mentor", None)
    assert fill(plain, TWICE, tokens) == "My mentor celebrates my mentor's birthday on May 3."
