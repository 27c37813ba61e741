"""A word a phrasing writes right before a token that begins with the same word is said
once: a date-time is rendered with its preposition ("on May 3, 2025 at 9:00 AM"), so
"{who} is on {value}." would otherwise say "is on on"."""

from __future__ import annotations

from memsim.verbalize import load_locale
from memsim.verbalize._template import fill, seamless

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
