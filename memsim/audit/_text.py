"""Small text measures shared by the checks: the form in which two options are the
same, character n-gram similarity, a bounded edit distance, and format features."""

from __future__ import annotations

import math
import re
import unicodedata
from collections import Counter
from functools import lru_cache

from memsim.verbalize import CJK

TERMINAL = ".。!！?？…"


def fold(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold()


@lru_cache(maxsize=1 << 16)
def squash(text: str) -> str:
    """The form in which two options count as the same: NFKC, case-folded, with
    spacing and punctuation removed ("1,000 people" = "1000 People."); identifiers
    (no inner space, with an "@" or 4+ digits) keep their punctuation, since
    "li_ming@x.com" and "liming@x.com" are two addresses. (Memoised: the prior and
    distractor checks squash the same option texts again and again.)"""
    folded = fold(text).strip()
    if not _SPACE.search(folded) and ("@" in folded or len(_DIGIT.findall(folded)) >= 4):
        return folded.rstrip(".。")
    return _PUNCTUATION.sub("", folded)


_SPACE, _DIGIT, _PUNCTUATION = re.compile(r"\s"), re.compile(r"\d"), re.compile(r"[\W_]+")
_SPACES = re.compile(r"\s+")


def bigrams(text: str) -> Counter[str]:
    """Character bigrams of the folded text, spacing collapsed and padded with a space
    at each end (so one-character options still have two bigrams)."""
    t = " " + _SPACES.sub(" ", fold(text)).strip() + " "
    return Counter(t[i : i + 2] for i in range(len(t) - 1))


def cosine(a: Counter[str], b: Counter[str]) -> float:
    if not a or not b:
        return 0.0
    dot = sum(v * b.get(k, 0) for k, v in a.items())
    return dot / math.sqrt(sum(v * v for v in a.values()) * sum(v * v for v in b.values()))


def within_one_edit(a: str, b: str) -> bool:
    """Whether a and b differ by at most one insertion, deletion or substitution."""
    if a == b:
        return True
    if abs(len(a) - len(b)) > 1:
        return False
    if len(a) > len(b):
        a, b = b, a
    i = next((k for k, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), len(a))
    return a[i + (len(a) == len(b)) :] == b[i + 1 :]


def format_features(text: str) -> dict[str, bool]:
    """Surface features of an option that say nothing about its meaning; one that the
    answer alone has (or alone lacks) is a cue."""
    return {
        "leading whitespace": text[:1].isspace(),
        "trailing whitespace": text[-1:].isspace(),
        "double space": "  " in text.strip(),
        "terminal punctuation": text.rstrip()[-1:] in TERMINAL,
        "capitalised": text.strip()[:1].isupper(),
        "full-width characters": any("\uff01" <= c <= "\uff5e" for c in text),
    }


WHITESPACE_FEATURES = ("leading whitespace", "trailing whitespace", "double space")


def singled_out(options: list[str]) -> list[tuple[int, str]]:
    """(option index, feature) for every feature on which one option differs from
    the three others, which agree."""
    return list(_singled_out(tuple(options)))


@lru_cache(maxsize=4096)
def _singled_out(options: tuple[str, ...]) -> tuple[tuple[int, str], ...]:
    # remembered: two checks ask it of every question's options. A feature is a bool,
    # so among three or more options one differs from the others, which agree, exactly
    # when it alone is True or it alone is False
    if len(options) <= 2:
        return ()
    feats = [format_features(o) for o in options]
    out = []
    for name in feats[0]:
        values = [f[name] for f in feats]
        true = values.count(True)
        if true == 1:
            out.append((values.index(True), name))
        elif true == len(values) - 1:
            out.append((values.index(False), name))
    return tuple(out)


__all__ = [
    "CJK",
    "WHITESPACE_FEATURES",
    "bigrams",
    "cosine",
    "fold",
    "format_features",
    "singled_out",
    "squash",
    "within_one_edit",
]
