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


def fold(pieces: Sequence[Piece], rows: int) -> list[Piece]:
    """The pieces with each literal added to a table beside it (the one before it,
    else the one after) when that table has at most ``rows`` strings, so that adding
    costs less than adding to every row; adjacent literals are merged."""
    out: list[Piece] = []
    for piece in pieces:
        if isinstance(piece, str):
            if not piece:
                continue
            last = out[-1] if out else None
            if isinstance(last, str):
                out[-1] = last + piece
            elif last is not None and len(last[1]) <= rows:
                out[-1] = (last[0], last[1] + piece)
            else:
                out.append(piece)
        elif out and isinstance(out[-1], str) and len(piece[1]) <= rows:
            out[-1] = (piece[0], out[-1] + piece[1])
        else:
            out.append(piece)
    return out


def join(pieces: Sequence[Piece], n: int, rows: NDArray[np.intp] | None = None) -> Strings:
    """Each row's pieces concatenated (rows ``rows`` only, when given, else all n)."""
    count = n if rows is None else len(rows)
    out: Strings | None = None
    for piece in fold(pieces, count):
        if isinstance(piece, str):
            out = as_strings([piece] * count) if out is None else out + piece
            continue
        codes, table = piece
        column = table[codes if rows is None else codes[rows]]
        out = column if out is None else out + column
    return as_strings([""] * count) if out is None else out


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
