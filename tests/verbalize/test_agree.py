"""Agreement the phrasing tokens cannot carry alone (memsim.verbalize._agree): verb
endings by the stem ("does", "carries") and the user's {who} as an object ("me")."""

from __future__ import annotations

import pytest

from memsim.verbalize import fact_tokens, fill, load_locale

EN = load_locale("en")
ZH = load_locale("zh")


def _said(template: str, user: bool) -> str:
    forms = EN.self_forms if user else EN.other_forms
    return fill(EN, template, fact_tokens(EN, forms, "V", "I" if user else "our drummer", None))


@pytest.mark.parametrize(
    ("template", "mine", "theirs"),
    [
        ("{who} do{s} {value}.", "I do V.", "Our drummer does V."),
        ("{who} carry{s} {value}.", "I carry V.", "Our drummer carries V."),
        ("{who} watch{s} {value}.", "I watch V.", "Our drummer watches V."),
        ("{who} play{s} {value}.", "I play V.", "Our drummer plays V."),
        ("{who} want{s} {value}.", "I want V.", "Our drummer wants V."),
        ("Between tours {who} go{s} to {value}.", "Between tours I go to V.", None),
    ],
)
def test_verb_endings_follow_the_stem(template: str, mine: str, theirs: str | None) -> None:
    assert _said(template, user=True) == mine
    if theirs is not None:
        assert _said(template, user=False) == theirs


@pytest.mark.parametrize(
    ("template", "mine"),
    [
        # the object: after a preposition, or after a verb before the value, a
        # preposition or the end of a clause
        ("Promoters can reach {who} at {value}.", "Promoters can reach me at V."),
        ("Everyone calls {who} {value}.", "Everyone calls me V."),
        ("Venues write to {who} at {value}.", "Venues write to me at V."),
        ("The workshop line for {who} is {value}.", "The workshop line for me is V."),
        ("My customers know {who} as {value}.", "My customers know me as V."),
        ("To find {who}, go to {value}.", "To find me, go to V."),
        # the subject, wherever it stands
        ("{who} {be} {value}.", "I am V."),
        (
            "When {who} {be} off the road, {who} {be} in {value}.",
            "When I am off the road, I am in V.",
        ),
        ("Between tours {who} live in {value}.", "Between tours I live in V."),
        ("The music {who} play is mostly {value}.", "The music I play is mostly V."),
        (
            "As a gardener, {who} would call myself {value}.",
            "As a gardener, I would call myself V.",
        ),
        ("If {who} had to pick one, it would be {value}.", "If I had to pick one, it would be V."),
    ],
)
def test_the_users_who_is_me_where_it_is_the_object(template: str, mine: str) -> None:
    assert _said(template, user=True) == mine
    # anyone else is named the same way in both places
    assert "our drummer" in _said(template, user=False).lower()


def test_a_locale_without_grammar_data_is_left_as_written() -> None:
    tokens = fact_tokens(ZH, ZH.other_forms, "V", "我们的鼓手", None)
    assert fill(ZH, "大家都叫{who}{value}。", tokens) == "大家都叫我们的鼓手V。"
    mine = fact_tokens(ZH, ZH.self_forms, "V", "我", None)
    assert fill(ZH, "大家都叫{who}{value}。", mine) == "大家都叫我V。"
