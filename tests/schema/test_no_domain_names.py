"""No code in the stages that write messages and questions names a kind or an attribute
of the bundled daily-life schema: what a kind or an attribute means (the user, an
entity's time or place, never asked, ordered, its transforms) is read from the schema
(memsim.schema._meaning), so a schema of another domain needs no code change."""

from __future__ import annotations

import ast
from pathlib import Path

from memsim.schema import load_schema

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("qa", "trajectory", "verbalize", "rewrite")
RECORD_KEYS = {"time", "place", "name"}
"""Keys of message, question and manifest records, allowed as dict keys and record
subscripts (``message["time"]``), never to look up a fact (``entity.facts["time"]``)."""


def _domain_names() -> set[str]:
    names: set[str] = set()
    for path in sorted((ROOT / "schemas").glob("daily_life.*.yaml")):
        schema = load_schema(path)
        for kind in schema.entities:
            names.add(kind)
            names |= set(schema.attributes_of(kind))
    # "user" is also the scenario a schema declares its user kind with (``scenario:
    # user``) and records carry (``scenario: "user"``): code may name the scenario
    return (names | RECORD_KEYS) - {"user"}


def _record_keys(tree: ast.AST) -> set[int]:
    keys: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict):
            keys |= {id(k) for k in node.keys if k is not None}
        elif isinstance(node, ast.Subscript) and not (
            isinstance(node.value, ast.Attribute) and node.value.attr == "facts"
        ):
            keys.add(id(node.slice))
    return keys


def _string_constants(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    keys = _record_keys(tree)
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in docstrings
        and not (node.value in RECORD_KEYS and id(node) in keys)
    ]


def test_no_daily_life_name_in_code() -> None:
    names = _domain_names()
    assert {"gender", "age", "work_city", "employer", "location"} <= names
    found = [
        f"{path.relative_to(ROOT)}:{line}: {value!r}"
        for package in PACKAGES
        for path in sorted((ROOT / "memsim" / package).rglob("*.py"))
        for line, value in _string_constants(path)
        if value in names
    ]
    assert not found, "daily-life names in code:\n" + "\n".join(found)
