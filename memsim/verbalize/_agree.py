"""Agreement a phrasing's tokens cannot carry alone, from the locale's ``grammar``.

A schema's phrasing is written once for the user and for everyone else, so three things
depend on words around a token rather than on the token:

- a verb ``word{s}`` takes the locale's ending for its stem ("do{s}" -> "I do" / "our
  drummer does", "carry{s}" -> "carries"), not a bare "s" ("dos");
- the user's ``{who}`` where it is the object ("Promoters can reach {who} at
  {value}.", "Everyone calls {who} {value}.", "Venues write to {who} at ...") is the
  object form ("me"), not "I";
- a subject named twice ("{who} celebrate{s} {whose} birthday") is named once, then
  said by the locale's possessive of one already named (``other_forms.again``: "my
  mentor celebrates their birthday", not "... my mentor's birthday"), and a ``{who}``
  named again as an object by its object forms ("I would call myself ...", "friends
  visit me there": ``reflexive``, ``again_whom``), where ``grammar.clause_openers``
  tells a subject again ("When I am off the road, I am ...") from an object.

Guarantees: a template is rewritten the same way wherever it is filled (messages, the
audit's re-rendering, hearsay lines and the patterns that read them back), so the
rewrite never makes a message differ from its re-rendering; a locale without
``grammar`` data (Chinese, a pseudo-locale) leaves every template as written.
"""

from __future__ import annotations

import re
from functools import lru_cache

from memsim.verbalize._locale import LocaleData

_STEM = re.compile(r"([^\W\d_]+)\{s\}")


def agreed(loc: LocaleData, template: str, s: str, object_form: bool) -> str:
    """``template`` with every ``word{s}`` written out for the ending ``s`` ("" or
    "s") and, when ``object_form``, every object ``{who}`` as ``{whom}``."""
    if "{s}" not in template and not (object_form and "{who}" in template):
        return template
    g = loc.grammar
    return _agreed(
        template,
        s,
        tuple((p, r) for p, r in g.verb_endings),
        tuple(g.object_after) if object_form else (),
        tuple(g.object_before) if object_form else (),
    )


_SUBJECT = re.compile(r"\{who(?:se)?\}")
_PIECE = re.compile(r"\{[^{}]*\}|[.,;:!?]|[^\W\d_]+")
"""A token, a mark that ends a clause, or a word."""


def named_again(template: str, openers: tuple[str, ...] = ()) -> str:
    """``template`` with every ``{whose}`` after its first ``{who}`` or ``{whose}`` as
    ``{whose_again}``: the subject is named once, then said by the possessive of one
    already named (:attr:`Forms.again`). With the grammar's clause ``openers``, a
    ``{who}`` named again where it is no subject (not at the start of a clause) is
    ``{who_reflexive}`` in a clause whose subject it is ("I would call myself ...") and
    ``{whom_again}`` in another ("..., and friends visit me there")."""
    first = _SUBJECT.search(template)
    if first is None:
        return template
    if openers and "{who}" in template[first.end() :]:
        template = _objects_again(template, openers)  # the first mention as it was
    head, rest = template[: first.end()], template[first.end() :]
    return head + rest.replace("{whose}", "{whose_again}")


@lru_cache(maxsize=1024)
def _objects_again(template: str, openers: tuple[str, ...]) -> str:
    """``template`` with each ``{who}`` after the first mention that does not open a
    clause (the template's start, after ``.,;:!?`` or one of ``openers``) said as the
    object of one already named: reflexive where a ``{who}`` is its clause's subject."""
    opening = {o.casefold() for o in openers}
    out, last = [], 0
    at_start, seen, subject = True, False, False
    for piece in _PIECE.finditer(template):
        text = piece.group()
        if text in ".,;:!?" or text.casefold() in opening:
            at_start, subject = True, False
            continue
        if text == "{who}":
            if seen and not at_start:
                out.append(template[last : piece.start()])
                out.append("{who_reflexive}" if subject else "{whom_again}")
                last = piece.end()
            elif at_start:
                subject = True
            seen = True
        elif text == "{whose}":
            seen = True
        at_start = False
    return "".join(out) + template[last:]


@lru_cache(maxsize=4096)
def _agreed(
    template: str,
    s: str,
    endings: tuple[tuple[str, str], ...],
    after: tuple[str, ...],
    before: tuple[str, ...],
) -> str:
    out = _STEM.sub(lambda m: _inflect(m[1], s, endings), template)
    if after or before:
        out = _objects(after, before).sub(r"\g<lead>{whom}", out)
    return out


def _inflect(stem: str, s: str, endings: tuple[tuple[str, str], ...]) -> str:
    if not s:
        return stem
    for pattern, replacement in endings:
        inflected, n = re.subn(f"(?:{pattern})$", replacement, stem)
        if n:
            return inflected
    return stem + s


@lru_cache(maxsize=64)
def _objects(after: tuple[str, ...], before: tuple[str, ...]) -> re.Pattern[str]:
    """``{who}`` as an object: after one of ``after`` ("to {who}"), or after a word and
    before one of ``before``, the value or the end of a sentence ("reach {who} at",
    "calls {who} {value}", "To find {who}, ...")."""
    ends = [r"\{value\}", r"[.,!?;:]", "$"]
    if before:
        ends.append(rf"(?:{'|'.join(map(re.escape, before))})\b")
    lead = rf"\w\s+(?=\{{who\}}\s*(?:{'|'.join(ends)}))"
    if after:
        lead = rf"\b(?:{'|'.join(map(re.escape, after))})\s+|{lead}"
    return re.compile(rf"(?P<lead>{lead})\{{who\}}", re.IGNORECASE)


__all__ = ["agreed", "named_again"]
