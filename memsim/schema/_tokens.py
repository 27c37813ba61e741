"""No schema value may look like a template token.

Values, labels and units are put into phrasings by ``str.format``-style rendering; a
value holding ``{`` or ``}`` ("{who}", "a {b}") would either be read as a token or
come out differently from what the audit re-renders, so it is refused where it is
written (``file:line:col``) instead of being escaped.
"""

from __future__ import annotations

import unicodedata
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


def ends_badly(text: str) -> str | None:
    """Why a phrase that other words follow ("'s", " is") cannot start or end as it
    does (None: it can): spaces at either end, or punctuation at its end (a closing
    brace of a token, quote marks and closing brackets of any script excepted: a book's
    title in 《》 is followed by 的): "my friend from the workshop, {first}," gives
    "workshop, Candice,'s"."""
    if text != text.strip():
        return "has spaces at its start or end"
    last = text[-1:]
    closing = unicodedata.category(last) in ("Pe", "Pf") if last else False
    if last and not closing and last not in "}\"'" and unicodedata.category(last).startswith("P"):
        return f"ends in {last!r}, which would stand before the words that follow it"
    return None


def check_phrase_ends(schema: Schema) -> list[Problem]:
    """A problem for each kind label, attribute label or ``refer`` phrase that ends in
    punctuation or spaces: "'s", a plural ending or the rest of a sentence follows each
    ("the {label} of {who}", "{kind}'s {label}", "my {relation}'s")."""
    out = []
    seen: set[Path] = set()
    for kind, entity in schema.entities.items():
        texts = [*_said(("entities", kind, "label"), entity.label)]
        texts += _said(("entities", kind, "refer"), entity.refer)
        for attr, where in schema.attribute_sources(kind).values():
            texts += _said((*where, "label"), attr.label)
        for path, text in texts:
            why = ends_badly(text)
            if why and path not in seen:
                seen.add(path)
                out.append(Problem(path, f"{text!r} {why}"))
    return out


__all__ = ["BRACES", "check_no_tokens", "check_phrase_ends", "ends_badly", "has_brace"]
