"""One vectorised sampler per distribution kind, registered under the kind's name.

A sampler gets the node, the columns sampled so far (every parent is among them,
since nodes are visited in topological order) and the batch's uniforms, and returns
the node's column. Uniforms are addressed by the node id, so each node's draws are
its own.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
from numpy.typing import NDArray
from scipy.special import ndtri

from memsim._registry import Registry, registry
from memsim.graph import BRNet, DiscreteConditionals, Node, inverse_cdf
from memsim.sampling._random import Uniforms
from memsim.sampling._values import date_to_days, to_text
from memsim.schema import (
    DateUniform,
    Digits,
    Email,
    Gaussian,
    PersonName,
    Phone,
    Schema,
    Template,
    UniformInt,
    combination,
)

Column = NDArray[Any]


@dataclass
class Batch:
    """What a sampler may read: the network, the columns so far, the uniforms."""

    net: BRNet
    conditionals: DiscreteConditionals
    columns: dict[str, Column]
    uniforms: Uniforms

    @property
    def n(self) -> int:
        return len(self.uniforms)

    def u(self, node: Node, index: int = 0) -> NDArray[np.float64]:
        return self.uniforms.draw(node.id, index)

    def parent(self, node: Node, ref: str) -> tuple[Node, Column]:
        parent = self.net.ref(node, ref)
        return parent, self.columns[parent.id]


Sampler = Callable[[Node, Batch], Column]
SAMPLERS: Registry[Sampler] = registry("sampler")


def _choose(weights: dict[str, float], u: NDArray[np.float64]) -> list[str]:
    keys = list(weights)
    probs = np.asarray([weights[k] for k in keys], dtype=np.float64)[None, :]
    codes = inverse_cdf(np.broadcast_to(probs, (len(u), len(keys))), u)
    return [keys[c] for c in codes.tolist()]


def _digit_strings(batch: Batch, node: Node, count: int, first_index: int) -> list[str]:
    """``count`` random digits per profile, from uniforms first_index, first_index+1, ..."""
    parts: list[list[str]] = []
    for chunk, start in enumerate(range(0, count, 9)):
        width = min(9, count - start)
        numbers = np.floor(batch.u(node, first_index + chunk) * 10**width).astype(np.int64)
        parts.append([f"{x:0{width}d}" for x in numbers.tolist()])
    return ["".join(p) for p in zip(*parts, strict=True)] if parts else [""] * batch.n


@SAMPLERS.register("categorical")
@SAMPLERS.register("table")
@SAMPLERS.register("copy")
def sample_discrete(node: Node, batch: Batch) -> Column:
    probs = batch.conditionals.probs(node, batch.columns, batch.n)
    return inverse_cdf(probs, batch.u(node))


def _case_params(
    node: Node,
    batch: Batch,
    given: list[str],
    cases: dict[str, Any] | None,
    names: tuple[str, str],
    flat: tuple[Any, Any],
) -> tuple[Column, Column]:
    """Each profile's two parameters, looked up by its combination of the ``given``
    parents' values (rows indexed as :class:`DiscreteConditionals` indexes its tables)."""
    if not given or not cases:
        return np.full(batch.n, flat[0], dtype=np.float64), np.full(
            batch.n, flat[1], dtype=np.float64
        )
    parents = [batch.parent(node, ref) for ref in given]
    dims = [len(parent.values) for parent, _ in parents]
    table = np.tile(np.array(flat, dtype=np.float64), (int(np.prod(dims)), 1))
    for key, case in cases.items():
        index = [p.values.index(v) for (p, _), v in zip(parents, combination(key), strict=True)]
        table[np.ravel_multi_index(index, dims)] = (
            getattr(case, names[0]),
            getattr(case, names[1]),
        )
    rows = np.ravel_multi_index([codes for _, codes in parents], dims)
    return table[rows, 0], table[rows, 1]


def _offset(node: Node, batch: Batch, offset_from: str | None) -> Column:
    if offset_from is None:
        return np.zeros(batch.n, dtype=np.int64)
    return batch.parent(node, offset_from)[1]


def _clip(node: Node, values: Column) -> Column:
    low, high = node.attribute.min, node.attribute.max
    return np.clip(values, low, high).astype(np.int64)


@SAMPLERS.register("gaussian")
def sample_gaussian(node: Node, batch: Batch) -> Column:
    dist = node.attribute.dist
    assert isinstance(dist, Gaussian)
    mean, std = _case_params(
        node, batch, dist.given_refs(), dist.cases, ("mean", "std"), (dist.mean, dist.std)
    )
    x = _offset(node, batch, dist.offset_from) + mean + std * ndtri(batch.u(node))
    return _clip(node, np.rint(x))


@SAMPLERS.register("uniform_int")
def sample_uniform_int(node: Node, batch: Batch) -> Column:
    dist = node.attribute.dist
    assert isinstance(dist, UniformInt)
    low, high = _case_params(
        node, batch, dist.given_refs(), dist.cases, ("low", "high"), (dist.low, dist.high)
    )
    x = low + np.floor(batch.u(node) * (high - low + 1))
    return _clip(node, _offset(node, batch, dist.offset_from) + x)


@SAMPLERS.register("date_uniform")
def sample_date(node: Node, batch: Batch) -> Column:
    """Dates as days since 1970 (month-days as days of a leap year), date-times as minutes."""
    dist, attr = node.attribute.dist, node.attribute
    assert isinstance(dist, DateUniform)
    if attr.type == "month_day":
        return np.floor(batch.u(node) * 366).astype(np.int64)
    assert attr.start is not None and attr.end is not None
    first, span = date_to_days(attr.start), (attr.end - attr.start).days + 1
    days = first + np.floor(batch.u(node) * span).astype(np.int64)
    if dist.hours is None:
        return days
    slots = (dist.hours[1] - dist.hours[0]) * 60 // dist.minute_step + 1
    minute = (
        dist.hours[0] * 60 + np.floor(batch.u(node, 1) * slots).astype(np.int64) * dist.minute_step
    )
    return days * 1440 + minute


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


def _pick(names: tuple[tuple[str, ...], NDArray[np.float64]], u: NDArray[np.float64]) -> list[str]:
    keys, probs = names
    cdf = np.cumsum(probs)
    codes = np.minimum(np.searchsorted(cdf, u * cdf[-1], side="right"), len(keys) - 1)
    return [keys[c] for c in codes.tolist()]


@SAMPLERS.register("person_name")
def sample_person_name(node: Node, batch: Batch) -> Column:
    dist = node.attribute.dist
    assert isinstance(dist, PersonName)
    lists = name_lists(dist.locale or _faker_locale(batch.net.schema))
    u_first = batch.u(node, 0)
    firsts = np.empty(batch.n, dtype=object)
    if dist.gender is None:
        female = u_first < 0.5
        u_first = np.where(female, u_first * 2, u_first * 2 - 1)
    else:
        parent, codes = batch.parent(node, dist.gender)
        is_female = np.array([dist.gender_values[v] == "female" for v in parent.values])
        female = is_female[codes]
    for flag, key in ((False, "male"), (True, "female")):
        mask = female == flag
        firsts[mask] = _pick(lists[key], u_first[mask])
    lasts = _pick(lists["last"], batch.u(node, 1))
    return np.array(
        [dist.format.format(first=f, last=last) for f, last in zip(firsts, lasts, strict=True)],
        dtype=object,
    )


@SAMPLERS.register("phone")
def sample_phone(node: Node, batch: Batch) -> Column:
    dist = node.attribute.dist
    assert isinstance(dist, Phone)
    prefixes = _choose(dist.prefixes, batch.u(node, 0))
    rest = _digit_strings(batch, node, dist.length - min(map(len, dist.prefixes)), 1)
    return np.array(
        [p + r[: dist.length - len(p)] for p, r in zip(prefixes, rest, strict=True)], dtype=object
    )


@SAMPLERS.register("digits")
def sample_digits(node: Node, batch: Batch) -> Column:
    dist = node.attribute.dist
    assert isinstance(dist, Digits)
    patterns = _choose(dist.patterns, batch.u(node, 0))
    digits = _digit_strings(batch, node, max(p.count("#") for p in dist.patterns), 1)
    nonzero = max(p.count("%") for p in dist.patterns)
    # digits 1-9 from streams of their own, so patterns without "%" draw as before
    ones = [1 + np.floor(batch.u(node, 1000 + k) * 9).astype(np.int64) for k in range(nonzero)]
    out = []
    for row, (pattern, ds) in enumerate(zip(patterns, digits, strict=True)):
        it, nz = iter(ds), (str(int(column[row])) for column in ones)
        out.append(
            "".join(next(it) if ch == "#" else next(nz) if ch == "%" else ch for ch in pattern)
        )
    return np.array(out, dtype=object)


_STOPWORDS = {"the", "of", "and", "for", "at", "in", "a", "an", "co", "inc", "ltd"}


def ascii_words(text: str, spellings: Mapping[str, str] | None = None) -> list[str]:
    """The lowercase ASCII words of a text. Accented letters lose their accents; other
    characters are transliterated (anyascii), and one of a script written without
    spaces (category Lo: Chinese, Japanese...) is a word of its own. ``spellings``
    replace the default reading of characters or phrases first (曾 -> zeng)."""
    for source in sorted(spellings or {}, key=len, reverse=True):
        text = text.replace(source, f" {spellings[source]} ")  # type: ignore[index]
    return re.findall(r"[a-z0-9]+", "".join(map(_romanise, text)).lower())


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


@SAMPLERS.register("email")
def sample_email(node: Node, batch: Batch) -> Column:
    dist = node.attribute.dist
    assert isinstance(dist, Email)
    names = to_text(*batch.parent(node, dist.name))
    orgs = to_text(*batch.parent(node, dist.org))
    n_styles = len(dist.styles)
    styles = np.floor(batch.u(node, 0) * n_styles).astype(np.int64).tolist()
    tlds = _choose(dist.tlds, batch.u(node, 1))
    numbers = _digit_strings(batch, node, 4, 2)
    # names and employers repeat across a batch: romanise each distinct one once
    words_of = lru_cache(maxsize=None)(lambda text: ascii_words(text, dist.spellings))
    out = []
    for name, org, style, tld, number in zip(names, orgs, styles, tlds, numbers, strict=True):
        words = words_of(name)
        if not words:
            local = f"user{number}"
        else:
            local = dist.styles[style].format(
                first=words[0],
                last=words[-1],
                all="".join(words),
                initial=words[0][0],
                initials="".join(w[0] for w in words),
                nn=number[:2],
                nnnn=number,
            )
        org_words = [w for w in words_of(org) if w not in _STOPWORDS]
        domain = dist.domain.format(
            words="".join(org_words[:2]), initials="".join(w[0] for w in org_words)
        )
        out.append(f"{local}@{domain or 'mail'}.{tld}")
    return np.array(out, dtype=object)


@SAMPLERS.register("template")
def sample_template(node: Node, batch: Batch) -> Column:
    dist = node.attribute.dist
    assert isinstance(dist, Template)
    if dist.given is not None:
        parent, codes = batch.parent(node, dist.given)
        choices = [dist.cases.get(v, dist.default) for v in parent.values]
        lists = [choices[c] for c in codes.tolist()]
    else:
        lists = [dist.default] * batch.n
    fills = {ref.split(".")[-1]: to_text(*batch.parent(node, ref)) for ref in dist.uses}
    for token, forms in dist.forms.items():
        fills[token] = [forms.get(v, v) for v in fills[token]]
    picks = batch.u(node).tolist()
    out = []
    for row, (templates, u) in enumerate(zip(lists, picks, strict=True)):
        text = templates[min(int(u * len(templates)), len(templates) - 1)]
        out.append(text.format(**{token: values[row] for token, values in fills.items()}))
    return np.array(out, dtype=object)
