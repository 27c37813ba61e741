"""A word a phrasing writes right before a token that begins with the same word is said
once: a date-time is rendered with its preposition ("on May 3, 2025 at 9:00 AM"), so
"{who} is on {value}." would otherwise say "is on on"."""

from __future__ import annotations

from memsim.verbalize import load_locale
from memsim.verbalize._template import fill, seamless, time_prepositions

EN = load_locale("en")


def test_the_phrasings_word_is_dropped_where_the_value_repeats_it() -> None:
    tokens = {"who": "the Ames market day", "value": "on May 3, 2025 at 9:00 AM"}
    said = fill(EN, "{who} is on {value}.", tokens)
    assert said == "The Ames market day is on May 3, 2025 at 9:00 AM."
    assert fill(EN, "{who} starts {value}.", tokens).count(" on ") == 1


def test_only_the_same_word_and_only_at_the_seam() -> None:
    tokens = {"who": "my sowing", "value": "on May 3"}
    assert seamless("{who} is set for {value}.", tokens) == "my sowing is set for on May 3."
    assert seamless("On {value}, on time.", tokens) == "on May 3, on time."
    assert seamless("Upon {value}.", tokens) == "Upon on May 3."  # a longer word is kept
    assert seamless("{{on}} {value}", tokens) == "{on} on May 3"  # braces are literal


def test_a_template_with_a_format_spec_is_formatted_as_written() -> None:
    assert seamless("at {value!s}", {"value": "at noon"}) == "at at noon"


def test_another_preposition_before_a_date_time_keeps_the_phrasings() -> None:
    """A held-out landlord schema phrased a repair's time "{who} is booked for {value}."
    and said "booked for on April 12, 2025 at 9:00 AM": the value's own preposition (the
    first word of the locale's date-time forms) gives way to the phrasing's."""
    tokens = {"who": "the damp wall repair", "value": "on April 12, 2025 at 9:00 AM"}
    said = fill(EN, "{who} is booked for {value}.", tokens)
    assert said == "The damp wall repair is booked for April 12, 2025 at 9:00 AM."
    relative = {**tokens, "value": "this Sunday at 1:30 PM"}
    assert fill(EN, "{who} is booked for {value}.", relative).endswith(
        "for this Sunday at 1:30 PM."
    )
    assert fill(EN, "{who} happens {value}.", tokens).endswith(
        "happens on April 12, 2025 at 9:00 AM."
    )
    assert time_prepositions(("on {date} at {clock}", "tomorrow at {clock}"), ("for", "on")) == {
        "on"
    }


def test_a_language_whose_date_times_start_otherwise_is_unchanged() -> None:
    zh = load_locale("zh")
    tokens = {"who": "那场婚宴", "value": "2025年4月3日下午5点"}
    assert fill(zh, "{who}定在{value}。", tokens) == "那场婚宴定在2025年4月3日下午5点。"
    cal = zh.calendar
    forms = (cal.on_date, cal.tomorrow, cal.this_weekday, cal.next_weekday)
    assert time_prepositions(forms, tuple(zh.grammar.object_after)) == frozenset()


def test_a_relative_date_time_takes_no_preposition_of_time() -> None:
    """A held-out sailing schema phrased a voyage "{who} sails on {value}." and said
    "sails on next Tuesday at 2:00 PM": before a date-time said relatively (the first
    word of a locale form that is not a preposition) the phrasing's "on" is dropped."""
    who = "my voyage to Valencia"
    for value in ("next Tuesday at 2:00 PM", "this Friday at 9:30 AM", "tomorrow at 6:00 AM"):
        said = fill(EN, "{who} sails on {value}.", {"who": who, "value": value})
        assert said == f"My voyage to Valencia sails {value}."
    dated = fill(EN, "{who} sails on {value}.", {"who": who, "value": "on May 3, 2025 at 2:00 PM"})
    assert dated == "My voyage to Valencia sails on May 3, 2025 at 2:00 PM."
    # another preposition is kept ("for this Sunday"), and "on" before other words too
    kept = fill(EN, "{who} is set for {value}.", {"who": who, "value": "this Sunday at 1:30 PM"})
    assert kept.endswith("set for this Sunday at 1:30 PM.")
    assert seamless("on {value}", {"value": "next door"}) == "on next door"
