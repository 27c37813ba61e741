"""Token counts of memory lines (``[time, place] text\\n``), by their parts.

At 100x noise a run renders millions of memory lines for ``full_context`` and
``noise_only``; their texts repeat (the noise pool) and their times differ. Under
o200k_base's pre-tokenizer no piece of text spans the ``"] "`` between a line's
header and its text: ``]`` is a punctuation piece that ends before whitespace, and a
piece may begin with a space but not with ``] ``. So a line's count is its header's
count plus the count of ``" " + text + "\\n"``, each of which is remembered.

Headers differ by their digits mostly. In o200k digits form pieces of their own
(``\\p{N}{1,3}``: no other piece holds a digit), so when every string of one to three
ASCII digits is a single token, replacing each ASCII digit of the time (between ``[``
and ``,``) by ``0`` keeps a header's count, and headers are remembered by the time's
shape and the place. Both facts are checked when the
counter is made, and a header holding another kind of numeral (``②``) is counted
whole. The counts are those of counting each line whole (``tests/bench``).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from itertools import product
from operator import add, attrgetter

from memsim._tokens import TokenCounter
from memsim.bench._reader import memory_line
from memsim.bench._types import Message

SPLIT_TOKENIZERS = frozenset({"o200k_base"})
"""Tokenizers whose pre-tokenizer is known to cut at ``"] "`` (see the docstring)."""
CACHE = 1 << 18
_ZEROS = str.maketrans("0123456789", "0000000000")
_TIME, _PLACE, _TEXT = attrgetter("time"), attrgetter("place"), attrgetter("text")


class LineTokens:
    """``count(message)`` == ``counter.count(memory_line(message))``, remembered by part."""

    def __init__(self, counter: TokenCounter) -> None:
        self.counter = counter
        self.split = counter.name in SPLIT_TOKENIZERS
        self.zeros = self.split and all(
            counter.count("".join(digits)) == 1
            for width in (1, 2, 3)
            for digits in product("0123456789", repeat=width)
        )
        self._heads: dict[tuple[str, str], int] = {}
        self._texts: dict[str, int] = {}

    def count(self, message: Message) -> int:
        if not self.split:
            return self.counter.count(memory_line(message))
        return self._head(message.time, message.place) + self._text(message.text)

    def counts(self, messages: Sequence[Message]) -> list[int]:
        """``[count(m) for m in messages]``, looked up in bulk: a 100x memory holds
        thousands of lines, and a Python step per line cost more than the look-ups."""
        if not self.split:
            return [self.counter.count(memory_line(m)) for m in messages]
        if not messages:
            return []
        shapes = self._shapes(list(map(_TIME, messages)))
        heads = list(map(self._heads.get, zip(shapes, map(_PLACE, messages), strict=True)))
        bodies = list(map(self._texts.get, map(_TEXT, messages)))
        if None in heads:
            heads = [
                self._head(m.time, m.place) if n is None else n
                for n, m in zip(heads, messages, strict=True)
            ]
        if None in bodies:
            bodies = [
                self._text(m.text) if n is None else n
                for n, m in zip(bodies, messages, strict=True)
            ]
        return list(map(add, heads, bodies))

    def _shapes(self, times: list[str]) -> list[str]:
        """Each time's shape (its ASCII digits zeroed, see the module docstring), the
        times joined so that they are translated in one call when all are ASCII."""
        if not self.zeros:
            return times
        joined = "\n".join(times)
        if joined.isascii() and joined.count("\n") == len(times) - 1:
            return joined.translate(_ZEROS).split("\n")
        return [t.translate(_ZEROS) if _plain_digits(t) else t for t in times]

    def _head(self, time: str, place: str) -> int:
        # the time's digits are pieces of their own, between "[" and ","
        shape = time.translate(_ZEROS) if self.zeros and _plain_digits(time) else time
        n = self._heads.get((shape, place))
        if n is None:
            if len(self._heads) >= CACHE:
                self._heads.clear()
            n = self._heads[shape, place] = self.counter.count(f"[{time}, {place}]")
        return n

    def _text(self, text: str) -> int:
        n = self._texts.get(text)
        if n is None:
            if len(self._texts) >= CACHE:
                self._texts.clear()
            n = self._texts[text] = self.counter.count(f" {text}\n")
        return n


def _plain_digits(text: str) -> bool:
    """Whether the only numerals in ``text`` are ASCII digits."""
    return text.isascii() or not any(
        unicodedata.category(c)[0] == "N" for c in text if not c.isascii()
    )
