"""The words of sampled person names, found once per name-list entry, not once per name.

An e-mail's local part is made of a name's ASCII words (``ascii_words``). A sampled
name is a Faker first name and last name written by a format ("{first} {last}"), so
when the format keeps the two apart (a literal without letters or digits between them)
and romanising is character by character, the name's words are the first part's words
followed by the second's: they are found once per entry of Faker's lists (a few
thousand, once per process) and each profile's are then picked by its codes.

Guarantee: :func:`name_fills` gives exactly what the row-by-row path gives (the same
strings for every row); when it cannot prove that for a format or spellings, it says
so (None) and the caller takes the row-by-row path.
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from numpy.typing import NDArray

from memsim.sampling._pieces import Coded
from memsim.sampling._strings import Codes, Strings, as_strings, ascii_words


@dataclass(frozen=True)
class NameParts:
    """How a name column was made: its format and, per field, codes into a list."""

    format: str
    lists: Mapping[str, tuple[Codes, tuple[str, ...]]]
    """``first`` and ``last``: (codes per row, the list the codes index)."""


@dataclass(frozen=True)
class _Words:
    """Per list entry: its first word and that word's first letter, last word, words
    joined, first letter of each word joined, and whether it has any word."""

    first: Strings
    initial: Strings
    last: Strings
    joined: Strings
    initials: Strings
    has: NDArray[np.bool_]


@lru_cache(maxsize=32)
def _words(names: tuple[str, ...], spellings: tuple[tuple[str, str], ...]) -> _Words:
    words = [ascii_words(name, dict(spellings)) for name in names]
    return _Words(
        as_strings([w[0] if w else "" for w in words]),
        as_strings([w[0][0] if w else "" for w in words]),
        as_strings([w[-1] if w else "" for w in words]),
        as_strings(["".join(w) for w in words]),
        as_strings(["".join(x[0] for x in w) for w in words]),
        np.array([bool(w) for w in words], dtype=bool),
    )


def _field_order(fmt: str) -> tuple[str, str] | None:
    """The two fields in the order the format writes them, when its literals can add
    no word and keep the fields' words apart; else None."""
    fields, between = [], []
    for literal, field, spec, conv in string.Formatter().parse(fmt):
        if not literal.isascii() or any(c.isalnum() for c in literal):
            return None
        between.append(literal)
        if field is not None:
            if spec or conv:
                return None
            fields.append(field)
    if sorted(fields) != ["first", "last"] or not between[1]:
        return None  # "{last}{first}": a word could run on across the join
    return fields[0], fields[1]


def name_fills(
    parts: NameParts, used: set[str], spellings: Mapping[str, str]
) -> tuple[dict[str, list[Coded]], NDArray[np.bool_]] | None:
    """The e-mail fills of every row (``first``, ``last``, ``all``, ``initial``,
    ``initials``: those in ``used``) as pieces (see ``_pieces``), and which rows' names
    have no word; None when the name's words cannot be put together from its parts'
    (see the module docstring)."""
    order = _field_order(parts.format)
    if order is None or any(len(source) != 1 for source in spellings):
        return None  # a spelling of two characters could straddle the join
    key = tuple(sorted(spellings.items()))
    (c1, l1), (c2, l2) = parts.lists[order[0]], parts.lists[order[1]]
    w1, w2 = _words(l1, key), _words(l2, key)
    has1, has2 = w1.has[c1], w2.has[c2]
    # the first word is the first part's, or the second's when the first has none:
    # codes into the two parts' tables end to end
    first_part = np.where(has1, c1, c2 + len(l1))
    last_part = np.where(has2, c2 + len(l1), c1)
    fills: dict[str, list[Coded]] = {}
    if "first" in used:
        fills["first"] = [(first_part, _both(l1, l2, key, "first"))]
    if "last" in used:
        fills["last"] = [(last_part, _both(l1, l2, key, "last"))]
    if "all" in used:
        fills["all"] = [(c1, w1.joined), (c2, w2.joined)]
    if "initial" in used:
        fills["initial"] = [(first_part, _both(l1, l2, key, "initial"))]
    if "initials" in used:
        fills["initials"] = [(c1, w1.initials), (c2, w2.initials)]
    return fills, ~(has1 | has2)


@lru_cache(maxsize=64)
def _both(
    l1: tuple[str, ...], l2: tuple[str, ...], spellings: tuple[tuple[str, str], ...], field: str
) -> Strings:
    """One field of the two lists' words, the first list's entries then the second's."""
    tables: list[Strings] = [getattr(_words(names, spellings), field) for names in (l1, l2)]
    return np.concatenate(tables)


__all__ = ["NameParts", "name_fills"]
