"""Which attributes a question names by their own wording instead of their label: "How
old is my peer?" names the age, "What did I think of the item I own?" the opinion and
the relationship (the locale's ``questions.by_attribute``, see
:mod:`memsim.qa._wording`). :func:`question_names_terms` takes such a label as said."""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator
from functools import lru_cache

from memsim.audit._context import AuditContext
from memsim.audit._text import fold
from memsim.schema import is_person, is_user, pool_of, role_of, user_kind
from memsim.verbalize import template_fields

LEAST = 2
"""A template whose words outside its tokens are fewer letters than this says nothing
of its attribute (it is not taken as naming it)."""


def worded_labels(
    ctx: AuditContext, question: str, among: Collection[str] | None = None
) -> set[str]:
    """The labels of the attributes whose own question wording ``question`` uses (only
    those ``among`` the given labels, when given: the others' patterns are not run)."""
    questions = None if ctx.locale is None else ctx.locale.questions
    if questions is None or not (questions.by_attribute or questions.by_role):
        return set()
    folded = fold(question)
    out: set[str] = set()
    for label, patterns in _patterns(ctx).items():
        if (among is None or label in among) and any(p.search(folded) for p in patterns):
            out.add(label)
    return out


def user_named(ctx: AuditContext, question: str) -> set[str]:
    """The user's possessive ("my"), as said when ``question`` names the user by the
    pronoun the messages use instead ("How old am I?"): a word of its own (in text
    without spaces, anywhere)."""
    if ctx.locale is None or ctx.schema is None:
        return set()
    kind = user_kind(ctx.schema)
    refer = ctx.schema.entities[kind].refer.get(ctx.locale.code, "") if kind else ""
    me = fold(refer) if refer and not template_fields(refer) else ""
    if not me:
        return set()
    text = fold(question)
    if re.search(r"[^\x00-\x7f]", me):  # written without spaces: anywhere
        said = me in text
    else:
        said = re.search(rf"(?<!\w){re.escape(me)}(?!\w)", text) is not None
    return {ctx.locale.self_forms.whose} if said else set()


KEYS = ("simple", "comparative", "condition")
"""The wordings of an attribute that name it."""


def _patterns(ctx: AuditContext) -> dict[str, list[re.Pattern[str]]]:
    found = ctx.shared.get("attribute_wording")
    if found is None:
        found = {}
        for label, templates in _wordings(ctx):
            found.setdefault(label, []).extend(
                p for t in templates if (p := _pattern(t)) is not None
            )
        ctx.shared["attribute_wording"] = found
    assert isinstance(found, dict)
    return found


def _wordings(ctx: AuditContext) -> Iterator[tuple[str, list[str]]]:
    """(label, its own question wordings) for every attribute the locale words."""
    assert ctx.locale is not None
    questions = ctx.locale.questions
    if ctx.schema is None:
        # a MemDaily-format folder alone: the locale's own keys, an attribute's label
        # taken as its name spoken ("work_city" -> "work city"), as graphs.json says it
        for name, wordings in questions.by_attribute.items():
            label = name.rsplit(".", 1)[-1].replace("_", " ")
            said = [t for key in KEYS for t in wordings.get(key, ())]
            yield label, [_measured(t, questions.measure) for t in said]
        return
    for kind in ctx.schema.entities:
        user = is_user(ctx.schema, kind)
        # a condition phrase says the measure word of the kind's pool (zh 那单): its
        # pattern is the phrase as said, not one that any measure word would match
        measure = questions.measure_of(
            pool_of(ctx.schema, kind) or kind, is_person(ctx.schema, kind)
        )
        for attr, a in ctx.schema.attributes_of(kind).items():
            label = a.label.get(ctx.locale.code, attr.replace("_", " "))
            role = None if user else role_of(ctx.schema, kind, attr)
            said = [t for key in KEYS for t in questions.of_attribute(kind, attr, key, role)]
            yield label, [_measured(t, measure) for t in said]


def _measured(template: str, measure: str) -> str:
    """``template`` with its ``{measure}`` said."""
    return template.replace("{measure}", measure)


@lru_cache(maxsize=1024)
def _pattern(template: str) -> re.Pattern[str] | None:
    """The template's words, its tokens any text between them."""
    parts = re.split(r"\{[^{}]*\}", fold(template))
    if sum(len(re.sub(r"\W", "", p)) for p in parts) < LEAST or not template_fields(template):
        return None
    return re.compile(
        ".+?".join(re.escape(p.strip(" ?？.。")) for p in parts if p.strip(" ?？.。"))
    )


__all__ = ["user_named", "worded_labels"]
