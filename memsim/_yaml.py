"""YAML that cannot blow up: every file memsim reads (schemas, locales, prompts) is
composed first and its node graph measured before anything expands it.

Anchors and aliases stay allowed (the bundled schemas share labels and phrasings with
them), but an alias that contains itself, nesting deeper than :data:`MAX_DEPTH` and
aliases that add more than :data:`MAX_ALIAS_NODES` nodes to what the file writes (a
"billion laughs" of ``&a [*a, *a, ...]``) are refused with the place of the offending
node, in time and memory proportional to the file's size, never to its expansion.
"""

from __future__ import annotations

from typing import Any

import yaml

try:  # the C loader is ~10x faster; both give the same nodes and marks
    from yaml import CSafeLoader as Loader
except ImportError:  # pragma: no cover - depends on how PyYAML was built
    from yaml import SafeLoader as Loader  # type: ignore[assignment]

MAX_ALIAS_NODES = 100_000
"""Nodes that aliases may add to a document beyond the ones it writes (each alias
counted with everything under it, at every use); the bundled schemas add about 1,500.
A large file without aliases is bounded by its own size."""
MAX_DEPTH = 64
"""Nesting of mappings and lists; a schema needs fewer than 15."""


class YamlBombError(ValueError):
    """A YAML document that would expand without bound; ``line`` and ``col`` from 1."""

    def __init__(self, message: str, line: int, col: int):
        self.line, self.col = line, col
        super().__init__(message)


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.MappingNode):
        return [n for pair in node.value for n in pair]
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    return []


def _bomb(message: str, node: yaml.Node) -> YamlBombError:
    mark = node.start_mark
    return YamlBombError(message, mark.line + 1, mark.column + 1)


def check_expansion(root: yaml.Node) -> int:
    """The number of nodes ``root`` expands to; raise YamlBombError past the limits.

    Iterative, with each node's expanded size memoised, so a shared (aliased) node is
    measured once and a deep document cannot exhaust Python's stack."""
    sizes: dict[int, int] = {}
    on_path: set[int] = set()
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    while stack:
        node, done = stack.pop()
        key = id(node)
        if done:
            on_path.discard(key)
            sizes[key] = 1 + sum(sizes[id(c)] for c in _children(node))
            # without aliases a node expands to at most the distinct nodes seen so far
            if sizes[key] > len(sizes) + MAX_ALIAS_NODES:
                raise _bomb(
                    f"YAML aliases expand to more than {MAX_ALIAS_NODES:,} nodes beyond "
                    "the ones written (an alias bomb?)",
                    node,
                )
            continue
        if key in sizes:
            continue
        if key in on_path:
            raise _bomb("YAML alias refers to a node that contains it (a recursive alias)", node)
        if len(on_path) >= MAX_DEPTH:
            raise _bomb(f"YAML nested more than {MAX_DEPTH} levels deep", node)
        on_path.add(key)
        stack.append((node, True))
        for child in _children(node):
            if id(child) in on_path:
                raise _bomb(
                    "YAML alias refers to a node that contains it (a recursive alias)", child
                )
            if id(child) not in sizes:
                stack.append((child, False))
    return sizes[id(root)]


def compose_checked(text: str) -> tuple[yaml.Node | None, Any]:
    """The root node of ``text`` and its Python value, after :func:`check_expansion`.
    Raises ``yaml.YAMLError`` (syntax) or :class:`YamlBombError`."""
    loader = Loader(text)
    try:
        root = loader.get_single_node()
        if root is None:
            return None, None
        check_expansion(root)
        return root, loader.construct_document(root)
    finally:
        loader.dispose()


def safe_load(text: str | bytes, filename: str) -> Any:
    """``yaml.safe_load`` with the expansion checked; every problem is a ValueError
    whose message starts with ``filename:line:col``."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ValueError(f"{filename}: not UTF-8 text: {exc}") from None
    try:
        return compose_checked(text)[1]
    except YamlBombError as exc:
        raise ValueError(f"{filename}:{exc.line}:{exc.col}: {exc}") from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = f"{filename}:{mark.line + 1}:{mark.column + 1}" if mark else filename
        raise ValueError(f"{where}: YAML syntax error: {exc.problem or exc}") from None
    except yaml.YAMLError as exc:
        raise ValueError(f"{filename}: YAML error: {exc}") from None


__all__ = [
    "MAX_ALIAS_NODES",
    "MAX_DEPTH",
    "Loader",
    "YamlBombError",
    "check_expansion",
    "compose_checked",
    "safe_load",
]
