"""parse_choice: the letter an LLM's reply chose, or None."""

from __future__ import annotations

import pytest

from memsim.bench import parse_choice

CHOICES = {"A": "Boston", "B": "Denver", "C": "62", "D": "162"}


@pytest.mark.parametrize(
    ("reply", "letter"),
    [
        ("B", "B"),
        ("b", "B"),
        ("(B)", "B"),
        ("**B**", "B"),
        ("B.", "B"),
        ("Ｂ", "B"),  # full width
        ("Answer: B.", "B"),
        ("the answer is b", "B"),
        ("The correct answer is (D).", "D"),
        ("I choose C", "C"),
        ("Option (C)", "C"),
        ("A good question. The answer is D.", "D"),  # the article "A" is not an answer
        ("I think it's C", "C"),
        ("C. 62", "C"),
        ("Denver", "B"),  # an option's text instead of its letter
        ("It is Denver.", "B"),
        ("162", "D"),  # "162" contains "62": the longer option wins
        ("答案是B", "B"),
        ("答案：B", "B"),
        ("正确答案为 D。", "D"),
        ("选B", "B"),
        ("我选C。", "C"),
        ("B选项", "B"),
        ("（Ｃ）", "C"),
    ],
)
def test_parses(reply: str, letter: str) -> None:
    assert parse_choice(reply, CHOICES) == letter


@pytest.mark.parametrize(
    "reply",
    [
        "",
        None,
        "I don't know.",
        "A or B",
        "The answer is A or C.",
        "答案是A和C",
        "选A或B",
        "B/C",
        "Between A and B, hard to say",
        "A. Denver",  # the letter and the text disagree
        "Boston or Denver",
        "E",  # not an option
    ],
)
def test_ambiguous_or_unparseable_is_none(reply: str | None) -> None:
    assert parse_choice(reply, CHOICES) is None


def test_chinese_option_text() -> None:
    choices = {"A": "本科", "B": "专科", "C": "硕士", "D": "高中"}
    assert parse_choice("我觉得是高中", choices) == "D"
    assert parse_choice("本科或者硕士", choices) is None


def test_no_choices() -> None:
    assert parse_choice("A", {}) is None
