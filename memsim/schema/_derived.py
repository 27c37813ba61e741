"""Derived attributes: deterministic functions of other attributes, and their checks.

A ``derived`` distribution has no randomness: ``bins`` label ranges of an integer
(an age group from an age), ``lookup`` maps categorical values to a value (a division
from a year of study), ``expr`` is integer arithmetic (a price with tax from a price).
The functions here evaluate all three on numpy columns, so the sampler and the checks
share one definition; a ``lookup`` over categorical parents is a discrete node with a
deterministic CPD in the pgmpy twin.
"""

from __future__ import annotations

import ast
import itertools
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from memsim.schema._distributions import Derived, combination
from memsim.schema._models import Attribute, Schema

Column = NDArray[Any]
_OPS: dict[type, Any] = {
    ast.Add: np.add,
    ast.Sub: np.subtract,
    ast.Mult: np.multiply,
    ast.FloorDiv: np.floor_divide,
    ast.Mod: np.mod,
}


def parent_names(dist: Derived) -> list[str]:
    """How ``expr`` names each parent: the last part of its reference."""
    return [ref.rsplit(".", 1)[-1] for ref in dist.of]


def expr_problems(dist: Derived) -> list[str]:
    try:
        tree = ast.parse(dist.expr or "", mode="eval")
    except SyntaxError as exc:
        return [f"expr is not an expression: {exc.msg}"]
    names = set(parent_names(dist))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id not in names:
            out.append(f"expr names {node.id!r}, which is not in of ({', '.join(sorted(names))})")
        elif isinstance(node, ast.BinOp) and type(node.op) not in _OPS:
            out.append("expr may use + - * // % only")
        elif isinstance(node, ast.Constant) and not isinstance(node.value, int):
            out.append(f"expr constants are integers, not {node.value!r}")
        elif not isinstance(
            node,
            ast.Expression
            | ast.BinOp
            | ast.UnaryOp
            | ast.USub
            | ast.Name
            | ast.Constant
            | ast.Load
            | ast.operator,
        ):
            out.append(f"expr may not use {type(node).__name__}")
    return out


def evaluate_expr(dist: Derived, columns: Sequence[Column]) -> Column:
    """``expr`` on integer columns (one per ``of`` reference), element by element."""
    env = dict(zip(parent_names(dist), columns, strict=True))

    def walk(node: ast.AST) -> Any:
        if isinstance(node, ast.Expression):
            return walk(node.body)
        if isinstance(node, ast.BinOp):
            with np.errstate(divide="ignore"):
                return _OPS[type(node.op)](walk(node.left), walk(node.right))
        if isinstance(node, ast.UnaryOp):
            return -walk(node.operand)
        if isinstance(node, ast.Name):
            return np.asarray(env[node.id], dtype=np.int64)
        if isinstance(node, ast.Constant) and isinstance(node.value, int):
            return np.int64(node.value)
        raise ValueError(f"unsupported expression part {type(node).__name__}")

    n = len(columns[0]) if columns else 0
    return np.broadcast_to(walk(ast.parse(dist.expr or "0", mode="eval")), (n,)).astype(np.int64)


def bin_codes(dist: Derived, column: Column) -> Column:
    """The index of each value's label (values below the first bound take the first)."""
    bounds = np.asarray(sorted((dist.bins or {}).values()), dtype=np.int64)
    codes = np.searchsorted(bounds, np.asarray(column, dtype=np.int64), side="right") - 1
    return np.maximum(codes, 0).astype(np.int64)


def lookup_table(dist: Derived, parents: Sequence[Sequence[str]], values: Sequence[str]) -> Column:
    """The value's code for every combination of the parents' values (first parent
    slowest, as ``np.ravel_multi_index`` orders them)."""
    table = {combination(k): v for k, v in (dist.lookup or {}).items()}
    out = []
    for combo in itertools.product(*parents):
        out.append(values.index(table.get(tuple(combo), dist.default or "")))
    return np.asarray(out, dtype=np.int64)


def check_derived(
    schema: Schema, attr: Attribute, targets: Mapping[str, Attribute]
) -> list[tuple[tuple[str | int, ...], str]]:
    """Problems of a derived distribution: (path under ``dist``, message)."""
    dist = attr.dist
    assert isinstance(dist, Derived)
    modes = [m for m in ("bins", "lookup", "expr") if getattr(dist, m) is not None]
    if len(modes) != 1:
        return [((), "a derived distribution takes exactly one of bins, lookup and expr")]
    mode = modes[0]
    want = "integer" if mode == "expr" else "categorical"
    out: list[tuple[tuple[str | int, ...], str]] = []
    if attr.type != ("integer" if mode == "expr" else "categorical"):
        out.append(((mode,), f"{mode} gives a {want} attribute, not {attr.type}"))
    parent_type = "categorical" if mode == "lookup" else "integer"
    for i, (ref, target) in enumerate(targets.items()):
        if target.changes is not None:
            out.append((("of", i), f"{ref!r} changes over time; a derived value would not follow"))
        if target.type != parent_type:
            out.append(
                (("of", i), f"{mode} needs {parent_type} attributes; {ref!r} is {target.type}")
            )
    if out:
        return out
    values = schema.values_of(attr)
    if mode == "bins":
        bins = dist.bins or {}
        if len(targets) != 1:
            out.append((("of",), "bins read one integer attribute"))
        if list(bins) != values:
            out.append((("bins",), f"the labels must be the values, in order: {values}"))
        if list(bins.values()) != sorted(set(bins.values())):
            out.append((("bins",), "the lowest values must increase"))
    elif mode == "lookup":
        parents = [schema.values_of(t) for t in targets.values()]
        table = dist.lookup or {}
        for key, value in table.items():
            if value not in values:
                out.append((("lookup", key), f"{value!r} is not a value of the attribute"))
            parts = combination(key)
            if len(parts) != len(parents) or any(
                p not in v for p, v in zip(parts, parents, strict=False)
            ):
                out.append(
                    (("lookup", key), f"{key!r} is no combination of the values of {dist.of}")
                )
        keys = {combination(k) for k in table}
        missing = [c for c in itertools.product(*parents) if tuple(c) not in keys]
        if missing and dist.default not in values:
            out.append((("lookup",), f"no value for {'|'.join(missing[0])!r} and no default"))
    else:
        out += [(("expr",), m) for m in expr_problems(dist)]
    return out


__all__ = ["bin_codes", "check_derived", "evaluate_expr", "lookup_table", "parent_names"]
