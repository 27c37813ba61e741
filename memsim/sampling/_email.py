"""The e-mail sampler: ``local@domain.tld`` from a name's words and an employer.

Every part is a coded column (see ``_pieces``): a name's words come from tables per
name-list entry (``_names``) or per distinct name, the two- and four-digit numbers
from a table of every number, the ``@domain.tld`` from a table per distinct (employer,
top-level domain), so each address is created by joining a few columns once.
"""

from __future__ import annotations

import string
from collections.abc import Callable, Mapping

import numpy as np
from numpy.typing import NDArray

from memsim.graph import Node
from memsim.sampling._discrete import choose
from memsim.sampling._kinds import SAMPLERS, Batch, Column
from memsim.sampling._names import name_fills
from memsim.sampling._pieces import Coded, Piece, format_pieces, join, numbers_table
from memsim.sampling._strings import (
    Codes,
    Strings,
    as_strings,
    ascii_words,
    distinct_rows,
    factorize,
    vector_format,
)
from memsim.sampling._values import to_text
from memsim.schema import Email

_STOPWORDS = {"the", "of", "and", "for", "at", "in", "a", "an", "co", "inc", "ltd"}
_FORMAT = string.Formatter()
_NAME_PARTS: dict[str, Callable[[list[str]], str]] = {
    "first": lambda w: w[0] if w else "",
    "last": lambda w: w[-1] if w else "",
    "all": lambda w: "".join(w),
    "initial": lambda w: w[0][0] if w else "",
    "initials": lambda w: "".join(x[0] for x in w),
}
"""The fields of a name an e-mail style may use, from the name's ASCII words."""


@SAMPLERS.register("email")
def sample_email(node: Node, batch: Batch) -> Column:
    """local@domain.tld: a name's words found once per name-list entry or distinct
    name, the domain once per distinct employer, each style's addresses joined from
    coded columns."""
    dist = node.attribute.dist
    assert isinstance(dist, Email)
    styles = np.floor(batch.u(node, 0) * len(dist.styles)).astype(np.int64)
    tld_codes, tlds = choose(dist.tlds, batch.u(node, 1))
    numbers = np.floor(batch.u(node, 2) * 10**4).astype(np.int64)
    used = {f for style in dist.styles for _, f, _, _ in _FORMAT.parse(style) if f}
    fills, wordless = _name_fills(node, batch, used)
    # nn: the first two of the four digits, zero-padded as in nnnn
    fills["nn"] = [(numbers // 100, numbers_table(2))]
    fills["nnnn"] = [(numbers, numbers_table(4))]
    suffix = _suffixes(node, batch, tld_codes, tlds)
    out = np.empty(batch.n, dtype=object)
    for k, style in enumerate(dist.styles):
        rows = np.flatnonzero((styles == k) & ~wordless)
        pieces = format_pieces(style, fills)
        if pieces is None:  # a field with a spec or conversion: formatted row by row
            locals_ = vector_format(style, _rows_of(fills, rows), len(rows))
            out[rows] = locals_ + suffix[1][suffix[0][rows]]
        else:
            out[rows] = join([*pieces, suffix], batch.n, rows)
    rows = np.flatnonzero(wordless)
    out[rows] = join(["user", *fills["nnnn"], suffix], batch.n, rows)
    return out


def _name_fills(
    node: Node, batch: Batch, used: set[str]
) -> tuple[dict[str, list[Piece]], NDArray[np.bool_]]:
    """The name's fields as pieces and which rows' names have no word: from the name
    sampler's codes when it left them, else from the words of each distinct name."""
    dist = node.attribute.dist
    assert isinstance(dist, Email)
    name_node, name_column = batch.parent(node, dist.name)
    parts = batch.name_parts.get(name_node.id)
    found = None if parts is None else name_fills(parts, used, dist.spellings)
    if found is not None:
        coded, wordless = found
        return {key: list(value) for key, value in coded.items()}, wordless
    # a name not sampled here, or written so that its words need the whole name
    name_codes, names = factorize(to_text(name_node, name_column))
    words = [ascii_words(name, dist.spellings) for name in names.tolist()]
    fills: dict[str, list[Piece]] = {
        key: [(name_codes, as_strings([part(w) for w in words]))]
        for key, part in _NAME_PARTS.items()
        if key in used
    }
    return fills, np.array([not w for w in words], dtype=bool)[name_codes]


def _suffixes(node: Node, batch: Batch, tld_codes: Codes, tlds: list[str]) -> Coded:
    """``@domain.tld`` of every row, the domain from the employer's words (once per
    distinct employer text) or ``mail``."""
    dist = node.attribute.dist
    assert isinstance(dist, Email)
    if dist.org is None:  # a personal address: one provider for every row
        org_codes, orgs = np.zeros(batch.n, dtype=np.int64), as_strings([""])
    else:
        org_node, org_column = batch.parent(node, dist.org)
        # a template's column comes with its distinct texts: no pass over every row
        org_codes, orgs = batch.distinct.get(org_node.id) or factorize(
            to_text(org_node, org_column)
        )
    setting = (dist.domain, tuple(sorted(dist.spellings.items())))
    domains = [_domain(dist, org, batch.domains, setting) for org in orgs.tolist()]
    codes, rows = distinct_rows([org_codes, tld_codes], batch.n)
    # a domain written with its TLD ("skymail.org") is the whole domain
    tld = [""] * len(tlds) if dist.whole_domain else [f".{x}" for x in tlds]
    table = [
        f"@{domains[o]}{tld[t]}"
        for o, t in zip(org_codes[rows].tolist(), tld_codes[rows].tolist(), strict=True)
    ]
    return codes, as_strings(table)


def _domain(
    dist: Email, org: str, known: dict[tuple[object, ...], str], setting: tuple[object, ...]
) -> str:
    """The domain of an employer's text (``mail`` when it has no word), found once
    per batch and setting."""
    key = (*setting, org)
    if key not in known:
        words = [w for w in ascii_words(org, dist.spellings) if w not in _STOPWORDS]
        domain = dist.domain.format(words="".join(words[:2]), initials="".join(w[0] for w in words))
        known[key] = domain or "mail"
    return known[key]


def _rows_of(fills: Mapping[str, list[Piece]], rows: NDArray[np.intp]) -> dict[str, Strings]:
    """The fills of ``rows`` as plain string columns."""
    return {key: join(pieces, len(rows), rows) for key, pieces in fills.items()}


__all__ = ["sample_email"]
