"""Per-locale language data: grammar forms, calendar words, chit-chat, question wording.

A locale is data, not code: ``locales/<code>.yaml`` next to this file (or any file
passed to :func:`load_locale`) maps key for key onto :class:`LocaleData`.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import yaml
from pydantic import BaseModel, ConfigDict, Field

LOCALES_DIR = Path(__file__).parent / "locales"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Forms(_Strict):
    """Words that agree with the subject: the user ("I") or someone else."""

    whose: str
    """Possessive; ``{who}`` in it is replaced ("{who}'s" -> "my mother's")."""
    be: str
    have: str
    s: str
    """Verb ending: "" for "I work", "s" for "she works"."""


class Calendar(_Strict):
    weekdays: list[str] = Field(min_length=7, max_length=7)
    """Monday first."""
    weekdays_short: list[str] = Field(min_length=7, max_length=7)
    months: list[str] = Field(min_length=12, max_length=12)
    message_time: str
    """Message and question timestamps; tokens {year} {month:02d} {day:02d} {weekday_short}
    {hour:02d} {minute:02d}."""
    month_day: str
    date: str
    clock: str
    """Time of day; tokens {hour12} {minute:02d} {ampm} {hour:02d}."""
    am: str
    pm: str
    tomorrow: str
    this_weekday: str
    next_weekday: str
    on_date: str


class Questions(_Strict):
    """Question wording per QA kind; ``{who}``, ``{whose}``, ``{label}`` and kind-specific
    tokens are filled by the QA kinds."""

    simple: list[str]
    conditional: list[str]
    comparative: list[str]
    comparative_options: dict[str, str]
    aggregative: list[str]
    aggregative_predicates: dict[str, str]
    post_processing: dict[str, list[str]]
    hybrid_join: str
    answer_join: str
    noisy_preface: list[str]


class Recognise(_Strict):
    """How :mod:`memsim.verify` recognises values that a message or a rewrite states.

    Date, clock and relative-day patterns use the calendar's tokens ({year} {month}
    {month_name} {day} {weekday} {hour} {hour12} {minute} {ampm}; format specs such as
    ``:02d`` are ignored); a space matches any spacing, a comma is optional. The
    calendar's own rendering templates are always recognised too, so every locale
    recognises what it renders; these lists add the variants an LLM rewrite may use.
    """

    number_words: dict[str, int] = Field(default_factory=dict)
    """Number words and their values ("seven": 7, "七": 7)."""
    number_multipliers: dict[str, int] = Field(default_factory=dict)
    """Words that multiply what precedes them ("hundred": 100, "百": 100)."""
    number_separators: list[str] = Field(default_factory=list)
    """What may stand between the words of one number ("-", " ", " and ")."""
    ordinal_suffix: str = ""
    """A regex allowed right after a day number ("st|nd|rd|th")."""
    months_short: list[str] = Field(default_factory=list)
    month_day: list[str] = Field(default_factory=list)
    date: list[str] = Field(default_factory=list)
    clock: list[str] = Field(default_factory=list)
    am: list[str] = Field(default_factory=list)
    pm: list[str] = Field(default_factory=list)
    half_hour: list[str] = Field(default_factory=list)
    """Words for "and a half hour" in a clock pattern's {half} token ("半")."""
    tomorrow: list[str] = Field(default_factory=list)
    this_weekday: list[str] = Field(default_factory=list)
    next_weekday: list[str] = Field(default_factory=list)
    capitalised_names: bool = False
    """Whether names are capitalised words (English): a rewrite that brings in a
    capitalised word the source does not have is rejected as a possible new name."""
    function_words: list[str] = Field(default_factory=list)
    """Capitalised words that are never names ("I", "I'm")."""
    meta_markers: list[str] = Field(default_factory=list)
    """Phrases that betray prompt leakage or meta-text in a rewrite ("rewritten")."""


class LocaleData(_Strict):
    code: str
    self_forms: Forms
    other_forms: Forms
    calendar: Calendar
    seasons: dict[str, list[int]]
    """Season name -> months (1-12) it covers."""
    two_facts: list[str]
    """How two facts become one message: {first} and {second}."""
    chit_chat: list[str] = Field(min_length=20)
    questions: Questions
    plural: str = "{label}s"
    """A group's label in the plural ("relatives")."""
    either: str = "{a} or {b}"
    both: str = "{a} and {b}"
    home: str = "home"
    place: str = "{spot}, {city}"
    """A message's place: where the user is (home, the employer, an event) and the city."""
    vowels: str = "aeiou"
    """Values starting with these letters take ``{a}`` = "an" (English only)."""
    recognise: Recognise = Field(default_factory=Recognise)


@lru_cache(maxsize=8)
def load_locale(code_or_path: str) -> LocaleData:
    path = Path(code_or_path)
    if not path.suffix:
        path = LOCALES_DIR / f"{code_or_path}.yaml"
    if not path.exists():
        known = ", ".join(sorted(p.stem for p in LOCALES_DIR.glob("*.yaml")))
        raise ValueError(f"no locale data for '{code_or_path}' (bundled: {known})")
    return LocaleData.model_validate(yaml.safe_load(path.read_text(encoding="utf-8")))
