"""The lexical reader's knowledge of a language, read from
``memsim/bench/prompts/reading.<code>.yaml`` (beside the llm reader's prompts): month and
weekday names, the people of a user's life, the order of degrees, how a change or someone
else's words are framed. A locale's words live in its file, not in code.

English is the language the rules read; every language's file adds its option markers
("never told", "the same") and its hybrid joins, which the reader recognises in any
question.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from memsim._yaml import safe_load

FOLDER = Path(__file__).parent / "prompts"
LANGUAGES = ("en", "zh")


@dataclass(frozen=True)
class Lexicon:
    months: tuple[str, ...] = ()
    weekdays: tuple[str, ...] = ()
    relations: tuple[str, ...] = ()
    relation_modifiers: tuple[str, ...] = ()
    degrees: dict[str, int] = field(default_factory=dict)
    hours: dict[str, float] = field(default_factory=dict)
    seasons: dict[str, tuple[int, ...]] = field(default_factory=dict)
    others_speaking: tuple[str, ...] = ()
    change_markers: tuple[str, ...] = ()
    comparisons: dict[str, tuple[str, ...]] = field(default_factory=dict)
    margin: str = ""
    descriptions: tuple[str, ...] = ()
    never_told: tuple[str, ...] = ()
    same: tuple[str, ...] = ()
    question_join: str = ""
    answer_join: str = "; "
    stop_words: frozenset[str] = frozenset()


@lru_cache(maxsize=4)
def lexicon(code: str, folder: Path = FOLDER) -> Lexicon:
    """The reader's words for language ``code`` (an error names the file and key)."""
    path = folder / f"reading.{code}.yaml"
    data = safe_load(path.read_bytes(), str(path))
    if not isinstance(data, dict):
        raise ValueError(f"{path}: expected a mapping")
    unknown = set(data) - set(Lexicon.__dataclass_fields__)
    if unknown:
        raise ValueError(f"{path}: unknown keys {sorted(unknown)}")
    for words, how in data.get("comparisons", {}).items():
        if not how or how[0] not in ("higher", "lower"):
            raise ValueError(f"{path}: comparisons.{words}: expected [higher|lower, what, ...]")
    return Lexicon(
        months=tuple(str(m).lower() for m in data.get("months", ())),
        weekdays=tuple(str(w).lower() for w in data.get("weekdays", ())),
        relations=tuple(data.get("relations", ())),
        relation_modifiers=tuple(data.get("relation_modifiers", ())),
        degrees={str(k).lower(): int(v) for k, v in data.get("degrees", {}).items()},
        hours={str(k): float(v) for k, v in data.get("hours", {}).items()},
        seasons={str(k): tuple(v) for k, v in data.get("seasons", {}).items()},
        others_speaking=tuple(data.get("others_speaking", ())),
        change_markers=tuple(data.get("change_markers", ())),
        comparisons={
            str(k).lower(): tuple(str(x) for x in v) for k, v in data.get("comparisons", {}).items()
        },
        margin=str(data.get("margin", "")),
        descriptions=tuple(str(w) for w in data.get("descriptions", ())),
        never_told=tuple(data.get("never_told", ())),
        same=tuple(data.get("same", ())),
        question_join=str(data.get("question_join", "")),
        answer_join=str(data.get("answer_join", "; ")),
        stop_words=frozenset(str(w) for w in data.get("stop_words", ())),
    )


EN = lexicon("en")
"""The language the rules read."""
EVERY = tuple(lexicon(code) for code in LANGUAGES)
"""Every language's option markers and joins are recognised in any question."""
