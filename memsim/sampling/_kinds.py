"""One vectorised sampler per distribution kind, registered under the kind's name.

A sampler gets the node, the columns sampled so far (every parent is among them,
since nodes are visited in topological order) and the batch's uniforms, and returns
the node's column. Uniforms are addressed by the node id, so each node's draws are
its own.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from memsim._registry import Registry, registry
from memsim.graph import BRNet, DiscreteConditionals, Node
from memsim.sampling._discrete import DiscreteDraws, choose
from memsim.sampling._names import NameParts
from memsim.sampling._patterns import digits_matrix, fill_patterns
from memsim.sampling._random import Uniforms
from memsim.sampling._strings import (
    Codes,
    Strings,
    distinct_formats,
    factorize,
    positional,
)
from memsim.sampling._values import date_to_days, to_text
from memsim.schema import (
    DateUniform,
    Digits,
    Gaussian,
    Phone,
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
    draws: DiscreteDraws | None = None
    """The categorical nodes' guide tables (built from ``conditionals`` when None)."""
    name_parts: dict[str, NameParts] = field(default_factory=dict)
    """How each name column of the batch was made (see ``_names``)."""
    distinct: dict[str, tuple[Codes, Strings]] = field(default_factory=dict)
    """Text columns as codes and the texts they index (``column == texts[codes]``)."""
    domains: dict[tuple[object, ...], str] = field(default_factory=dict)
    """E-mail domains by (domain format, spellings, employer text): the e-mail columns
    of a batch share their employers' texts."""

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


def _digits(batch: Batch, node: Node, count: int, first_index: int) -> NDArray[np.uint32]:
    """``count`` random digits per profile (code points), from uniforms first_index,
    first_index+1, ..., nine digits each."""
    chunks = []
    for chunk, start in enumerate(range(0, count, 9)):
        width = min(9, count - start)
        numbers = np.floor(batch.u(node, first_index + chunk) * 10**width).astype(np.int64)
        chunks.append((numbers, width))
    return digits_matrix(chunks) if chunks else np.zeros((batch.n, 0), dtype=np.uint32)


@SAMPLERS.register("categorical")
@SAMPLERS.register("table")
@SAMPLERS.register("copy")
def sample_discrete(node: Node, batch: Batch) -> Column:
    if batch.draws is None:
        batch.draws = DiscreteDraws(batch.net, batch.conditionals)
    return batch.draws.draw(node, batch.columns, batch.uniforms)


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
    # imported here: scipy.special costs every process that loads a schema ~0.1 s, and
    # only sampling a gaussian (profiles, noise lives) needs it
    from scipy.special import ndtri

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


@SAMPLERS.register("phone")
def sample_phone(node: Node, batch: Batch) -> Column:
    """A prefix, then random digits up to the length (NUL marks a digit's place)."""
    dist = node.attribute.dist
    assert isinstance(dist, Phone)
    patterns = {p + "\0" * (dist.length - len(p)): w for p, w in dist.prefixes.items()}
    codes, chosen = choose(patterns, batch.u(node, 0))
    digits = _digits(batch, node, dist.length - min(map(len, dist.prefixes)), 1)
    return fill_patterns(codes, chosen, {"\0": digits})


@SAMPLERS.register("digits")
def sample_digits(node: Node, batch: Batch) -> Column:
    dist = node.attribute.dist
    assert isinstance(dist, Digits)
    codes, patterns = choose(dist.patterns, batch.u(node, 0))
    digits = _digits(batch, node, max(p.count("#") for p in dist.patterns), 1)
    nonzero = max(p.count("%") for p in dist.patterns)
    # digits 1-9 from streams of their own, so patterns without "%" draw as before
    ones = np.zeros((batch.n, nonzero), dtype=np.uint32)
    for k in range(nonzero):
        ones[:, k] = ord("1") + np.floor(batch.u(node, 1000 + k) * 9).astype(np.uint32)
    return fill_patterns(codes, patterns, {"#": digits, "%": ones})


@SAMPLERS.register("template")
def sample_template(node: Node, batch: Batch) -> Column:
    """A template chosen uniformly from the list of the ``given`` parent's value, filled:
    formatted once per distinct (list, template, fills)."""
    dist = node.attribute.dist
    assert isinstance(dist, Template)
    lists: list[list[str]] = [dist.default]
    which = np.zeros(batch.n, dtype=np.int64)
    if dist.given is not None:
        parent, codes = batch.parent(node, dist.given)
        lists = [dist.cases.get(v, dist.default) for v in parent.values]
        which = codes
    sizes = np.array([len(t) for t in lists], dtype=np.int64)
    chosen = np.minimum(np.floor(batch.u(node) * sizes[which]).astype(np.int64), sizes[which] - 1)
    fills: dict[str, tuple[Codes, list[str]]] = {}
    for ref in dist.uses:
        parent, column = batch.parent(node, ref)
        if parent.attribute.type == "categorical":
            codes, table = column, [str(v) for v in parent.values]
        else:
            # a template's column comes with its distinct texts: no pass over every row
            known = batch.distinct.get(parent.id)
            codes, distinct = known or factorize(to_text(parent, column))
            table = distinct.tolist()
        fills[ref.split(".")[-1]] = (codes, table)
    for token, forms in dist.forms.items():
        codes, table = fills[token]
        fills[token] = (codes, [forms.get(v, v) for v in table])

    tokens = tuple(fills)

    def fill(rows: NDArray[np.intp]) -> list[str]:
        picked = zip(which[rows].tolist(), chosen[rows].tolist(), strict=True)
        texts = [lists[w][c] for w, c in picked]
        values = [[table[c] for c in codes[rows].tolist()] for codes, table in fills.values()]
        out = []
        for text, *row in zip(texts, *values, strict=True):
            numbered = positional(text, tokens)
            if numbered is None:
                out.append(text.format(**dict(zip(tokens, row, strict=True))))
            else:
                out.append(numbered.format(*row))
        return out

    keys = [which, chosen, *(codes for codes, _ in fills.values())]
    codes, made = distinct_formats(keys, fill, batch.n)
    batch.distinct[node.id] = (codes, made)
    return made[codes]
