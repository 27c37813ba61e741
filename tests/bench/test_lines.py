"""Memory lines counted by part give the count of the whole line."""

from __future__ import annotations

import pytest

from memsim.bench._lines import LineTokens
from memsim.bench._reader import memory_line
from memsim.bench._types import Message

TEXTS = [
    "My younger sister's workplace is in Atlanta.",
    "  starts with spaces",
    "",
    "5 o'clock: ok",
    "(in brackets) ]] [x]",
    "我妈妈的生日是5月3日。",
    "Ends with newline\n",
    "e-mail stephanie_chambers65@healthfirstdrugstore.com",
]
TIMES = ["2024-04-14T09:28", "2024-12-31T23:59", "2024年04月03日 周三 07:53", "Wed 7:05 PM", "①"]
PLACES = ["home, San Francisco", "阳光小区", "Room 101, 5th floor", ""]


def test_counts_by_part_equal_whole_line_counts() -> None:
    counter = pytest.importorskip("memsim._tokens").token_counter()
    if counter is None:
        pytest.skip("needs the tokens extra")
    lines = LineTokens(counter)
    assert lines.split and lines.zeros  # o200k: both shortcuts apply
    memory = []
    for text in TEXTS:
        for time in TIMES:
            for place in PLACES:
                m = Message(len(memory), text, time, place)
                assert lines.count(m) == counter.count(memory_line(m)), (text, time, place)
                memory.append(m)
    fresh = LineTokens(counter)  # in one pass, with nothing remembered yet
    assert fresh.counts(memory) == [counter.count(memory_line(m)) for m in memory]


@pytest.mark.parametrize("extra", ["", "Mon\n07:00"])
def test_counts_in_bulk_equal_one_by_one(extra: str) -> None:
    """``counts`` zeroes the digits of an ASCII memory's times in one call (a time holding
    the separator, a newline, sends it back to one time at a time), and looks the parts
    up in bulk: the same counts as ``count`` line by line."""
    counter = pytest.importorskip("memsim._tokens").token_counter()
    if counter is None:
        pytest.skip("needs the tokens extra")
    times = [t for t in TIMES if t.isascii()] + ([extra] if extra else [])
    memory = [
        Message(i, text, time, place)
        for i, (text, time, place) in enumerate(
            (x, t, p) for x in TEXTS[:5] for t in times for p in PLACES if p.isascii()
        )
    ]
    assert LineTokens(counter).counts(memory) == [LineTokens(counter).count(m) for m in memory]
    warm = LineTokens(counter)
    warm.counts(memory[:7])  # some parts remembered, others not
    assert warm.counts(memory) == [counter.count(memory_line(m)) for m in memory]
    assert warm.counts([]) == []
