"""Which option a free-text reply chose: ``parse_choice(reply, choices)``.

What counts as a choice, in order:

1. the whole reply is one option letter, maybe bracketed or followed by a full stop
   (``B``, ``(B)``, ``**B**``, ``B.``, full-width ``Ｂ``);
2. an explicit statement: ``answer is B``, ``Answer: B.``, ``option B``, ``I choose B``,
   ``答案是B``, ``答案：B``, ``选B``, ``选择B``, ``B选项``; letters are case-insensitive
   here (``the answer is b``);
3. the letters that stand alone in the reply (upper case only, so the article "a" is
   not read as option A);
4. the text of exactly one option (``Boston``), when no letter was found.

A reply that names two different options at the same level (``A or B``, ``答案是A和C``,
a letter that contradicts the option text beside it), or that names none, gives None:
an unparseable reply counts as a wrong answer, never as a guess.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping

_LINKS = r"(?:\s*(?:,|/|、|，|\bor\b|\band\b|&|和|或|或者|与)\s*)"


def _explicit_patterns(letters: str) -> list[re.Pattern[str]]:
    one = rf"[\(\[（【]?([{letters}])[\)\]）】]?"
    group = rf"({one}(?:{_LINKS}{one})*)"
    end = rf"(?![{letters}A-Za-z0-9])"
    en = (
        r"(?:answer|choice|option|opt)\s*(?:is|would be|will be|should be|=|:|：)?\s*"
        r"|(?:choose|chose|pick|picked|select|selected|go with)\s*(?:option\s*)?"
    )
    zh = r"(?:答案|选项|正确选项|正确答案)\s*(?:是|为|应该是|应为|：|:)?\s*|(?:选择|选)\s*"
    return [
        re.compile(rf"(?:{en}){group}{end}", re.IGNORECASE),
        re.compile(rf"(?:{zh}){group}{end}", re.IGNORECASE),
        re.compile(rf"(?<![A-Za-z]){group}\s*(?:选项|项)", re.IGNORECASE),
    ]


def _normalise(text: str) -> str:
    return unicodedata.normalize("NFKC", text).strip()


def _plain(text: str) -> str:
    """Case- and punctuation-blind form, for matching an option's text."""
    return re.sub(r"[\W_]+", "", text.casefold())


def parse_choice(reply: str | None, choices: Mapping[str, str]) -> str | None:
    """The letter of the option ``reply`` chose, or None when it chose none or several.

    ``choices`` maps letters (``A``..``D``, or any single characters) to option texts.
    """
    if not reply or not choices:
        return None
    keys = {k.upper(): k for k in choices if len(k) == 1}
    if not keys:
        return None
    text = _normalise(reply)
    letters = re.escape("".join(sorted(keys)))

    bare = re.fullmatch(rf"[\s\*\"'`\(\[（【]*([{letters}])[\s\*\"'`\)\]）】\.。:：]*", text, re.I)
    if bare:
        return keys[bare[1].upper()]

    found: set[str] = set()
    for pattern in _explicit_patterns(letters):
        for match in pattern.finditer(text):
            found.update(c.upper() for c in re.findall(rf"[{letters}]", match[1], re.I))
    if found:
        return keys[found.pop()] if len(found) == 1 else None

    standalone = set(re.findall(rf"(?<![A-Za-z0-9])([{letters}])(?![A-Za-z0-9])", text))
    by_text = _by_option_text(text, choices)
    if standalone:
        if len(standalone) > 1:
            return None
        letter = keys[standalone.pop()]
        return letter if by_text in (None, letter) else None
    return by_text


def _by_option_text(text: str, choices: Mapping[str, str]) -> str | None:
    plain = _plain(text)
    if not plain:
        return None
    options = {k: _plain(v) for k, v in choices.items() if _plain(v)}
    exact = [k for k, v in options.items() if v == plain]
    if len(exact) == 1:
        return exact[0]
    inside = [k for k, v in options.items() if v in plain]
    # "162" contains "62": keep only options that are not part of another one found
    inside = [k for k in inside if not any(o != k and options[k] in options[o] for o in inside)]
    return inside[0] if len(inside) == 1 else None
