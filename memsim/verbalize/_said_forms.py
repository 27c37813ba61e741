"""Phrasings of the user's attributes that no form of the locale can say of the user.

A phrasing is written once for the user and for everyone else, its tokens filled with
the user's forms or another's (:mod:`memsim.verbalize._agree`). ``{who}`` written with
the other's possessive ending ("{who}'s full name", en) reads "I's full name" of the
user, and an apostrophe after ``{who}`` is a contraction no form agrees with ("{who}'s
coming", "{who}'ll"): such a phrasing should say ``{whose}`` or ``{who} {be}``.
`memsim schema validate` warns at the phrasing's file:line.
"""

from __future__ import annotations

import re

from memsim.schema import Problem, Schema, user_kind
from memsim.verbalize._locale import LocaleData

_APOSTROPHE = re.compile(r"\{who\}['’]")


def unsayable_phrasings(schema: Schema, loc: LocaleData) -> list[Problem]:
    """A problem at each phrasing of the user's attributes in ``loc``'s language that
    writes ``{who}`` with a possessive ending or a contraction the user's forms cannot
    say."""
    kind = user_kind(schema)
    if kind is None:
        return []
    me = schema.entities[kind].refer.get(loc.code, "")
    # the other's possessive ending ("'s", zh 的) after the user: wrong unless it is the
    # user's own possessive too (zh 我 + 的 is 我的)
    ending = loc.other_forms.whose.replace("{who}", "", 1)
    wrong_ending = bool(ending) and (me + ending) != loc.self_forms.whose.format(who=me)
    out = []
    for name, (attr, path) in schema.attribute_sources(kind).items():
        for i, text in enumerate(attr.phrasings.get(loc.code, ())):
            if _APOSTROPHE.search(text) or (wrong_ending and "{who}" + ending in text):
                out.append(
                    Problem(
                        (*path, "phrasings", loc.code, i),
                        f"{kind}.{name}: {text!r} writes {{who}} with an ending no form"
                        f" of the user says ({me!r} + the ending); write {{whose}} for"
                        " a possessive, {who} {be} for a verb",
                    )
                )
    return out


__all__ = ["unsayable_phrasings"]
