"""No schema value may look like a template token.

Values, labels and units are put into phrasings by ``str.format``-style rendering; a
value holding ``{`` or ``}`` ("{who}", "a {b}") would either be read as a token or
come out differently from what the audit re-renders, so it is refused where it is
written (``file:line:col``) instead of being escaped.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from string import Formatter

from memsim.schema._checks import Path, Problem
from memsim.schema._distributions import Template
from memsim.schema._models import Schema

BRACES = ("{", "}")


def has_brace(text: str) -> bool:
    return any(b in text for b in BRACES)


def _literal_braces(template: str) -> bool:
    """Whether a template writes a brace as text (``{{``), which its output then holds."""
    try:
        return any(has_brace(literal) for literal, *_ in Formatter().parse(template))
    except ValueError:
        return True  # unbalanced braces: not a template the renderer can read


def _said(path: Path, texts: Mapping[str, str]) -> Iterator[tuple[Path, str]]:
    for locale, text in texts.items():
        yield (*path, locale), text


def _texts(schema: Schema) -> Iterator[tuple[Path, str, str]]:
    """(path, text, what) of every schema string that ends up inside a message."""
    for name, values in schema.domains.items():
        for i, value in enumerate(values):
            yield ("domains", name, i), value, "value"
    for kind, entity in schema.entities.items():
        for path, text in _said(("entities", kind, "label"), entity.label):
            yield path, text, "label"
        for attr, where in schema.attribute_sources(kind).values():
            if isinstance(attr.values, list):
                for i, value in enumerate(attr.values):
                    yield (*where, "values", i), value, "value"
            for path, text in _said((*where, "label"), attr.label):
                yield path, text, "label"
            if attr.unit is not None:
                yield (*where, "unit"), attr.unit, "unit"
            if isinstance(attr.dist, Template):
                cases = [*attr.dist.default, *(t for ts in attr.dist.cases.values() for t in ts)]
                for template in cases:
                    if _literal_braces(template):
                        yield (*where, "dist"), template, "template output"


def check_no_tokens(schema: Schema) -> list[Problem]:
    """A problem for each value, label or unit holding a brace."""
    out = []
    seen: set[Path] = set()
    for path, text, what in _texts(schema):
        if path in seen:
            continue
        seen.add(path)
        if what == "template output" or has_brace(text):
            out.append(
                Problem(
                    path,
                    f"{what} {text!r} holds '{{' or '}}', which phrasings would read as a "
                    "template token; write it without braces",
                )
            )
    return out


__all__ = ["BRACES", "check_no_tokens", "has_brace"]
