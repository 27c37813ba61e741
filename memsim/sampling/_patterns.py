"""Identifiers and phone numbers: patterns whose slots take random digits, built as
code-point matrices for a whole batch.

A pattern (``D#######``, a phone prefix then digits) is a row of code points per
profile: literals broadcast, slot values copied from digit matrices, the whole
matrix viewed as fixed-width strings so that each string is created once.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from memsim.sampling._strings import Codes, Strings


def digits_matrix(numbers: Sequence[tuple[NDArray[np.int64], int]]) -> NDArray[np.uint32]:
    """The decimal digits of each ``(numbers, width)`` chunk side by side, zero-padded
    to its width, as code points: one row per profile."""
    rows = len(numbers[0][0]) if numbers else 0
    out = np.empty((rows, sum(width for _, width in numbers)), dtype=np.uint32)
    end = 0
    for values, width in numbers:
        # last digit first, dividing by the scalar 10 each time: numpy divides by a
        # scalar far faster than by an array of powers of ten (same digits, floor
        # division composes: (v // 10) // 10 == v // 100), and 32-bit integers faster
        # than 64-bit ones (a chunk of up to nine digits fits)
        rest: NDArray[Any] = values.astype(np.uint32 if width <= 9 else np.int64)
        end += width
        for column in range(end - 1, end - width - 1, -1):
            out[:, column] = rest % 10  # a Python int keeps the array's type (NEP 50)
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


__all__ = ["digits_matrix", "fill_patterns"]
