"""An identifier value (phone, e-mail, card number) is found in a text by walking the
text's letters and digits, without a pattern per value: the same answer as the pattern
(identifier_regex) on any text, separators, scripts and case foldings included."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from memsim.verify._facts import identifier_regex, identifier_stated
from memsim.verify._numbers import fold

_PIECES = st.sampled_from(
    [*"0123456789abcXYZ-_ .@+()", "号", "码", "。", "ß", "１", "²", "\u0301", "Ⅻ", "ａ", "é", "İ"]
)


def _pattern_says(text: str, value: str) -> bool:
    return identifier_regex(value).search(fold(text)) is not None


@settings(max_examples=3000, deadline=None)
@given(
    st.lists(_PIECES, max_size=14).map("".join),
    st.lists(_PIECES, min_size=1, max_size=8).map("".join),
    st.integers(min_value=0, max_value=14),
    st.booleans(),
)
def test_same_answer_as_the_pattern(text: str, value: str, cut: int, inside: bool) -> None:
    if inside:  # often the value is there, with something around it
        text = text[:cut] + value + text[cut:]
    assert identifier_stated(text, value) == _pattern_says(text, value)


def test_examples() -> None:
    assert identifier_stated("号码是13412345678。", "13412345678")
    assert identifier_stated("Call me at 310-912-7531!", "3109127531")
    assert identifier_stated("write to LI_MING@X.COM", "li_ming@x.com")
    assert not identifier_stated("card 123456789", "2345678")  # inside a longer run
    assert not identifier_stated("id x3109127531", "3109127531")
    long = "and so on, " * 300  # past the remembered texts' length
    assert identifier_stated(long + "310 912 7531.", "3109127531")
    assert not identifier_stated(long + "x3109127531", "3109127531")
    for text, value in [("a 1234 b", "1234"), ("a1234", "1234"), ("@@@@", "@@@@")]:
        assert identifier_stated(text, value) == _pattern_says(text, value)
