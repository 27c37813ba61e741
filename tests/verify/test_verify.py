"""memsim.verify on hand-written messages: what counts as stating a value, and which
rewrites are rejected and why."""

from __future__ import annotations

import datetime as dt

import pytest
from stated import stated_at

from memsim.schema import load_schema
from memsim.verbalize import load_locale
from memsim.verify import (
    StatedFact,
    Vocabulary,
    check_rewrite,
    clocks_in,
    dates_in,
    fact_stated,
    meta_text_in,
    numbers_in,
    relative_days_in,
    vocabulary_for,
)
from memsim.verify._dates import DateMention

EN = load_locale("en")
WED = dt.datetime(2024, 5, 22, 10, 0)  # a Wednesday


def stated(
    attr: str, type_: str, value: object, kind: str = "relative", **facts: object
) -> StatedFact:
    return stated_at(WED, attr, type_, value, kind, **facts)


# --- numbers, dates, clocks -----------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("My mother is 62.", [62]),
        ("She is sixty-two years old.", [62]),
        ("one hundred and five people", [105]),
        ("Around 1,000 people", [1000]),
        ("I often play tennis", []),  # no "ten" inside words
        ("call 3109127531", [3109127531]),
        ("２０ people", [20]),  # full-width digits
    ],
)
def test_numbers_in(text: str, expected: list[int]) -> None:
    assert numbers_in(text, EN) == expected


def test_dates_in_every_form() -> None:
    found = dates_in("May 28, 2024; 12 July; 7/4/2024; the 3rd of March; Dec 1st", EN)
    assert {
        DateMention(2024, 5, 28),
        DateMention(None, 7, 12),
        DateMention(2024, 7, 4),
        DateMention(None, 3, 3),
        DateMention(None, 12, 1),
    } <= found
    assert dates_in("I have 28 reasons", EN) == set()


def test_clocks_in_twelve_and_twenty_four_hour() -> None:
    assert clocks_in("at 7:30 PM", EN) == {(19, 30)}  # not also 07:30
    assert clocks_in("at 10:05 PM", EN) == {(22, 5)}  # the 05 is no hour
    assert clocks_in("19:45 or 7 am or 8.15 in the evening", EN) == {(19, 45), (7, 0), (20, 15)}
    assert clocks_in("12:00 AM", EN) == {(0, 0)}


def test_relative_days_follow_the_renderers_week_rule() -> None:
    # said on Wednesday 2024-05-22: "this Friday" is the 24th, "next Monday" the 27th,
    # "next Friday" the 31st (the Friday of the following Monday-Sunday week)
    assert relative_days_in("tomorrow", WED, EN) == {dt.date(2024, 5, 23)}
    assert relative_days_in("this Friday", WED, EN) == {dt.date(2024, 5, 24)}
    assert relative_days_in("next Monday", WED, EN) == {dt.date(2024, 5, 27)}
    assert relative_days_in("next Friday", WED, EN) == {dt.date(2024, 5, 31)}


# --- fact_stated ----------------------------------------------------------------------
@pytest.mark.parametrize(
    ("fact", "yes", "no"),
    [
        (stated("age", "integer", 62), "My mom turns sixty-two", "My mom is 63"),
        # a number inside a date is the day or the year, not the value
        (
            stated("wage", "integer", 17),
            "I paid my hand 17 dollars an hour before the raise on April 17, 2025.",
            "I pay my hand 20 dollars an hour since the raise on April 17, 2025.",
        ),
        (stated("year", "integer", 2025), "It was built in 2025.", "It opened on May 3, 2025."),
        (stated("birthday", "month_day", "07-12"), "born on the 12th of July", "born July 13"),
        (
            stated("time", "datetime", "2024-05-31T19:30", kind="work_event[0]"),
            "It's next Friday at 7:30 PM.",
            "It's this Friday at 7:30 PM.",
        ),
        (
            stated("time", "datetime", "2024-05-31T19:30", kind="work_event[0]"),
            "It's on May 31 at 19:30.",
            "It's on May 31 at 7:30 AM.",
        ),
        (stated("phone", "text", "3109127531"), "call (310) 912-7531", "call 13109127531"),
        (
            stated("email", "text", "a.b_c7@x.com"),
            "write to A.B_C7@X.COM!",
            "write to a.b_c8@x.com",
        ),
        (stated("scale", "categorical", "1,000 people"), "about 1000 people", "about 100 people"),
        (stated("duration", "categorical", "2 hours"), "it takes two hours", "it takes 2 days"),
        (
            stated("hometown", "categorical", "Salt Lake City"),
            "from salt lake city",
            "from Salt Lake",
        ),
        (stated("hometown", "categorical", "湖北武汉"), "她来自湖北 武汉。", "她来自湖北黄石。"),
    ],
)
def test_fact_stated(fact: StatedFact, yes: str, no: str) -> None:
    assert fact_stated(yes, fact, EN)
    assert not fact_stated(no, fact, EN)


# --- check_rewrite --------------------------------------------------------------------
@pytest.fixture(scope="module")
def vocab() -> Vocabulary:
    schema = load_schema("schemas/daily_life.en.yaml")
    return vocabulary_for(schema, EN, extra_values=["Laura Tran", "Riverside Park"])


AGE = stated("age", "integer", 62, relation="mother")
SOURCE = "My mother's age is 62."


def test_a_faithful_rewrite_passes(vocab: Vocabulary) -> None:
    assert check_rewrite(SOURCE, "Funny thing, my mother is already 62!", [AGE], EN, vocab) == []
    assert (
        check_rewrite(SOURCE, "Can you believe my mother just turned sixty-two?", [AGE], EN, vocab)
        == []
    )


@pytest.mark.parametrize(
    ("rewrite", "reason"),
    [
        ("", "empty"),
        ("My mother is getting old.", "drops relative[0].age"),
        ("My mother is 63.", "drops relative[0].age"),
        ("My father is 62.", "drops relative[0].relation"),  # another entity
        ("My mother is 62 and lives 5 miles away.", "new number 5"),
        ("My mother is 62 and lives in Denver.", "new value 'denver'"),
        ("My mother, Laura Tran, is 62.", "new value 'laura tran'"),
        ("My mother is 62 and her friend Gwendolyn visits.", "new name 'Gwendolyn'"),
        # a name outside the schema written in lowercase: the locale's known_names
        ("my mother is 62 and she lives in shanghai.", "new value 'shanghai'"),
        ("Here is the rewritten message: my mother is 62.", "meta text"),
        ("My mother is {value}.", "meta text"),
        ("My mother is 62. " + "Blah blah. " * 30, "runs on"),
    ],
)
def test_unfaithful_rewrites_are_rejected(vocab: Vocabulary, rewrite: str, reason: str) -> None:
    reasons = check_rewrite(SOURCE, rewrite, [AGE], EN, vocab)
    assert any(r.startswith(reason) for r in reasons), reasons


def test_clock_and_phone_reformatting_is_not_a_new_number(vocab: Vocabulary) -> None:
    event = stated("time", "datetime", "2024-05-31T19:30", kind="work_event[0]")
    src = "I'm going to the team dinner next Friday at 7:30 PM."
    assert (
        check_rewrite(src, "Team dinner next Friday, 19:30, can't wait.", [event], EN, vocab) == []
    )
    phone = stated("phone", "text", "3109127531", relation="mother")
    src = "My mother's phone number is 3109127531."
    assert check_rewrite(src, "Reach my mother at 310-912-7531.", [phone], EN, vocab) == []


def test_a_value_said_in_the_source_may_stay(vocab: Vocabulary) -> None:
    src = "Originally, my mother is from Denver."
    home = stated("hometown", "categorical", "Denver", relation="mother")
    assert check_rewrite(src, "My mother grew up in Denver, you know.", [home], EN, vocab) == []


def test_meta_markers_are_whole_words(vocab: Vocabulary) -> None:
    # "persona" is a meta marker, "personality" is an attribute's label
    personality = stated("personality", "categorical", "outgoing", relation="mother")
    src = "My mother is outgoing."
    rewrite = "My mother's personality? Mostly outgoing."
    assert meta_text_in(rewrite, EN) == []
    assert check_rewrite(src, rewrite, [personality], EN, vocab) == []
    leaked = "My mother is outgoing (persona: mother)."
    assert "persona" in meta_text_in(leaked, EN)
    assert any(
        r.startswith("meta text 'persona'")
        for r in check_rewrite(src, leaked, [personality], EN, vocab)
    )


def test_remembered_answers_are_the_callers_own() -> None:
    """Words, numbers, dates and clocks of a text are remembered per locale: a caller that
    changes what it got back changes nothing for the next caller."""
    from memsim.verify._facts import words

    text = "On July 12 at 7:30 PM I paid 1,000 dollars"
    for find in (dates_in, clocks_in, words, numbers_in):
        first = find(text, EN)
        assert first
        expected = type(first)(first)
        first.clear()
        assert find(text, EN) == expected
