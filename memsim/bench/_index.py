"""Which messages of a memory a reading rule needs, found without testing every one.

The reader's rules ask, again and again for one memory, which of its messages mention
an entity (:func:`memsim.bench._values.mentions`), quote someone else
(:func:`~memsim.bench._values.hearsay`), hold an option's words or share a word with
the question. A long memory (every message of a 100x-noise trajectory: full_context,
noise_only) holds over a thousand messages, and few of them are the ones asked for.
:class:`TextIndex` joins the memory's texts once, so a name or a word is found by
scanning one string (in C) and only the messages holding it are tested; every answer
is exactly the list the per-message test gives, in order (``tests/bench/test_index.py``
compares them on real noisy memories).

Why the scans are exact: ``mentions(text, name)`` is ``name in text.lower()``; for "my
aunt" it is ``"aunt" in people(text)``, and a person :func:`people` finds is a
lower-cased match of the text, so it occurs in ``text.lower()``. In ASCII text a token
(:func:`~memsim.bench._tokenize.tokenize`: NFKC, casefolded) is a run of
``text.lower()``. So the scan returns a superset, and each message it returns is then
tested as before. A memory whose texts hold the separator (``"\\x00"``) is tested
message by message; so are token tests in a memory that is not ASCII.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from itertools import chain, compress
from operator import attrgetter

from memsim.bench._lexicon import EN
from memsim.bench._tokenize import token_set
from memsim.bench._types import Message
from memsim.bench._values import PERSON_RE, about_user, hearsay, people

SEP = "\x00"
_OTHERS_RE = re.compile(rf"{SEP}(?:{'|'.join(map(re.escape, EN.others_speaking))})\b", re.I)
""":func:`hearsay`'s test after each separator of ``SEP + SEP.join(texts)`` (a literal
first character: the search skips to each separator at C speed)."""
_KEPT = 4
"""Indexes remembered, by the identity of their memory: a question's rules read the
same few memories (the whole memory, its facts) over and over."""
_TEXT = attrgetter("text")


class TextIndex:
    """A memory's texts, each after a :data:`SEP`, in one string (and lower-cased in
    another), with what was found in them remembered."""

    def __init__(self, memory: Sequence[Message]) -> None:
        self.memory = memory
        self.texts: list[str] = list(map(_TEXT, memory))
        self.blob = SEP + SEP.join(self.texts)
        self.exact = self.blob.count(SEP) == len(self.texts)
        """False when a text holds the separator: then every search tests each text."""
        self.ascii = self.exact and self.blob.isascii()
        """Whether the token tests may scan (see the module docstring)."""
        self._low: str | None = None
        self._found: dict[str, list[int]] = {}
        self._others: list[int] | None = None

    def others(self) -> list[int]:
        """``[i for i, m in enumerate(memory) if hearsay(m.text)]``, found by one
        search of the joined texts (as written: the test ignores case itself)."""
        if self._others is None:
            if self.exact:  # a match starts at its text's separator
                self._others = _numbered(
                    self.blob, (f.start() for f in _OTHERS_RE.finditer(self.blob))
                )
            else:
                self._others = [i for i, text in enumerate(self.texts) if hearsay(text)]
        return self._others

    def containing(self, needle: str) -> list[int]:
        """The positions of the messages whose lower-cased text contains ``needle``,
        ascending (``needle`` is compared as given: lower-case it first)."""
        if not needle or SEP in needle or not self.exact:
            return [i for i, text in enumerate(self.texts) if needle in text.lower()]
        if self._low is None:  # ASCII lower-cases letter by letter
            if self.blob.isascii():
                self._low = self.blob.lower()
            else:
                self._low = SEP + SEP.join(map(str.lower, self.texts))
        blob = self._low
        out: list[int] = []
        find, count = blob.find, blob.count
        pos, before, seps = find(needle), 0, 0
        while pos != -1:
            seps += count(SEP, before, pos)  # text i follows the (i + 1)-th separator
            out.append(seps - 1)
            before = find(SEP, pos)
            if before == -1:
                break
            pos = find(needle, before)
        return out

    def holding(self, tokens: frozenset[str]) -> list[int]:
        """``[i for i, m in enumerate(memory) if tokens <= token_set(m.text)]``: in an
        ASCII memory a token is a run of a lower-cased text, so only the texts holding
        the longest one are tested."""
        if not tokens:
            return list(range(len(self.texts)))
        texts = self.texts
        if self.ascii:
            return [
                i for i in self.containing(max(tokens, key=len)) if tokens <= token_set(texts[i])
            ]
        return [i for i, text in enumerate(texts) if tokens <= token_set(text)]

    def sharing(self, tokens: frozenset[str]) -> list[int]:
        """``[i for i, m in enumerate(memory) if not tokens.isdisjoint(token_set(m.text))]``
        (in an ASCII memory only the texts holding one of them as a string are tested)."""
        texts = self.texts
        if self.ascii:
            found: set[int] = set()
            for token in tokens:
                found.update(self.containing(token))
            return [i for i in sorted(found) if not tokens.isdisjoint(token_set(texts[i]))]
        return [i for i, text in enumerate(texts) if not tokens.isdisjoint(token_set(text))]

    def mentioning(self, entity: str) -> list[int]:
        """``[i for i, m in enumerate(memory) if mentions(m.text, entity)]``, remembered."""
        found = self._found.get(entity)
        if found is None:
            found = self._found[entity] = self._mentioning(entity)
        return found

    def _mentioning(self, entity: str) -> list[int]:
        low = entity.strip().lower()
        if low in ("i", "me", "myself"):
            return list(compress(range(len(self.texts)), map(about_user, self.texts)))
        person = PERSON_RE.fullmatch(low)
        if person is not None:
            who = person.group(1).lower()
            return [i for i in self.containing(who) if who in people(self.texts[i])]
        name = low[4:] if low.startswith("the ") else low
        if not name:
            return []
        return self.containing(name)


def _numbered(blob: str, positions: Iterable[int]) -> list[int]:
    """The text of ``SEP + SEP.join(texts)`` each ascending position is in (a
    separator belongs to the text after it), by counting separators as it goes."""
    out: list[int] = []
    before, seps = 0, 0
    for pos in positions:
        seps += blob.count(SEP, before, pos + 1)
        before = pos + 1
        out.append(seps - 1)
    return out


_indexes: dict[int, tuple[Sequence[Message], TextIndex]] = {}


def index_of(memory: Sequence[Message]) -> TextIndex:
    """The index of ``memory``, made on first use and, for a tuple, kept while it is
    among the last few memories asked about (the tuple itself is kept with it, so its
    id stays its own; a list may change, so its index is made anew)."""
    if not isinstance(memory, tuple):
        return TextIndex(memory)
    kept = _indexes.get(id(memory))
    if kept is not None and kept[0] is memory:
        return kept[1]
    if len(_indexes) >= _KEPT:
        del _indexes[next(iter(_indexes))]
    made = TextIndex(memory)
    _indexes[id(memory)] = (memory, made)
    return made


def facts_of(memory: tuple[Message, ...]) -> tuple[Message, ...]:
    """``tuple(m for m in memory if not hearsay(m.text))``: what the user says of their
    own life (``memory`` itself when nobody else is quoted)."""
    others = index_of(memory).others()
    if not others:
        return memory
    # the runs between the quoted messages, joined by slices (a 100x memory is long)
    starts, stops = [0, *(i + 1 for i in others)], [*others, len(memory)]
    return tuple(chain.from_iterable(memory[a:b] for a, b in zip(starts, stops, strict=True)))


def mentioning(memory: Sequence[Message], entity: str) -> list[int]:
    """``[i for i, m in enumerate(memory) if mentions(m.text, entity)]``."""
    return index_of(memory).mentioning(entity)
