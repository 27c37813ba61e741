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


# a second {who}: "I would call I a hobbyist" where the user names themself again
CALLS = "{who} would call {who} {a} {value}."
AWAY = "When {who} {be} off the road, {who} {be} in {value}."
VISIT = "{who} {be} in {value}, and friends visit {who} there."


def _said(template: str, user: bool) -> str:
    loc = load_locale("en")
    forms = loc.self_forms if user else loc.other_forms
    who = "I" if user else "my bandmate"
    return fill(loc, template, fact_tokens(loc, forms, "Denver", who, None))


def test_a_second_who_takes_the_form_its_place_needs() -> None:
    # the object of the clause the subject is named in: reflexive
    assert _said(CALLS, True) == "I would call myself a Denver."
    assert _said(CALLS, False) == "My bandmate would call themselves a Denver."
    # a subject again, in a clause of its own: as named
    assert _said(AWAY, True) == "When I am off the road, I am in Denver."
    assert _said(AWAY, False) == "When my bandmate is off the road, my bandmate is in Denver."
    # an object in another clause: the object form of one already named
    assert _said(VISIT, True) == "I am in Denver, and friends visit me there."
    assert _said(VISIT, False) == "My bandmate is in Denver, and friends visit them there."


def test_chinese_says_a_second_who_as_written() -> None:
    loc = load_locale("zh")
    mine = fact_tokens(loc, loc.self_forms, "丹佛", "我", None)
    assert fill(loc, "{who}管{who}叫{value}。", mine) == "我管我叫丹佛。"


def test_the_audit_reads_a_second_who_about_an_outsider_back() -> None:
    loc = load_locale("en")
    who = loc.hearsay_people[0].format(first="Anna", last="Lee")
    for template in (CALLS, VISIT):
        line = fill(loc, template, fact_tokens(loc, loc.other_forms, "Denver", who, None))
        assert line.count("Anna") == 1, line
        found = outsider_pattern(template, loc, "").fullmatch(line)
        assert found is not None and found.group("value") == "Denver", line
