"""The offline verbalizer: facts become first-person messages through the schema's
per-locale phrasings, one chosen at random for each fact."""

from __future__ import annotations

import datetime as dt
import functools
import re
import string
from collections.abc import Iterable, Sequence

import numpy as np

from memsim._registry import Registry, registry
from memsim.profile import Entity, Fact
from memsim.schema import Schema, is_user
from memsim.verbalize._agree import agreed, named_again
from memsim.verbalize._locale import Forms, LocaleData
from memsim.verbalize._render import (
    refer,
    render_value,
    template_fields,
    value_at,
)

VERBALIZERS: Registry[type] = registry("verbalizer")

SENTENCES_MEMO = 50_000
"""Facts' sentence lists :meth:`TemplateVerbalizer.sentences` remembers before starting
afresh."""


def fact_tokens(
    loc: LocaleData, forms: Forms, value: str, who: str, unit: str | None
) -> dict[str, str]:
    """The tokens a phrasing names for a fact said of ``who`` (``forms``: the user's or
    another's): the value, who, and the words that agree with them."""
    return {
        "value": value,
        "who": who,
        "whose": forms.whose.format(who=who),
        "whose_again": (forms.again or forms.whose).format(who=who),
        "whom_again": (forms.again_whom or forms.whom).format(who=who),
        "who_reflexive": (forms.reflexive or "{who}").format(who=who),
        "whom": forms.whom.format(who=who),
        "be": forms.be,
        "have": forms.have,
        "s": forms.s,
        "a": loc.article_for(value),
        "unit": loc.unit_for(value, unit) if unit else "",
    }


def fill(loc: LocaleData, template: str, tokens: dict[str, str]) -> str:
    """``template`` with ``tokens``, capitalised, without the double space an empty
    token leaves; its verbs and an object ``{who}`` agree with whom it speaks of
    (:func:`memsim.verbalize._agree.agreed`: "does", "me")."""
    who = tokens.get("who")
    if "whose_again" in tokens:
        template = named_again(template, tuple(loc.grammar.clause_openers))
    template = agreed(loc, template, tokens.get("s", ""), tokens.get("whom", who) != who)
    time_words, prepositions, deictic = _fill_words(loc)
    text = seamless(template, tokens, time_words, prepositions, deictic)
    return loc.cap(text.replace("  ", " "))


_FILL_WORDS: dict[int, tuple[LocaleData, frozenset[str], frozenset[str], frozenset[str]]] = {}


def without_time_preposition(loc: LocaleData, value: str) -> str:
    """A date-time value as the object of "is" ("their start time is {value}"): without
    the preposition it is said with ("on May 3, 2025 at 9:00 AM" -> "May 3, 2025 at
    9:00 AM"), since a time is a day, not on one; unchanged in a language whose forms
    start with no preposition, and when the first word is not one."""
    time_words = _fill_words(loc)[0]
    first, space, rest = value.partition(" ")
    return rest if space and rest and first.casefold() in time_words else value


def _fill_words(loc: LocaleData) -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """The locale's :func:`time_prepositions`, its ``object_after`` casefolded and its
    :func:`time_deictics`, as
    :func:`seamless` takes them: made once per locale object, not once per sentence
    (the audit re-renders every phrasing of every message's facts, 44,000 fills on
    make dataset's data, each of which casefolded every preposition again). The
    locale is kept with them, so its id is never reused for another."""
    hit = _FILL_WORDS.get(id(loc))
    if hit is None or hit[0] is not loc:
        prepositions = tuple(loc.grammar.object_after)
        cal = loc.calendar
        forms = (cal.on_date, cal.tomorrow, cal.this_weekday, cal.next_weekday)
        hit = _FILL_WORDS[id(loc)] = (
            loc,
            time_prepositions(forms, prepositions),
            frozenset(p.casefold() for p in prepositions),
            time_deictics(forms, prepositions),
        )
    return hit[1], hit[2], hit[3]


@functools.lru_cache(maxsize=16)
def time_prepositions(forms: tuple[str, ...], prepositions: tuple[str, ...]) -> frozenset[str]:
    """The prepositions a date-time value is said with: the first words of the locale's
    date-time ``forms`` ("on {date} at {clock}": "on") that are among its ``prepositions``
    (the grammar's ``object_after``); none in a language whose forms start otherwise."""
    firsts = {m.group(1).casefold() for f in forms if (m := _FIRST_WORD.match(f))}
    return frozenset(firsts & {p.casefold() for p in prepositions})


@functools.lru_cache(maxsize=16)
def time_deictics(forms: tuple[str, ...], prepositions: tuple[str, ...]) -> frozenset[str]:
    """The first words of the locale's date-time ``forms`` that are not prepositions
    ("tomorrow at {clock}", "next {weekday} at {clock}": "tomorrow", "next"): a
    date-time said so takes no preposition of time before it."""
    firsts = {m.group(1).casefold() for f in forms if (m := _FIRST_WORD.match(f))}
    return frozenset(firsts - {p.casefold() for p in prepositions})


def seamless(
    template: str,
    tokens: dict[str, str],
    time_words: frozenset[str] = frozenset(),
    prepositions: frozenset[str] = frozenset(),
    deictic: frozenset[str] = frozenset(),
) -> str:
    """``template.format(**tokens)`` without a word said twice where a token meets the
    text before it: a date-time is said with its preposition ("on May 3, 2025 at 9:00
    AM"), so a phrasing written "{who} is on {value}." would say "is on on May 3"; the
    phrasing's word is dropped. A phrasing that puts another preposition there ("booked
    for {value}") keeps its own, and the value's (one of ``time_words``) is dropped
    ("booked for May 3, 2025 at 9:00 AM", not "booked for on May 3"; ``prepositions``
    casefolded). A phrasing's preposition of time before a date-time said relatively
    (one of ``deictic``: "sails on {value}" with "next Tuesday at 2:00 PM") is dropped:
    "sails next Tuesday at 2:00 PM", not "sails on next Tuesday". Only Latin words
    are compared (a Chinese phrasing has no spaces to find a word by)."""
    parts = _parts(template)
    if parts is None:
        return template.format(**tokens)
    out = []
    for literal, field in parts:
        if field is not None:
            value = tokens[field]
            first = _FIRST_WORD.match(value)
            if first is not None and literal:
                last = _LAST_WORD.search(literal)
                said = first.group(1).casefold()
                before = last.group(1).casefold() if last is not None else None
                # the same word twice, or "on" before "next Tuesday": the phrasing's goes
                if last is not None and (
                    before == said or (said in deictic and before in time_words)
                ):
                    literal = literal[: last.start(1)]
                elif (
                    last is not None
                    and said in time_words
                    and last.group(1).casefold() in prepositions
                ):
                    value = value[first.end() :].lstrip()
            out.append(literal)
            out.append(value)
        else:
            out.append(literal)
    return "".join(out)


@functools.lru_cache(maxsize=4096)
def _parts(template: str) -> tuple[tuple[str, str | None], ...] | None:
    """The template as (literal text, field name or None) pairs; None when a field has a
    conversion, a format spec or an index (formatted by ``str.format`` as written)."""
    out = []
    for literal, field, spec, conversion in string.Formatter().parse(template):
        if field is not None and (spec or conversion or not field.isidentifier()):
            return None
        out.append((literal, field))
    return tuple(out)


_FIRST_WORD = re.compile(r"([A-Za-z]+)\b")
_LAST_WORD = re.compile(r"(?:^|\s)([A-Za-z]+) $")


@VERBALIZERS.register("template")
class TemplateVerbalizer:
    """Renders each fact with one of its attribute's phrasings.

    Guarantees: the message states exactly the value the fact has at the message's
    time (relative times resolved against that time); no ``{token}`` survives.
    """

    def __init__(self, schema: Schema, locale: LocaleData):
        self.schema = schema
        self.loc = locale
        # (kind, attribute) -> its phrasings and the fields they name; (kind, attribute,
        # what its tokens are made of) -> its sentences: a phrasing is filled from its
        # tokens alone
        self._phrasing_fields: dict[tuple[str, str], tuple[list[str], dict[str, None]]] = {}
        self._sentences: dict[tuple[object, ...], list[str]] = {}

    def who(self, entity: Entity, when: dt.datetime | None = None) -> str:
        """How the user names ``entity`` at ``when``; remembered on the entity (its
        :attr:`Entity.memo`, keyed by this locale object) when no value the name is made
        of ever changes, so the name is the same at any time (the audit asks it of
        every message's fact)."""
        template = self.schema.entities[entity.kind].refer.get(self.loc.code, entity.id)
        key = ("verbalize.who", template, id(self.loc))
        hit = entity.memo.get(key)
        if hit is not None and hit[0] is self.loc:
            return str(hit[1])
        name = refer(entity, template, self.loc, when)
        facts = entity.facts
        if not any(facts[f].history for f in template_fields(template) if f in facts):
            entity.memo[key] = (self.loc, name)
        return name

    def phrasings(self, entity: Entity, fact: Fact) -> list[str]:
        attr = self.schema.attributes_of(entity.kind)[fact.attribute]
        phrasings = attr.phrasings.get(self.loc.code)
        if not phrasings:
            raise ValueError(f"{entity.kind}.{fact.attribute} has no '{self.loc.code}' phrasings")
        return phrasings

    def sentence(
        self, entity: Entity, fact: Fact, when: dt.datetime, rng: np.random.Generator
    ) -> str:
        phrasings = self.phrasings(entity, fact)
        template = phrasings[int(rng.integers(len(phrasings)))]
        return self.render(entity, fact, when, template)

    def render(self, entity: Entity, fact: Fact, when: dt.datetime, template: str) -> str:
        """``template`` (one of the fact's phrasings) with the fact at ``when``."""
        return self._fill(template, self._tokens(entity, fact, when, template_fields(template)))

    def _tokens(
        self, entity: Entity, fact: Fact, when: dt.datetime, fields: Iterable[str]
    ) -> dict[str, str]:
        """What a phrasing of ``fact`` may name: the entity's ``fields`` and the fact's own
        tokens (which win over a field of the same name)."""
        return self._tokens_of(entity.kind, fact.attribute, *self._said(entity, fact, when, fields))

    def _said(
        self, entity: Entity, fact: Fact, when: dt.datetime, fields: Iterable[str]
    ) -> tuple[str, str, tuple[tuple[str, str], ...]]:
        """What the tokens of ``fact`` are made of: its value and who it is said of, as
        rendered at ``when``, and the entity's ``fields`` (those it has), rendered."""
        value = render_value(fact, value_at(fact, when), self.loc, when)
        facts = entity.facts
        named = tuple(
            [
                (name, render_value(facts[name], value_at(facts[name], when), self.loc, when))
                for name in fields
                if name in facts
            ]
        )
        return value, self.who(entity, when), named

    def _tokens_of(
        self, kind: str, attribute: str, value: str, who: str, named: tuple[tuple[str, str], ...]
    ) -> dict[str, str]:
        """The tokens made of what :meth:`_said` gives, for an attribute of ``kind``."""
        unit = self.schema.attributes_of(kind)[attribute].unit
        forms = self.loc.self_forms if is_user(self.schema, kind) else self.loc.other_forms
        return dict(named) | fact_tokens(self.loc, forms, value, who, unit)

    def _fill(self, template: str, tokens: dict[str, str]) -> str:
        return fill(self.loc, template, tokens)

    def renderings(self, facts: Sequence[tuple[Entity, Fact]], when: dt.datetime) -> frozenset[str]:
        """Every message :meth:`message` can make of ``facts`` at ``when``, whatever it
        draws (the audit's test that a template message is its template re-rendered)."""
        options = self.sentences(facts, when)
        if len(options) == 1:
            return frozenset(options[0])
        return frozenset(
            joiner.format(first=a, second=b)
            for joiner in self.loc.two_facts
            for a in options[0]
            for b in options[1]
        )

    def sentences(self, facts: Sequence[tuple[Entity, Fact]], when: dt.datetime) -> list[list[str]]:
        """Per fact, every sentence :meth:`sentence` can make of it at ``when``, in the
        order of its phrasings (a message of two facts joins one of each with one of
        the locale's ``two_facts``)."""
        options = []
        for e, f in facts:
            # a kind's attribute has the same phrasings, naming the same fields, in every
            # profile; the tokens are made once per fact, not once per phrasing (a
            # phrasing ignores the tokens it does not name, so each renders as
            # :meth:`render` renders it), and the sentences once per distinct tokens
            # ("my boss" and "chef" recur across profiles: the audit asks for them all)
            found = self._phrasing_fields.get((e.kind, f.attribute))
            if found is None:
                templates = self.phrasings(e, f)
                fields = dict.fromkeys(name for t in templates for name in template_fields(t))
                found = self._phrasing_fields[e.kind, f.attribute] = (templates, fields)
            templates, fields = found
            # keyed by what the tokens are made of (the tokens follow from it, with the
            # kind and attribute): most lookups find the sentences, and the tokens are
            # built only for a key not seen before
            key = (e.kind, f.attribute, *self._said(e, f, when, fields))
            said = self._sentences.get(key)
            if said is None:
                if len(self._sentences) >= SENTENCES_MEMO:
                    self._sentences.clear()
                tokens = self._tokens_of(*key)
                said = self._sentences[key] = [self._fill(t, tokens) for t in templates]
            options.append(said)
        return options

    def message(
        self, facts: Sequence[tuple[Entity, Fact]], when: dt.datetime, rng: np.random.Generator
    ) -> str:
        """One message stating one or two facts."""
        sentences = [self.sentence(e, f, when, rng) for e, f in facts]
        if len(sentences) == 1:
            return sentences[0]
        joiner = self.loc.two_facts[int(rng.integers(len(self.loc.two_facts)))]
        return joiner.format(first=sentences[0], second=sentences[1])
