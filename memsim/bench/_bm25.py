"""``bm25``: Okapi BM25 over the messages seen so far, top k.

The index is built incrementally, as messages arrive (a message adds a posting to its
text, a new text its term frequencies and postings; document frequencies count the
messages of each text), so the write/read split is the real one; the packaged BM25
libraries (rank-bm25, bm25s) index a whole corpus at once and would have to be
rebuilt at every read. Scoring follows Lucene's BM25 (k1 = 1.2, b = 0.75,
idf = ln(1 + (N - df + 0.5) / (df + 0.5)), never negative); each distinct query term
counts once. Tokens come from :func:`tokenize` (words for
English, characters and bigrams for Chinese). Messages that share no term with the
question score 0 and only fill the top k when fewer than k messages match; ties go to
the more recent message.

A read works on arrays: the trajectory's distinct texts (sorted ids) and their message
counts, each query term's postings (text ids ascending, with the term's frequency in
each) searched for those texts, and the per-text arithmetic done elementwise in the
same order of operations as the per-message formula, so every score is the same float
(``tests/bench/test_bm25.py`` holds it against the formula, message by message).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from typing import cast

import numpy as np
from numpy.typing import NDArray

from memsim.bench._memory import DEFAULT_K, MEMORY, Memory
from memsim.bench._tokenize import tokenize
from memsim.bench._types import Labels, Message, Query

K1 = 1.2
B = 0.75
TEXT_CACHE = 1 << 18
"""Texts whose term frequencies are kept across trajectories (forgotten past that)."""


def bm25_idf(n_docs: int, df: int) -> float:
    return math.log(1.0 + (n_docs - df + 0.5) / (df + 0.5))


class _Postings:
    """A term's texts (ids ascending, as they were added) and its frequency in each, in
    arrays that double when full."""

    __slots__ = ("n", "tfs", "tids")

    def __init__(self) -> None:
        self.n = 0
        self.tids = np.zeros(4, dtype=np.int64)
        self.tfs = np.zeros(4, dtype=np.int64)

    def add(self, tid: int, tf: int) -> None:
        if self.n == len(self.tids):
            self.tids = np.concatenate((self.tids, np.zeros(self.n, dtype=np.int64)))
            self.tfs = np.concatenate((self.tfs, np.zeros(self.n, dtype=np.int64)))
        self.tids[self.n] = tid
        self.tfs[self.n] = tf
        self.n += 1


@MEMORY.register("bm25")
class BM25Memory(Memory):
    """Top k messages by BM25 score against the question.

    Each distinct text of the run is tokenised once into its length and postings
    (term -> texts, with the term's frequency); a write records which text the
    message holds. A read counts the messages of each text, finds each query term's
    texts among them and scores each text once, with the per-message arithmetic, so
    every message gets exactly the score a per-message index would give it.
    """

    name = "bm25"

    def __init__(self, k: int = DEFAULT_K, k1: float = K1, b: float = B) -> None:
        super().__init__(k)
        self.k1, self.b = k1, b
        self._forget_texts()
        self._texts: list[int] = []
        """The text id of each message of the trajectory, in order."""

    def _forget_texts(self) -> None:
        self._text_id: dict[str, int] = {}  # text -> its id, 0, 1, ... in order
        self._lengths = np.zeros(1024, dtype=np.int64)
        """Each text id's length in tokens, in an array that doubles when full: a read
        gathers its texts' lengths from it (converting a list of the run's lengths on
        every read took 2.6% of make bench's CPU)."""
        self._postings: dict[str, _Postings] = {}

    def reset(self, labels: Labels) -> None:
        super().reset(labels)
        self._texts = []
        if len(self._text_id) >= TEXT_CACHE:  # only between trajectories: ids stay valid
            self._forget_texts()

    def observe(self, message: Message) -> None:
        self.observe_all((message,))

    def observe_all(self, messages: Sequence[Message]) -> None:
        text_id = self._text_id
        texts = [m.text for m in messages]
        tids = list(map(text_id.get, texts))  # most texts are known: looked up in C
        if None in tids:  # new texts get their ids in order, as one write each would
            for i, tid in enumerate(tids):
                if tid is None:
                    known = text_id.get(texts[i])  # the same new text twice
                    tids[i] = self._add_text(texts[i]) if known is None else known
        self._texts.extend(cast("list[int]", tids))  # no None is left
        self.messages.extend(messages)

    def _add_text(self, text: str) -> int:
        tid = self._text_id[text] = len(self._text_id)
        tokens = tokenize(text)
        if tid == len(self._lengths):
            self._lengths = np.concatenate((self._lengths, np.zeros(tid, dtype=np.int64)))
        self._lengths[tid] = len(tokens)
        postings = self._postings
        for term, tf in Counter(tokens).items():
            found = postings.get(term)
            if found is None:
                found = postings[term] = _Postings()
            found.add(tid, tf)
        return tid

    def _scored(
        self, question: str
    ) -> tuple[NDArray[np.int64], NDArray[np.intp], NDArray[np.float64], NDArray[np.bool_]]:
        """The trajectory's distinct text ids (ascending), each message's index among
        them, each text's score and whether it shares a term with the question."""
        texts = np.asarray(self._texts, dtype=np.int64)
        uniq, inverse, count = np.unique(texts, return_inverse=True, return_counts=True)
        scores = np.zeros(len(uniq))
        matched = np.zeros(len(uniq), dtype=np.bool_)
        n = len(texts)
        if not n:
            return uniq, inverse, scores, matched
        length = self._lengths[uniq]
        avgdl = int(np.dot(length, count)) / n or 1.0
        k1, b = self.k1, self.b
        k1_1 = k1 + 1.0
        norm = k1 * (1.0 - b + b * length / avgdl)  # each text's, the same for every term
        postings = self._postings
        for term in dict.fromkeys(tokenize(question)):
            found = postings.get(term)
            if found is None:
                continue
            tids = found.tids[: found.n]
            at = np.minimum(np.searchsorted(tids, uniq), found.n - 1)
            here = np.flatnonzero(tids[at] == uniq)  # positions in uniq holding the term
            if not len(here):
                continue
            idf = bm25_idf(n, int(count[here].sum()))
            tf = found.tfs[at[here]]
            scores[here] += idf * tf * k1_1 / (tf + norm[here])
            matched[here] = True
        return uniq, inverse, scores, matched

    def text_scores(self, question: str) -> dict[int, float]:
        """The BM25 score of each text of the trajectory that shares a term with the
        question (every other message scores 0)."""
        uniq, _, scores, matched = self._scored(question)
        return dict(zip(uniq[matched].tolist(), scores[matched].tolist(), strict=True))

    def scores(self, question: str) -> list[float]:
        """The BM25 score of every message seen so far, in order."""
        _, inverse, scores, _ = self._scored(question)
        out: list[float] = scores[inverse].tolist()
        return out

    def retrieve(self, query: Query) -> list[Message]:
        # top_k over every message without sorting them all: the matching messages by
        # (score, recency), then the most recent non-matching ones (a score is > 0
        # exactly when the message shares a term with the question)
        _, inverse, scores, matched = self._scored(query.question)
        hit = matched[inverse]
        at = np.flatnonzero(hit)
        best = at[np.lexsort((-at, -scores[inverse[at]]))[: self.k]]
        order = best.tolist()
        if len(order) < self.k:
            rest = np.flatnonzero(~hit)[::-1][: self.k - len(order)]
            order += rest.tolist()
        return [self.messages[i] for i in order]

    def describe(self) -> dict[str, object]:
        return {
            "name": self.name,
            "k": self.k,
            "k1": self.k1,
            "b": self.b,
            "tokens": "words + CJK bigrams",
        }
