"""``bm25``: Okapi BM25 over the messages seen so far, top k.

The index is built incrementally, one message per write (term frequencies, document
frequencies and postings are updated as each message arrives), so the write/read
split is the real one; the packaged BM25 libraries (rank-bm25, bm25s) index a whole
corpus at once and would have to be rebuilt at every read. Scoring follows Lucene's
BM25 (k1 = 1.2, b = 0.75, idf = ln(1 + (N - df + 0.5) / (df + 0.5)), never negative);
each distinct query term counts once. Tokens come from :func:`tokenize` (words for
English, characters and bigrams for Chinese). Messages that share no term with the
question score 0 and only fill the top k when fewer than k messages match; ties go to
the more recent message.
"""

from __future__ import annotations

import math
from collections import Counter

from memsim.bench._memory import DEFAULT_K, MEMORY, Memory, top_k
from memsim.bench._tokenize import tokenize
from memsim.bench._types import Labels, Message, Query

K1 = 1.2
B = 0.75


def bm25_idf(n_docs: int, df: int) -> float:
    return math.log(1.0 + (n_docs - df + 0.5) / (df + 0.5))


@MEMORY.register("bm25")
class BM25Memory(Memory):
    """Top k messages by BM25 score against the question."""

    name = "bm25"

    def __init__(self, k: int = DEFAULT_K, k1: float = K1, b: float = B) -> None:
        super().__init__(k)
        self.k1, self.b = k1, b
        self._tf: list[Counter[str]] = []
        self._length: list[int] = []
        self._postings: dict[str, list[int]] = {}
        self._total = 0

    def reset(self, labels: Labels) -> None:
        super().reset(labels)
        self._tf, self._length, self._postings, self._total = [], [], {}, 0

    def observe(self, message: Message) -> None:
        tokens = tokenize(message.text)
        doc = len(self.messages)
        self.messages.append(message)
        tf = Counter(tokens)
        self._tf.append(tf)
        self._length.append(len(tokens))
        self._total += len(tokens)
        for term in tf:
            self._postings.setdefault(term, []).append(doc)

    def scores(self, question: str) -> list[float]:
        """The BM25 score of every message seen so far, in order."""
        n = len(self.messages)
        out = [0.0] * n
        if not n:
            return out
        avgdl = self._total / n or 1.0
        k1, b = self.k1, self.b
        for term in dict.fromkeys(tokenize(question)):
            docs = self._postings.get(term)
            if not docs:
                continue
            idf = bm25_idf(n, len(docs))
            for d in docs:
                tf = self._tf[d][term]
                norm = k1 * (1.0 - b + b * self._length[d] / avgdl)
                out[d] += idf * tf * (k1 + 1.0) / (tf + norm)
        return out

    def retrieve(self, query: Query) -> list[Message]:
        return [self.messages[i] for i in top_k(self.scores(query.question), self.k)]

    def describe(self) -> dict[str, object]:
        return {
            "name": self.name,
            "k": self.k,
            "k1": self.k1,
            "b": self.b,
            "tokens": "words + CJK bigrams",
        }
