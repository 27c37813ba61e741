"""Text columns built for a whole batch at once.

Text attributes (names, phone numbers, identifiers, e-mail addresses, templates) are
columns of Python strings (numpy object arrays). Building them one profile at a time
in Python was most of the sampler's time, so strings are assembled from columns:
concatenation as numpy's element-wise ``+`` on object arrays (of coded columns,
``_pieces``), digits as code-point matrices (``_patterns``), and a format applied
once per distinct combination of its inputs (a template's choice and its fills repeat
across profiles), here.
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
