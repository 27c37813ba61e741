"""Numbers in text: digits ("1,000", "62") and number words ("sixty-two", "六十二").

Number words come from the locale's ``recognise`` data, so a locale adds its numerals
as data. The parser is additive with multipliers: a multiplier below 1,000 multiplies
the group before it ("two hundred", "二十"), one of 1,000 or more closes the group
("two thousand five", "三万五千"); a multiplier with nothing before it counts as one
("十二" = 12, "hundred" = 100). Mixed scales such as "一千二百万" are out of scope.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache, wraps
from typing import TypeVar

from memsim.verbalize import LocaleData

_DIGITS = r"\d{1,3}(?:,\d{3})+(?!\d)|\d+"
_DIGITS_ONLY = re.compile(_DIGITS)
"""Compiled once: a pattern left to re's own cache is recompiled whenever many
others (one per identifier, per name) have pushed it out."""
"""A digit run, with thousands commas ("1,000") taken as one number."""


def fold(text: str) -> str:
    """Unicode-normalised (NFKC: full-width digits become ASCII) and case-folded."""
    return unicodedata.normalize("NFKC", text).casefold()


def is_latin(word: str) -> bool:
    return bool(word) and all(c.isascii() for c in word)


def guarded(alternatives: list[str]) -> str:
    """An alternation of words that does not match inside a longer Latin word
    ("ten" is not found in "often"); words in other scripts need no guard."""
    ordered = sorted({fold(a) for a in alternatives if a}, key=len, reverse=True)
    guarded_parts: list[str] = []
    parts: list[str] = []
    for word in ordered:
        body = re.escape(word).replace(r"\ ", r"\s+")
        tail = r"(?![a-z])" if is_latin(word[-1:]) and word[-1:].isalpha() else ""
        head = is_latin(word[:1]) and word[:1].isalpha()
        (guarded_parts if head else parts).append(body + tail)
    if guarded_parts:
        # One lookbehind before the Latin words, not one per word: then each branch
        # starts with a literal, which re rejects at a glance, where a lookbehind per
        # branch was run at every position of the text. Same matches, in the same
        # order: a Latin word and any other cannot start at the same character.
        parts.insert(0, r"(?<![a-z])(?:" + "|".join(guarded_parts) + ")")
    return "(?:" + "|".join(parts) + ")" if parts else "(?!)"


@dataclass(frozen=True)
class Numerals:
    """The compiled number words of one locale."""

    words: dict[str, int]
    multipliers: dict[str, int]
    run: re.Pattern[str] | None
    """One number written in words (None when the locale has no number words)."""
    any_number: re.Pattern[str]
    """A digit run or a run of number words."""
    number: str
    """The regex of one number (digits or words), to embed in date and clock patterns."""
    probe: re.Pattern[str] | None = None
    """The number words as bare substrings (no guards): where it finds nothing, ``run``
    cannot match, and a plain alternation of literals is scanned fast by ``re`` where
    the guarded one is tried word by word at every position."""

    def may_have_words(self, folded: str) -> bool:
        """False only when ``folded`` holds no number word (``run`` finds nothing)."""
        return self.run is not None and (self.probe is None or bool(self.probe.search(folded)))

    def value(self, text: str) -> int | None:
        """The value of a matched number (digits or words), or None."""
        text = fold(text).strip()
        if _DIGITS_ONLY.fullmatch(text):
            return int(text.replace(",", ""))
        tokens = self._tokens.findall(text) if self.words or self.multipliers else []
        if not tokens:
            return None
        total = current = 0
        for token in tokens:
            if token in self.multipliers:
                factor = self.multipliers[token]
                if factor >= 1000:
                    total += (current or 1) * factor
                    current = 0
                else:
                    current = (current or 1) * factor
            else:
                current += self.words[token]
        return total + current

    @property
    def _tokens(self) -> re.Pattern[str]:
        return _token_regex(tuple(sorted({*self.words, *self.multipliers}, key=len, reverse=True)))

    def find(self, text: str) -> list[tuple[int, bool]]:
        """Every number in ``text`` (already folded), in order, as (value, in words)."""
        out = []
        found = self.any_number if self.may_have_words(text) else _DIGITS_ONLY
        for m in found.finditer(text):
            value = self.value(m.group(0))
            if value is not None:
                out.append((value, not m.group(0)[:1].isdigit()))
        return out


@lru_cache(maxsize=64)
def _token_regex(words: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile("|".join(re.escape(w) for w in words))


T = TypeVar("T")
R = TypeVar("R")


def per_locale(compile_for: Callable[[LocaleData], T]) -> Callable[[LocaleData], T]:
    """Memoise ``compile_for`` per locale object (LocaleData holds dicts, so it cannot be
    an lru_cache key; the object itself is kept, so its id is never reused)."""
    done: dict[int, tuple[LocaleData, T]] = {}
    # the locale asked last, and its answer: a run asks of one locale, 200,000 times in
    # make dataset's audit (every memoised text function asks for its memo)
    last: list[tuple[LocaleData, T]] = []

    @wraps(compile_for)
    def compiled(loc: LocaleData) -> T:
        if last and last[0][0] is loc:
            return last[0][1]
        hit = done.get(id(loc))
        if hit is None or hit[0] is not loc:
            hit = done[id(loc)] = (loc, compile_for(loc))
        last[:] = [hit]
        return hit[1]

    return compiled


TEXT_MEMO = 20_000
"""Texts :func:`per_text` remembers per function and locale before starting afresh: a
message is asked about again within its own item, a value across items; 20,000 texts of
a few hundred bytes keep the audit's memory flat at any scale."""


def per_text(find: Callable[[str, LocaleData], R]) -> Callable[[str, LocaleData], R]:
    """Memoise ``find(text, loc)`` per locale object and text: the audit asks the same
    of a message once per fact it states and of a value once per message. ``find``
    must return an immutable result (a tuple, a frozenset), so that no caller can
    change what is remembered."""
    memo: Callable[[LocaleData], dict[str, R]] = per_locale(lambda loc: {})

    @wraps(find)
    def found(text: str, loc: LocaleData) -> R:
        done = memo(loc)
        hit = done.get(text)
        if hit is None:
            if len(done) >= TEXT_MEMO:
                done.clear()
            hit = done[text] = find(text, loc)
        return hit

    return found


@per_locale
def numerals(loc: LocaleData) -> Numerals:
    """The locale's numerals, compiled once per locale object."""
    recognise = loc.recognise
    words = {fold(k): v for k, v in recognise.number_words.items()}
    multipliers = {fold(k): v for k, v in recognise.number_multipliers.items()}
    vocabulary = [*words, *multipliers]
    run: re.Pattern[str] | None = None
    probe: re.Pattern[str] | None = None
    if vocabulary:
        firsts = {w.split()[0] for w in vocabulary if w.split()}
        probe = re.compile("|".join(re.escape(w) for w in sorted(firsts, key=len, reverse=True)))
        word = guarded(vocabulary)
        separators = [
            re.escape(fold(s)).replace(r"\ ", r"\s+") for s in recognise.number_separators
        ]
        sep = "(?:" + "|".join(separators) + ")?" if separators else ""
        run = re.compile(f"{word}(?:{sep}{word})*")
    number = f"(?:{_DIGITS}" + (f"|{run.pattern}" if run else "") + ")"
    return Numerals(words, multipliers, run, re.compile(number), number, probe)


def numbers_in(text: str, loc: LocaleData) -> list[int]:
    """Every number ``text`` states, digits or words, in order."""
    return list(_numbers_in(text, loc))


@per_text
def _numbers_in(text: str, loc: LocaleData) -> tuple[int, ...]:
    return tuple(value for value, _ in numerals(loc).find(fold(text)))


__all__ = ["Numerals", "fold", "guarded", "numbers_in", "numerals", "per_locale", "per_text"]
