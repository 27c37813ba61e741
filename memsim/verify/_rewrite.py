"""Is a rewrite of a message faithful to it? Used on every LLM rewrite.

A rewrite is rejected, with every reason found, when it:
- is empty, or runs on (longer than three times the source and 120 characters more);
- no longer states a fact the source states, or the name of an entity the source
  names ("my mother" must stay "my mother");
- holds a number the source does not (digits, or words other than "one"; a 24-hour
  clock may stand for a 12-hour one and a phone number may be split into groups);
- brings in a known value the source does not have (a city, an occupation, a name:
  any value of the schema's domains or of the value pool, or one of the locale's
  ``recognise.known_names``: provinces, cities, countries, companies);
- brings in a capitalised word the source does not have, where the locale writes names
  capitalised (a possible new name), sentence starts and function words aside;
- holds meta-text or prompt leakage ("here is the rewritten message", braces);
- brings in a denial or a self-correction the source does not have (the locale's
  ``recognise.retractions``: "not", "no wait", "actually", "不是", "其实").
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from string import Formatter

from memsim.schema import Schema
from memsim.verbalize import LocaleData, value_at
from memsim.verify._dates import clocks_in
from memsim.verify._facts import CJK, StatedFact, fact_stated, squeeze, text_stated, words
from memsim.verify._numbers import fold, guarded, numerals, per_locale

MAX_TERM_WORDS = 8
"""Known values longer than this many words are not looked for (free text)."""


@dataclass(frozen=True)
class Vocabulary:
    """Values a rewrite must not bring in unless the source has them, and how each
    entity kind is named (its ``refer`` fields)."""

    terms: frozenset[str] = frozenset()
    """Known values as their folded words joined by one space."""
    cjk_terms: frozenset[str] = frozenset()
    """Known values in a CJK script, folded, spacing removed, numbers as digits (so
    "十人" is not found inside "五十人")."""
    refer: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Entity kind -> the attributes its name is made of ("my {relation}")."""


def vocabulary_for(
    schema: Schema, loc: LocaleData, extra_values: Iterable[object] = ()
) -> Vocabulary:
    """The schema's categorical values, the locale's ``known_names``, and
    ``extra_values`` (e.g. names and other text values of a
    :class:`memsim.qa.ValuePool`); and the entity kinds' names."""
    values: set[str] = set(loc.recognise.known_names)
    for kind in schema.entities:
        for attr in schema.attributes_of(kind).values():
            if attr.type == "categorical":
                values.update(schema.values_of(attr))
    values.update(str(v) for v in extra_values)
    terms, cjk = set(), set()
    for value in values:
        if CJK.search(value):
            cjk.add(squeeze(value, loc))
            continue
        tokens = words(value, loc)
        if 0 < len(tokens) <= MAX_TERM_WORDS and not all(t.isdigit() for t in tokens):
            terms.add(" ".join(tokens))
    refer = {
        kind: tuple(f for _, f, _, _ in Formatter().parse(entity.refer.get(loc.code, "")) if f)
        for kind, entity in schema.entities.items()
    }
    return Vocabulary(frozenset(terms), frozenset(cjk), refer)


def check_rewrite(
    source: str,
    rewrite: str,
    facts: Sequence[StatedFact],
    loc: LocaleData,
    vocabulary: Vocabulary | None = None,
) -> list[str]:
    """Why ``rewrite`` is not a faithful rewrite of ``source`` ([] when it is)."""
    if not rewrite.strip():
        return ["empty"]
    reasons = []
    if len(rewrite) > 3 * len(source) + 120:
        reasons.append(f"runs on ({len(rewrite)} characters for {len(source)})")
    vocabulary = vocabulary or Vocabulary()
    for stated in (*facts, *_names(facts, vocabulary)):
        if fact_stated(source, stated, loc) and not fact_stated(rewrite, stated, loc):
            reasons.append(f"drops {stated.fact.id} = {stated.value!r}")
    reasons += [f"new number {n}" for n in new_numbers(source, rewrite, loc)]
    reasons += [f"new value {t!r}" for t in new_terms(source, rewrite, vocabulary, loc)]
    if loc.recognise.capitalised_names:
        reasons += [f"new name {w!r}" for w in new_capitalised(source, rewrite, loc)]
    held = set(meta_text_in(source, loc))
    reasons += [f"meta text {m!r}" for m in meta_text_in(rewrite, loc) if m not in held]
    denied = set(markers_in(source, loc.recognise.retractions))
    reasons += [
        f"retraction {m!r}"
        for m in markers_in(rewrite, loc.recognise.retractions)
        if m not in denied
    ]
    return list(dict.fromkeys(reasons))


def meta_text_in(text: str, loc: LocaleData) -> list[str]:
    """The locale's meta markers ``text`` holds (folded), each matched as a whole word
    where it starts or ends with a Latin letter ("persona" is not in "personality")."""
    folded = fold(text).replace("’", "'")
    anyone, each = _meta_patterns(loc)
    if anyone.search(folded) is None:  # the usual case: one search instead of one per marker
        return []
    return [marker for marker, pattern in each if pattern.search(folded) is not None]


@per_locale
def _meta_patterns(loc: LocaleData) -> tuple[re.Pattern[str], list[tuple[str, re.Pattern[str]]]]:
    """The locale's meta markers compiled once: all of them (a text matches it when it
    matches one of them), and each with its folded form."""
    markers = [fold(m) for m in loc.recognise.meta_markers]
    each = [(m, re.compile(guarded([m]))) for m in markers]
    return re.compile(guarded(markers)), each


def markers_in(text: str, markers: Iterable[str]) -> list[str]:
    """The ``markers`` ``text`` holds (folded), matched as :func:`meta_text_in` does."""
    folded = fold(text).replace("’", "'")
    return [fold(m) for m in markers if re.search(guarded([fold(m)]), folded) is not None]


def _names(facts: Sequence[StatedFact], vocabulary: Vocabulary) -> list[StatedFact]:
    """The facts an entity is named by ("my {relation}": its relation), at the time said."""
    out = []
    for stated in facts:
        for attr in vocabulary.refer.get(stated.entity.kind, ()):
            fact = stated.entity.facts.get(attr)
            if fact is not None and fact.id != stated.fact.id:
                value = value_at(fact, stated.said_at)
                out.append(StatedFact(stated.entity, fact, value, stated.said_at))
    return out


def new_numbers(source: str, rewrite: str, loc: LocaleData) -> list[int]:
    """Numbers of ``rewrite`` that ``source`` does not hold (see the module docstring)."""
    nums = numerals(loc)
    held = nums.find(fold(source))
    values = {v for v, _ in held}
    digit_runs = [str(v) for v, in_words in held if not in_words]
    for hour, _ in clocks_in(source, loc):
        values |= {hour, hour % 12 or 12}
    out = []
    for value, in_words in nums.find(fold(rewrite)):
        if in_words and value <= 1:
            continue  # "one" is a pronoun as often as a number
        if value in values or any(str(value) in run for run in digit_runs):
            continue
        out.append(value)
    return list(dict.fromkeys(out))


def new_terms(source: str, rewrite: str, vocabulary: Vocabulary, loc: LocaleData) -> list[str]:
    """Known values ``rewrite`` names and ``source`` does not."""
    found = []
    if vocabulary.terms:
        tokens = words(rewrite, loc)
        for n in range(1, MAX_TERM_WORDS + 1):
            for i in range(len(tokens) - n + 1):
                term = " ".join(tokens[i : i + n])
                if term in vocabulary.terms:
                    found.append(term)
    if vocabulary.cjk_terms and CJK.search(rewrite):
        squeezed = squeeze(rewrite, loc)
        found += [t for t in vocabulary.cjk_terms if t in squeezed]
    return [t for t in dict.fromkeys(found) if not text_stated(source, t, loc)]


_CAPITALISED = re.compile(r"[A-Z][\w'’-]*")
_SENTENCE_START = re.compile(r"(?:^|[.!?:;…]|[\"“(])\s*$")


def new_capitalised(source: str, rewrite: str, loc: LocaleData) -> list[str]:
    """Capitalised words of ``rewrite``, not at a sentence start, that ``source`` lacks."""
    known = {fold(w) for w in re.findall(r"[\w'’-]+", source)}
    known |= {fold(w) for w in loc.recognise.function_words}
    out = []
    for m in _CAPITALISED.finditer(rewrite):
        word = m.group(0)
        bare = re.sub(r"['’]s$", "", word)
        if fold(word) in known or fold(bare) in known:
            continue
        if _SENTENCE_START.search(rewrite[: m.start()]):
            continue
        if m.start() > 0 and (rewrite[m.start() - 1].isalnum()):
            continue  # inside a word ("iPhone")
        out.append(word)
    return list(dict.fromkeys(out))


__all__ = [
    "Vocabulary",
    "check_rewrite",
    "markers_in",
    "meta_text_in",
    "new_capitalised",
    "new_numbers",
    "new_terms",
    "vocabulary_for",
]
