"""The person-name sampler: Faker's first and last names drawn by their weights and
written by the locale's name format.

The first name's list follows the gender (a parent's, or a fair draw), and the column
leaves how it was made (:class:`NameParts`: the format and the codes into the lists),
so that e-mail addresses find a name's words once per list entry (``_names``).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from numpy.typing import NDArray

from memsim.graph import Node
from memsim.sampling._discrete import WeightedPicks
from memsim.sampling._kinds import SAMPLERS, Batch, Column
from memsim.sampling._names import NameParts
from memsim.sampling._pieces import format_pieces, join
from memsim.sampling._strings import Strings, as_strings, vector_format
from memsim.schema import PersonName, Schema


def _name_format(schema: Schema) -> str:
    from memsim.verbalize import name_format  # locale data, read at sampling time

    return name_format(schema)


def _faker_locale(schema: Schema) -> str:
    """The schema's Faker locale, from its locale data (the language's file and overlay)."""
    from memsim.verbalize import faker_locale  # locale data, read at sampling time

    return faker_locale(schema)


@lru_cache(maxsize=16)
def name_lists(locale: str) -> dict[str, tuple[tuple[str, ...], NDArray[np.float64]]]:
    """Faker's first (male, female) and last names with their weights for a Faker locale."""
    from faker import Faker

    fake = Faker(locale)
    provider = next(p for p in fake.providers if hasattr(p, "first_names_male"))
    out = {}
    for key, attr in (
        ("male", "first_names_male"),
        ("female", "first_names_female"),
        ("last", "last_names"),
    ):
        names = getattr(provider, attr)
        if isinstance(names, dict):
            keys, weights = tuple(names), np.asarray(list(names.values()), dtype=np.float64)
        else:
            keys = tuple(dict.fromkeys(names))
            weights = np.ones(len(keys))
        out[key] = (keys, weights / weights.sum())
    return out


@lru_cache(maxsize=16)
def _first_names(locale: str) -> tuple[str, ...]:
    """The male first names, then the female ones (the codes of a name column)."""
    lists = name_lists(locale)
    return lists["male"][0] + lists["female"][0]


REDRAWS = 8
"""Draws of a last name at most, while it is the first name (en_US: 1 in 2,300 male
and 1 in 12,500 female names are drawn so once; zh_CN 1 in 1,000 male: twice in a row
is about one in a million)."""


@lru_cache(maxsize=16)
def _twins(locale: str) -> NDArray[np.int64]:
    """Per first-name code, the code of the same word among the last names (-1: none)."""
    lasts = {name: i for i, name in enumerate(name_lists(locale)["last"][0])}
    return np.array([lasts.get(name, -1) for name in _first_names(locale)], dtype=np.int64)


@lru_cache(maxsize=16)
def _tables(locale: str) -> dict[str, Strings]:
    """The names the codes of a column index: ``first`` (male then female), ``last``."""
    return {
        "first": as_strings(_first_names(locale)),
        "last": as_strings(name_lists(locale)["last"][0]),
    }


@lru_cache(maxsize=16)
def _picks(locale: str) -> dict[str, WeightedPicks]:
    """The draws from each list (``male``, ``female``, ``last``) by its weights."""
    return {key: WeightedPicks(np.cumsum(p)) for key, (_, p) in name_lists(locale).items()}


@SAMPLERS.register("person_name")
def sample_person_name(node: Node, batch: Batch) -> Column:
    dist = node.attribute.dist
    assert isinstance(dist, PersonName)
    locale = dist.locale or _faker_locale(batch.net.schema)
    picks, tables = _picks(locale), _tables(locale)
    u_first = batch.u(node, 0)
    if dist.gender is None:
        female = u_first < 0.5
        u_first = np.where(female, u_first * 2, u_first * 2 - 1)
    else:
        parent, codes = batch.parent(node, dist.gender)
        is_female = np.array([dist.list_of(v) == "female" for v in parent.values])
        female = is_female[codes]
    codes = np.empty(batch.n, dtype=np.int64)
    for flag, key in ((False, "male"), (True, "female")):
        mask = female == flag
        offset = len(name_lists(locale)["male"][0]) if flag else 0  # female after male
        codes[mask] = picks[key].pick(u_first[mask]) + offset
    last_codes = picks["last"].pick(batch.u(node, 1))
    # a last name that is the first name ("Martin Martin") is drawn again, from the
    # node's next uniforms (a profile's other draws, and every other profile, unchanged)
    twin = _twins(locale)
    for index in range(2, 2 + REDRAWS):
        same = np.flatnonzero(twin[codes] == last_codes)
        if not len(same):
            break
        last_codes[same] = picks["last"].pick(batch.u(node, index)[same])
    written = dist.format or _name_format(batch.net.schema)
    # how the names were made, so that e-mails find their words per list entry
    batch.name_parts[node.id] = NameParts(
        written,
        {
            "first": (codes, _first_names(locale)),
            "last": (last_codes, name_lists(locale)["last"][0]),
        },
    )
    firsts, lasts = (codes, tables["first"]), (last_codes, tables["last"])
    pieces = format_pieces(written, {"first": [firsts], "last": [lasts]})
    if pieces is None:  # a field with a spec or conversion: formatted row by row
        fills = {"first": firsts[1][codes], "last": lasts[1][last_codes]}
        return vector_format(written, fills, batch.n)
    return join(pieces, batch.n)


__all__ = ["name_lists", "sample_person_name"]
