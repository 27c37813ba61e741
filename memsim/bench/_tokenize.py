"""Word tokens for lexical retrieval and the lexical reader, for English and Chinese.

Text is NFKC-normalised (full-width letters and digits become ASCII) and casefolded.
Runs of letters, digits and ``_`` become one token each (``Boston``, ``62``,
``stephanie_chambers65``). Runs of CJK characters (Han, kana, Hangul) become their
single characters plus their overlapping character bigrams: ``我妈妈`` gives ``我``,
``妈``, ``妈``, ``我妈``, ``妈妈``. Punctuation separates tokens and is dropped.

Why bigrams rather than a dictionary segmenter such as jieba: MemDaily's facts are
mostly names, places, e-mail addresses and short values that a dictionary does not
hold (a person's name is split into single characters by jieba), while overlapping
bigrams match any shared two-character sequence whatever the dictionary; they are the
usual choice of CJK search engines (Lucene's CJK analyzer) and need no data files.
Single characters are kept beside the bigrams so that a one-character word
(``猫``) still matches.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

_CJK = (
    "\u3040-\u30ff"  # hiragana, katakana
    "\u3400-\u4dbf"  # CJK extension A
    "\u4e00-\u9fff"  # CJK unified ideographs
    "\uac00-\ud7af"  # hangul syllables
    "\uf900-\ufaff"  # CJK compatibility ideographs
)
_TOKEN_RE = re.compile(rf"[{_CJK}]+|[^\W{_CJK}]+")
_CJK_RE = re.compile(rf"[{_CJK}]")


@lru_cache(maxsize=1 << 18)
def tokenize(text: str) -> tuple[str, ...]:
    """The tokens of ``text`` in order (CJK runs: characters, then bigrams).

    Cached: noise messages and real messages repeat across noise levels and mechanisms.
    """
    out: list[str] = []
    for run in _TOKEN_RE.findall(unicodedata.normalize("NFKC", text).casefold()):
        if _CJK_RE.match(run):
            out.extend(run)
            out.extend(run[i : i + 2] for i in range(len(run) - 1))
        else:
            out.append(run)
    return tuple(out)


@lru_cache(maxsize=1 << 18)
def token_set(text: str) -> frozenset[str]:
    """The distinct tokens of ``text`` (:func:`tokenize`), cached: the reader tests every
    message of a long memory against each option."""
    return frozenset(tokenize(text))


def has_cjk(text: str) -> bool:
    return _CJK_RE.search(text) is not None
