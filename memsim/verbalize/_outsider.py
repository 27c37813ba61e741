"""A person's attribute said of someone outside the profile ("My friend Grace is 172 cm
tall."): which of the attribute's phrasings can say it, and the pattern that reads such
a sentence back (the audit's proof that a line with no facts is one of these).

The person is one of the locale's ``hearsay_people`` ("my friend {first}"); the phrasing
names nothing of the entity's own beyond the value, so it fits anyone."""

from __future__ import annotations

import re
from functools import lru_cache

from memsim.schema import PersonName, Schema, is_person, is_user
from memsim.verbalize._agree import agreed, named_again
from memsim.verbalize._locale import LocaleData
from memsim.verbalize._render import template_fields

PERSON_TOKENS = frozenset({"value", "who", "whose", "be", "have", "s", "a", "unit"})
"""What a phrasing may name to be said of a person outside the profile: nothing of the
entity's own beyond the value (no ``{name}``, no ``{employer}``)."""


AGREEMENT = frozenset({"whose", "be", "have", "s"})
"""Tokens that agree with whoever the phrasing speaks of: the user's own phrasings
that name none ("{who} study at {value}", written for "I") are not said of others."""


def outsider_phrasings(schema: Schema, loc: LocaleData, kind: str, attribute: str) -> list[str]:
    """The phrasings of ``kind.attribute`` that can be said of a person outside the
    profile: ``kind`` is a person's (:func:`memsim.schema.is_person`: a book with an
    author or a client firm with a contact person is not one, "my friend Lü Jing has
    227 pages" said a book's page count of a person), the
    phrasing names nothing of the entity's own but the value, and agrees with whom it
    speaks of (see :data:`AGREEMENT`). None for a text or a time, or an attribute that
    fixes a name's gender ("my friend Grace is male" would contradict her name)."""
    if kind not in schema.entities:
        return []
    attrs = schema.attributes_of(kind)
    attr = attrs.get(attribute)
    names = [a for a in attrs.values() if isinstance(a.dist, PersonName)]
    user = is_user(schema, kind)
    if attr is None or attr.type in ("text", "datetime") or not is_person(schema, kind):
        return []
    if attribute in {a.dist.gender for a in names if isinstance(a.dist, PersonName)}:
        return []
    out = []
    for t in attr.phrasings.get(loc.code, []):
        fields = set(template_fields(t))
        if not (fields <= PERSON_TOKENS and {"who", "whose"} & fields and "value" in fields):
            continue
        if user and not fields & AGREEMENT:
            continue
        out.append(t)
    return out


def outsider_pattern(template: str, loc: LocaleData, unit: str) -> re.Pattern[str]:
    """``template`` said of one of the locale's ``hearsay_people`` as a pattern whose
    group ``value`` is the value (case-folded at the start, as messages are capitalised)."""
    forms = loc.other_forms
    again = named_again(template, tuple(loc.grammar.clause_openers))
    template = agreed(loc, again, forms.s, object_form=False)  # as fill()
    articles = tuple(sorted({loc.article, loc.article_before_vowel}))
    # the unit as said after any value: singular after one ("1 year")
    units = tuple(dict.fromkeys([unit, *(loc.unit_for(v, unit) for v in loc.grammar.one)]))
    return _pattern(
        template, tuple(loc.hearsay_people), forms.whose, forms.again or forms.whose,
        forms.again_whom or forms.whom, forms.reflexive or "{who}",
        forms.be, forms.have, forms.s, articles, units,
    )  # fmt: skip


@lru_cache(maxsize=1024)
def _pattern(
    template: str,
    people_forms: tuple[str, ...],
    whose_form: str,
    again_form: str,
    again_whom_form: str,
    reflexive_form: str,
    be: str,
    have: str,
    s: str,
    articles: tuple[str, ...],
    units: tuple[str, ...],
) -> re.Pattern[str]:
    name = r"[^\W\d_]+"
    # the longest forms first: "my friend {first}" would read "my friend from abroad
    # Megan 291 dollars" as the friend "from" and the value "abroad Megan 291"
    people = [
        re.escape(p).replace(re.escape("{first}"), name).replace(re.escape("{last}"), name)
        for p in sorted(people_forms, key=len, reverse=True)
    ]
    who = "(?:" + "|".join(people) + ")"
    groups = {
        "\0value\0": "(?P<value>.+?)",
        "\0whose\0": re.escape(whose_form).replace(re.escape("{who}"), who),
        "\0again\0": re.escape(again_form).replace(re.escape("{who}"), who),
        "\0whom_again\0": re.escape(again_whom_form).replace(re.escape("{who}"), who),
        "\0reflexive\0": re.escape(reflexive_form).replace(re.escape("{who}"), who),
        "\0who\0": who,
        "\0a\0": "(?:"
        + "|".join(re.escape(a) for a in sorted(articles, key=len, reverse=True))
        + ")",
        "\0unit\0": "(?:"
        + "|".join(re.escape(u) for u in sorted(units, key=len, reverse=True))
        + ")",
    }
    # filled as the verbalizer fills it (a double space an empty token leaves is folded),
    # then every placeholder turned into its pattern
    text = template.format(
        value="\0value\0", who="\0who\0", whose="\0whose\0", whose_again="\0again\0",
        whom_again="\0whom_again\0", who_reflexive="\0reflexive\0",
        a="\0a\0" if any(articles) else "",
        be=be, have=have, s=s, unit="\0unit\0" if any(units) else "",
    ).replace("  ", " ")  # fmt: skip
    pattern = re.escape(text)
    for key, group in groups.items():
        pattern = pattern.replace(re.escape(key), group)
    return re.compile(pattern, re.IGNORECASE | re.DOTALL)


__all__ = ["PERSON_TOKENS", "outsider_pattern", "outsider_phrasings"]
