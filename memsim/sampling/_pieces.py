"""Text columns as pieces: codes into small tables of strings, joined once per row.

A column whose row r is ``table[codes[r]]`` (a first name, a name's first word, the
``@domain.tld`` of an employer) costs a gather and creates no string. A text made of
such columns and literals (a full name: first + " " + last; an e-mail: local part and
domain) is joined row by row only where two columns meet: each literal is first added
to the table beside it (a few hundred strings) rather than to every row, so
``{first}.{last}@acme.com`` creates each row's string by two concatenations, not four.

Guarantee: :func:`join` gives, for every row, exactly the concatenation of its pieces
(a literal as is, a coded column as ``table[codes[row]]``), in order.
"""

from __future__ import annotations

import string
from collections.abc import Mapping, Sequence
from functools import lru_cache

import numpy as np
from numpy.typing import NDArray

from memsim.sampling._strings import Codes, Strings, as_strings

Coded = tuple[Codes, Strings]
"""A column as (codes per row, the table they index)."""
Piece = str | Coded
_FORMATTER = string.Formatter()


def fold(pieces: Sequence[Piece]) -> list[Coded] | str:
    """The pieces with every literal added to the table beside it (the one before it,
    or the first one for literals ahead of every column); all literals joined when
    there is no column."""
    coded: list[Coded] = []
    ahead = ""
    for piece in pieces:
        if isinstance(piece, str):
            if not coded:
                ahead += piece
            elif piece:
                codes, table = coded[-1]
                coded[-1] = (codes, table + piece)
        else:
            coded.append(piece)
    if not coded:
        return ahead
    if ahead:
        codes, table = coded[0]
        coded[0] = (codes, ahead + table)
    return coded


def join(pieces: Sequence[Piece], n: int, rows: NDArray[np.intp] | None = None) -> Strings:
    """Each row's pieces concatenated (rows ``rows`` only, when given, else all n)."""
    folded = fold(pieces)
    if isinstance(folded, str):
        return as_strings([folded] * (n if rows is None else len(rows)))
    out: Strings | None = None
    for codes, table in folded:
        column = table[codes if rows is None else codes[rows]]
        out = column if out is None else out + column
    assert out is not None
    return out


def format_pieces(fmt: str, fills: Mapping[str, Sequence[Piece]]) -> list[Piece] | None:
    """The pieces of ``fmt.format(**fills)`` when its fields are plain names of
    ``fills`` (no spec, no conversion); else None."""
    out: list[Piece] = []
    for literal, field, spec, conv in _FORMATTER.parse(fmt):
        out.append(literal)
        if field is None:
            continue
        if spec or conv or field not in fills:
            return None
        out.extend(fills[field])
    return out


@lru_cache(maxsize=8)
def numbers_table(width: int) -> Strings:
    """Every number below ``10**width``, zero-padded to that width (``table[k]`` is k)."""
    return as_strings([f"{k:0{width}d}" for k in range(10**width)])


__all__ = ["Coded", "Piece", "fold", "format_pieces", "join", "numbers_table"]
