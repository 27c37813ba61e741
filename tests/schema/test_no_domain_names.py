"""No code in the stages that write messages and questions names a kind or an attribute
of the bundled daily-life schema: what a kind or an attribute means (the user, an
entity's time or place, never asked, ordered, its transforms) is read from the schema
(memsim.schema._meaning), so a schema of another domain needs no code change."""

from __future__ import annotations

import ast
from pathlib import Path

import yaml

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


FREE_KEYED = ("by_attribute", "comparative_options", "aggregative_predicates", "by_scenario")
"""The mappings of a locale's ``questions`` whose keys are chosen by the writer: by
attribute (``<kind>.<attr>``, ``higher.<attr>``, ``gt.<attr>``) or by scenario."""


def _free_keys(data: object, path: tuple[str, ...] = ()) -> list[str]:
    """Every key (dotted parts apart) of the free-keyed mappings under ``questions``,
    at any depth below them, with where it is."""
    out: list[str] = []
    if not isinstance(data, dict):
        return out
    for key, value in data.items():
        where = (*path, str(key))
        if len(where) >= 3 and where[0] == "questions" and where[1] in FREE_KEYED:
            out += [f"{'.'.join(where)} ({part})" for part in str(key).split(".")]
        out += _free_keys(value, where)
    return out


def test_no_daily_life_name_keys_the_package_locale() -> None:
    """memsim's locale data words no attribute by name ("How old is ...?" under
    ``age``, ``higher.age``): an attribute's own wording is its schema's (daily life's
    in schemas/overlays/daily_life.yaml), so a domain whose attribute shares a name
    with daily life's is not worded as daily life."""
    names = _domain_names()
    files = sorted((ROOT / "memsim").rglob("locales/*.yaml"))
    assert {f.stem for f in files} >= {"en", "zh"}
    found = [
        f"{path.relative_to(ROOT)}: {where}"
        for path in files
        for where in _free_keys(yaml.safe_load(path.read_text(encoding="utf-8")))
        if where.rsplit(" (", 1)[1].rstrip(")") in names
    ]
    assert not found, "daily-life names keying package wording:\n" + "\n".join(found)
