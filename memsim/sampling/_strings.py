"""Text columns built for a whole batch at once.

Text attributes (names, phone numbers, identifiers, e-mail addresses, templates) are
columns of Python strings (numpy object arrays). Building them one profile at a time
in Python was most of the sampler's time, so here strings are assembled from columns:
digits as code-point matrices viewed as fixed-width strings, concatenation as numpy's
element-wise ``+`` on object arrays, and a format applied once per distinct
combination of its inputs (a template's choice and its fills repeat across profiles).
"""

from __future__ import annotations

import re
import string
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache

import numpy as np
from numpy.typing import NDArray

Strings = NDArray[np.object_]
Codes = NDArray[np.int64]
_FORMATTER = string.Formatter()
_WORD = re.compile(r"[a-z0-9]+")
DENSE_FACTOR = 4
"""Combinations of keys are counted in a table when it has at most this many entries
per row (plus a few thousand), else sorted."""


def as_strings(values: Sequence[str]) -> Strings:
    out = np.empty(len(values), dtype=object)
    out[:] = list(values)
    return out


def factorize(texts: Sequence[str] | Strings) -> tuple[Codes, Strings]:
    """Codes and the distinct texts in first-seen order: ``texts == table[codes]``."""
    index: dict[str, int] = {}
    codes = np.fromiter((index.setdefault(t, len(index)) for t in texts), np.int64, len(texts))
    return codes, as_strings(list(index))


def digits_matrix(numbers: Sequence[tuple[NDArray[np.int64], int]]) -> NDArray[np.uint32]:
    """The decimal digits of each ``(numbers, width)`` chunk side by side, zero-padded
    to its width, as code points: one row per profile."""
    rows = len(numbers[0][0]) if numbers else 0
    out = np.empty((rows, sum(width for _, width in numbers)), dtype=np.uint32)
    end = 0
    for values, width in numbers:
        # last digit first, dividing by the scalar 10 each time: numpy divides by a
        # scalar far faster than by an array of powers of ten (same digits, floor
        # division composes: (v // 10) // 10 == v // 100)
        rest = values.astype(np.int64, copy=True)
        end += width
        for column in range(end - 1, end - width - 1, -1):
            out[:, column] = rest % 10
            rest //= 10
    out += ord("0")
    return out


def fill_patterns(
    codes: Codes, patterns: Sequence[str], slots: Mapping[str, NDArray[np.uint32]]
) -> Strings:
    """Per profile, its pattern (``patterns[codes[row]]``) with the k-th ``c`` replaced
    by ``slots[c][row, k]`` for every slot character ``c`` (``#`` a digit, ``%`` a
    non-zero digit): one code-point matrix for every row, viewed as fixed-width
    strings, so each string is created once."""
    n, width = len(codes), max(max(map(len, patterns), default=0), 1)
    sources = [_sources(pattern, slots, width) for pattern in patterns]
    matrix = np.empty((n, width), dtype=np.uint32)
    # a position at a time when the patterns mostly agree on what a position holds
    # (a prefix, then digits), else a pattern at a time: whichever takes fewer passes
    by_position = sum(_position_passes(at) for at in zip(*sources, strict=True))
    if by_position <= sum(3 + len(_runs(source)) for source in sources):
        _fill_by_position(matrix, codes, sources, slots)
    else:
        _fill_by_pattern(matrix, codes, sources, slots)
    texts: Strings = matrix.view(f"<U{width}")[:, 0].astype(object)
    return texts


_Source = int | tuple[str, int]
"""What a position of a pattern holds: a code point, or the k-th value of slot c."""


def _position_passes(at: tuple[_Source, ...]) -> int:
    """Passes over the rows to fill one position held as ``at`` by the patterns: a
    copy when they agree, else a look-up of the literals and three per slot value."""
    if len(set(at)) == 1:
        return 1
    return 1 + 3 * len({a for a in at if not isinstance(a, int)})


def _fill_by_position(
    matrix: NDArray[np.uint32],
    codes: Codes,
    sources: list[list[_Source]],
    slots: Mapping[str, NDArray[np.uint32]],
) -> None:
    for i, at in enumerate(zip(*sources, strict=True)):
        if len(set(at)) == 1:  # the same in every pattern: no look-up by pattern
            only = at[0]
            matrix[:, i] = only if isinstance(only, int) else slots[only[0]][:, only[1]]
            continue
        literal = np.array([a if isinstance(a, int) else 0 for a in at], dtype=np.uint32)
        matrix[:, i] = literal[codes]
        for slot in {a for a in at if not isinstance(a, int)}:
            rows = np.flatnonzero(np.array([a == slot for a in at])[codes])
            matrix[rows, i] = slots[slot[0]][rows, slot[1]]


def _fill_by_pattern(
    matrix: NDArray[np.uint32],
    codes: Codes,
    sources: list[list[_Source]],
    slots: Mapping[str, NDArray[np.uint32]],
) -> None:
    for code, source in enumerate(sources):
        rows = np.flatnonzero(codes == code)
        taken = {char: values[rows] for char, values in slots.items()}
        sub = np.empty((len(rows), matrix.shape[1]), dtype=np.uint32)
        for start, stop, first in _runs(source):
            if isinstance(first, int):
                sub[:, start:stop] = [source[start:stop]]
            else:
                char, k = first
                sub[:, start:stop] = taken[char][:, k : k + stop - start]
        matrix[rows] = sub


def _runs(source: list[_Source]) -> list[tuple[int, int, _Source]]:
    """The pattern's positions in runs: literals, or consecutive values of one slot,
    as (start, stop, what the first position holds)."""
    runs: list[tuple[int, int, _Source]] = []
    for i, at in enumerate(source):
        if runs:
            start, _, first = runs[-1]
            if isinstance(first, int) and isinstance(at, int):
                runs[-1] = (start, i + 1, first)
                continue
            if isinstance(first, tuple) and at == (first[0], first[1] + i - start):
                runs[-1] = (start, i + 1, first)  # the next value of the same slot
                continue
        runs.append((i, i + 1, at))
    return runs


def _sources(pattern: str, slots: Mapping[str, NDArray[np.uint32]], width: int) -> list[_Source]:
    """What each position of a pattern holds: a literal's code point (0 past its end,
    which the fixed-width view drops) or the k-th value of slot c, as (c, k)."""
    used = dict.fromkeys(slots, 0)
    out: list[_Source] = []
    for char in pattern:
        if char in slots:
            out.append((char, used[char]))
            used[char] += 1
        else:
            out.append(ord(char))
    return out + [0] * (width - len(pattern))


def concat(parts: Sequence[str | Strings], n: int) -> Strings:
    """Element-wise concatenation of string columns and literals."""
    out: Strings | None = None  # no column of "" to add to: one pass fewer per call
    for part in parts:
        if isinstance(part, str):
            if part:
                out = as_strings([part] * n) if out is None else out + part
        else:
            out = part.copy() if out is None else out + part
    return as_strings([""] * n) if out is None else out


def vector_format(fmt: str, fills: Mapping[str, Strings], n: int) -> Strings:
    """``fmt.format(**row)`` for every row of the ``fills`` columns, by concatenation
    when the format has plain fields only, else row by row."""
    parsed = list(_FORMATTER.parse(fmt))
    plain = all(f is None or (f in fills and not spec and not conv) for _, f, spec, conv in parsed)
    if not plain:
        columns = {k: v.tolist() for k, v in fills.items()}
        return as_strings([fmt.format(**{k: v[r] for k, v in columns.items()}) for r in range(n)])
    parts: list[str | Strings] = []
    for literal, field, _, _ in parsed:
        parts.append(literal.replace("{", "{{").replace("}", "}}").format())
        if field is not None:
            parts.append(fills[field])
    return concat(parts, n)


def format_distinct(
    keys: Sequence[Codes], make: Callable[[NDArray[np.intp]], list[str]], n: int
) -> Strings:
    """A string per row that depends on the row's ``keys`` only: ``make(rows)`` gets one
    row per distinct combination of keys and returns their strings, which are then
    copied to the other rows."""
    codes, made = distinct_formats(keys, make, n)
    return made[codes]


def distinct_formats(
    keys: Sequence[Codes], make: Callable[[NDArray[np.intp]], list[str]], n: int
) -> tuple[Codes, Strings]:
    """:func:`format_distinct` as codes and the strings they index (one per distinct
    combination of keys, so a string may repeat)."""
    codes, rows = distinct_rows(keys, n)
    return codes, as_strings(make(rows))


def distinct_rows(keys: Sequence[Codes], n: int) -> tuple[Codes, NDArray[np.intp]]:
    """Codes of each row's combination of ``keys`` and one row per combination:
    ``keys[j][rows[codes[r]]] == keys[j][r]`` for every row r and key j."""
    if not keys:
        return np.zeros(n, dtype=np.int64), np.zeros(min(n, 1), dtype=np.intp)
    dims = [int(k.max(initial=0)) + 1 for k in keys]
    size = float(np.prod(dims, dtype=np.float64))
    if size <= DENSE_FACTOR * n + 1024:
        # a table over every possible combination: no sort (np.unique sorts, which
        # cost more than the formatting it saves)
        combined = np.ravel_multi_index(list(keys), dims) if len(keys) > 1 else keys[0]
        row_of = np.full(int(size), -1, dtype=np.intp)
        row_of[combined] = np.arange(n, dtype=np.intp)  # some row of each combination
        seen = row_of >= 0
        rank = np.cumsum(seen) - 1
        return rank[combined].astype(np.int64, copy=False), row_of[seen]
    if size < 2**62:
        combined = np.ravel_multi_index(list(keys), dims) if len(keys) > 1 else keys[0]
        _, first, inverse = np.unique(combined, return_index=True, return_inverse=True)
    else:
        _, first, inverse = np.unique(
            np.stack(keys, axis=1), axis=0, return_index=True, return_inverse=True
        )
    return inverse.ravel().astype(np.int64, copy=False), first.astype(np.intp, copy=False)


@lru_cache(maxsize=4096)
def positional(fmt: str, names: tuple[str, ...]) -> str | None:
    """``fmt`` with its fields numbered by their place in ``names``, so that
    ``positional(fmt, names).format(*values) == fmt.format(**dict(zip(names, values)))``
    (positional arguments cost a third of keyword ones); None when a field is not
    one of ``names`` or has a nested field in its spec (the caller formats by name)."""
    parts = []
    for literal, field, spec, conv in _FORMATTER.parse(fmt):
        parts.append(literal.replace("{", "{{").replace("}", "}}"))
        if field is None:
            continue
        if field not in names or "{" in (spec or ""):
            return None
        parts.append(
            f"{{{names.index(field)}{'!' + conv if conv else ''}{':' + spec if spec else ''}}}"
        )
    return "".join(parts)


def choose(weights: dict[str, float], u: NDArray[np.float64]) -> tuple[Codes, list[str]]:
    """Codes into ``list(weights)`` drawn with those weights."""
    keys = list(weights)
    cdf = np.cumsum([weights[k] for k in keys])
    codes = np.minimum(np.searchsorted(cdf / cdf[-1], u, side="right"), len(keys) - 1)
    return codes, keys


class WeightedPicks:
    """Indices drawn by uniforms with cumulative weights ``cdf``: exactly
    ``min(searchsorted(cdf, u * cdf[-1], "right"), len(cdf) - 1)``, by a guide table
    (a binary search per draw over a list of a thousand names costs more than the
    rest of a name column). Bucket b of the guide holds the count of weights at or
    below ``(b / K) * cdf[-1]``, a lower bound of the answer for every u in the bucket
    (K a power of two: ``u * K`` and ``b / K`` are exact, rounding is monotone); a
    draw starts there and steps past the weights at or below its ``u * cdf[-1]``."""

    def __init__(self, cdf: NDArray[np.float64]):
        self.cdf = np.append(cdf, np.inf)  # a stop past the end
        self.size = 1 << max(len(cdf) * 4 - 1, 1).bit_length()
        lows = (np.arange(self.size, dtype=np.float64) / self.size) * cdf[-1]
        self.guide = np.searchsorted(cdf, lows, side="right")
        self.last = len(cdf) - 1

    def pick(self, u: NDArray[np.float64]) -> Codes:
        x = u * self.cdf[-2]
        codes = self.guide[(u * self.size).astype(np.intp)]
        pending = np.flatnonzero(self.cdf[codes] <= x)
        while len(pending):
            codes[pending] += 1
            pending = pending[self.cdf[codes[pending]] <= x[pending]]
        out: Codes = np.minimum(codes, self.last)
        return out


def ascii_words(text: str, spellings: Mapping[str, str] | None = None) -> list[str]:
    """The lowercase ASCII words of a text. Accented letters lose their accents; other
    characters are transliterated (anyascii), and one of a script written without
    spaces (category Lo: Chinese, Japanese...) is a word of its own. ``spellings``
    replace the default reading of characters or phrases first (曾 -> zeng)."""
    if spellings:
        for source in _longest_first(tuple(spellings)):
            if source in text:
                text = text.replace(source, f" {spellings[source]} ")
    if not text.isascii():
        text = "".join(map(_romanise, text))
    return _WORD.findall(text.lower())


@lru_cache(maxsize=64)
def _longest_first(sources: tuple[str, ...]) -> list[str]:
    return sorted(sources, key=len, reverse=True)


@lru_cache(maxsize=8192)
def _romanise(char: str) -> str:
    if char.isascii():
        return char
    folded = unicodedata.normalize("NFKD", char).encode("ascii", "ignore").decode()
    if folded or unicodedata.combining(char):
        return folded
    from anyascii import anyascii

    latin = anyascii(char)
    return f" {latin} " if unicodedata.category(char) == "Lo" else latin
