"""Load a YAML schema and report every problem in it as ``file:line:col: message``."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path as FsPath
from typing import Any, get_args

import pydantic
import yaml

from memsim._yaml import Loader, YamlBombError, check_expansion
from memsim.schema._checks import Path, Problem, check_schema
from memsim.schema._distributions import Distribution
from memsim.schema._models import Schema
from memsim.schema._order import topological_order
from memsim.schema._refs import all_node_keys, node_id, node_parents
from memsim.schema._tokens import check_no_tokens, check_phrase_ends


@dataclass(frozen=True)
class Position:
    line: int
    col: int


class SchemaError(Exception):
    """A schema file has problems; ``messages`` holds one ``file:line:col: ...`` line each."""

    def __init__(self, messages: Sequence[str]):
        self.messages = list(messages)
        super().__init__("\n".join(self.messages))


class _SourceMap:
    """Where each path of a YAML document was written (key and value positions)."""

    def __init__(self, root: yaml.Node | None):
        self.keys: dict[Path, Position] = {}
        self.values: dict[Path, Position] = {(): _pos(root)} if root else {}
        self.duplicates: list[tuple[Path, Position]] = []
        if root is not None:
            self._walk(root, ())

    def _walk(self, node: yaml.Node, path: Path) -> None:
        if isinstance(node, yaml.MappingNode):
            seen: set[str] = set()
            for key_node, value_node in node.value:
                key = str(key_node.value)
                if key == "<<":  # a merge: its keys are defaults that later keys override
                    continue
                child = (*path, key)
                if key in seen:
                    self.duplicates.append((child, _pos(key_node)))
                seen.add(key)
                self.keys[child] = _pos(key_node)
                self.values[child] = _pos(value_node)
                self._walk(value_node, child)
        elif isinstance(node, yaml.SequenceNode):
            for i, item in enumerate(node.value):
                self.keys[(*path, i)] = self.values[(*path, i)] = _pos(item)
                self._walk(item, (*path, i))

    def locate(self, loc: Sequence[Any], at_key: bool = False) -> Position:
        """The deepest written position along a path; path parts that the YAML does
        not have (pydantic's union tags, for instance) are skipped."""
        path: Path = ()
        for part in loc:
            candidate = (*path, part if isinstance(part, int) else str(part))
            if candidate in self.values:
                path = candidate
        table = self.keys if at_key and path in self.keys else self.values
        return table.get(path, Position(1, 1))


def _pos(node: yaml.Node) -> Position:
    return Position(node.start_mark.line + 1, node.start_mark.column + 1)


def load_schema(path: str | FsPath) -> Schema:
    """Parse, validate and check a schema file; raise SchemaError listing every problem."""
    path = FsPath(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise SchemaError([f"{path}: cannot read schema: {exc}"]) from exc
    return parse_schema(text, str(path))


_INDEXED_REF = re.compile(r"[{,[]\s*([A-Za-z_]\w*\[\d+\]\.\w+)")


def _quote_hint(text: str, line: int) -> str:
    """A reference to a slot (``relative[0].age``) unquoted in a flow mapping: its
    brackets are YAML's flow indicators, so the parser stops at them; say so."""
    lines = text.splitlines()
    found = _INDEXED_REF.search(lines[line]) if 0 <= line < len(lines) else None
    if found is None:
        return ""
    return (
        f'; a reference with [i] inside {{...}} must be quoted: "{found[1]}" (the '
        "brackets are YAML's own)"
    )


def parse_schema(text: str, filename: str = "<schema>") -> Schema:
    """Parse, validate and check a schema's YAML ``text``; raise SchemaError listing every
    problem at ``filename``:line:col. A ``filename`` given is also the schema's
    :attr:`~Schema.source`, where a relative ``locale_overlay`` path is found from (the
    text of an edited copy of a schema file, parsed under that file's name, keeps its
    overlay)."""
    loader = Loader(text)
    try:
        root = loader.get_single_node()
        if root is not None:  # bounded before anything expands the aliases
            check_expansion(root)
        # map positions before constructing: construction flattens merge keys (<<) in place
        source = _SourceMap(root)
        data = loader.construct_document(root) if root is not None else None
    except YamlBombError as exc:
        raise SchemaError([f"{filename}:{exc.line}:{exc.col}: {exc}"]) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = f"{filename}:{mark.line + 1}:{mark.column + 1}" if mark else filename
        hint = _quote_hint(text, mark.line) if mark else ""
        raise SchemaError([f"{where}: YAML syntax error: {exc.problem or exc}{hint}"]) from None
    except yaml.YAMLError as exc:
        raise SchemaError([f"{filename}: YAML error: {exc}"]) from None
    finally:
        loader.dispose()

    found: list[tuple[Position, str]] = [
        (pos, f"duplicate key '{p[-1]}'") for p, pos in source.duplicates
    ]

    def fail() -> SchemaError:
        ordered = sorted(set(found), key=lambda f: (f[0].line, f[0].col, f[1]))
        return SchemaError([f"{filename}:{pos.line}:{pos.col}: {msg}" for pos, msg in ordered])

    if not isinstance(data, dict):
        found.append((Position(1, 1), "a schema is a YAML mapping"))
        raise fail()
    try:
        schema = Schema.model_validate(data)
    except pydantic.ValidationError as exc:
        for err in exc.errors():
            unknown = err["type"] == "extra_forbidden"
            what = ".".join(str(p) for p in err["loc"])
            msg = f"unknown key '{err['loc'][-1]}'" if unknown else f"{what}: {err['msg']}"
            if unknown:
                msg += _allowed_hint(data, err["loc"][:-1])
            found.append((source.locate(err["loc"], at_key=unknown), msg))
        raise fail() from None
    # the cycle search skips references the checks report as broken, so a cycle is
    # reported together with every other problem, not only once they are fixed
    problems = check_schema(schema) + check_no_tokens(schema) + check_phrase_ends(schema)
    try:
        problems += _check_cycles(schema)
    except (KeyError, ValueError):
        if not problems:  # a schema the checks pass must never fail here
            raise
    found += [(source.locate(p.path), p.message) for p in problems]
    if found:
        raise fail()
    if filename != "<schema>":
        schema._source = filename  # a relative locale_overlay path is found from it
    return schema


def _allowed_hint(data: Any, loc: Sequence[int | str]) -> str:
    """The keys a distribution takes, for an unknown key inside one (``uniform_int``
    takes ``low``/``high``, not the attribute's ``min``/``max``): a new user guesses
    parameters, and the message then says which there are."""
    for step in loc:
        if not isinstance(data, dict | list):
            return ""
        if isinstance(data, dict) and step not in data and data.get("kind") == step:
            continue  # pydantic's location names the union member by its tag
        try:
            data = data[step] if isinstance(data, dict) else data[int(step)]
        except (KeyError, IndexError, ValueError):
            return ""
    kind = data.get("kind") if isinstance(data, dict) else None
    model = _DIST_MODELS.get(kind) if isinstance(kind, str) else None
    if model is None:
        return ""
    return f" ({kind} takes: {', '.join(model.model_fields)})"


_DIST_MODELS: dict[str, type[pydantic.BaseModel]] = {
    get_args(cls.model_fields["kind"].annotation)[0]: cls
    for cls in get_args(get_args(Distribution)[0])
}


def _check_cycles(schema: Schema) -> list[Problem]:
    parents: dict[str, list[str]] = {}
    for key in all_node_keys(schema):
        refs = node_parents(schema, key, skip_broken=True)
        parents[node_id(schema, key)] = [node_id(schema, p) for p in refs]
    if topological_order(parents) is not None:
        return []
    # a cycle: networkx names it, as it always has (imported only for a broken schema)
    import networkx as nx

    graph: nx.DiGraph[str] = nx.DiGraph()
    paths: dict[str, Path] = {}
    for key in all_node_keys(schema):
        nid = node_id(schema, key)
        paths[nid] = schema.attribute_sources(key.kind)[key.attr][1]
        graph.add_node(nid)
        for parent in node_parents(schema, key, skip_broken=True):
            graph.add_edge(node_id(schema, parent), nid)
    try:
        cycle = nx.find_cycle(graph)
    except nx.NetworkXNoCycle:
        return []
    chain = " -> ".join([u for u, _ in cycle] + [cycle[0][0]])
    return [Problem((*paths[cycle[0][1]], "dist"), f"dependency cycle: {chain}")]


def schema_warnings(
    path: str | FsPath,
    extra: Callable[[Schema], list[Problem]] | None = None,
    schema: Schema | None = None,
) -> list[str]:
    """What ``question_warnings`` (and ``extra``: the CLI passes the QA plan's, which
    this stage cannot import) finds in a schema file that loads, as
    ``file:line:col: warning: ...`` lines (the schema must load: see load_schema).
    ``schema``: the file as :func:`load_schema` read it, if the caller has it (not
    parsed again)."""
    from memsim.schema._declared import question_warnings

    text = FsPath(path).read_text(encoding="utf-8")
    schema = schema or parse_schema(text, str(path))
    loader = Loader(text)
    try:
        source = _SourceMap(loader.get_single_node())
    finally:
        loader.dispose()
    found = sorted(
        {
            (source.locate(p.path), p.message)
            for p in question_warnings(schema) + (extra(schema) if extra else [])
        },
        key=lambda f: (f[0].line, f[0].col, f[1]),
    )
    return [f"{path}:{pos.line}:{pos.col}: warning: {msg}" for pos, msg in found]


def yaml_position(path: str, keys: Sequence[str | int]) -> tuple[int, int]:
    """Line and column (from 1) where ``keys`` was written in the YAML file ``path``:
    the key itself, else the deepest part of the path the file has (1, 1 when the file
    cannot be read), for messages about data read from it after loading (a locale
    overlay checked against the locale data's model)."""
    try:
        loader = Loader(FsPath(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError):
        return 1, 1
    try:
        root = loader.get_single_node()
    except yaml.YAMLError:
        return 1, 1
    finally:
        loader.dispose()
    pos = _SourceMap(root).locate(keys, at_key=True)
    return pos.line, pos.col
