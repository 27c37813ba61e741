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
"""

from __future__ import annotations

import heapq
import math
from collections import Counter
from collections.abc import Sequence

from memsim.bench._memory import DEFAULT_K, MEMORY, Memory
from memsim.bench._tokenize import tokenize
from memsim.bench._types import Labels, Message, Query

K1 = 1.2
B = 0.75
TEXT_CACHE = 1 << 18
"""Texts whose term frequencies are kept across trajectories (forgotten past that)."""


def bm25_idf(n_docs: int, df: int) -> float:
    return math.log(1.0 + (n_docs - df + 0.5) / (df + 0.5))


@MEMORY.register("bm25")
class BM25Memory(Memory):
    """Top k messages by BM25 score against the question.

    Each distinct text of the run is tokenised once into its term frequencies and
    postings (term -> texts); a write records which text the message holds. A read
    counts the messages of each text, takes each query term's texts among them and
    scores each text once, with the per-message arithmetic, so every message gets
    exactly the score a per-message index would give it.
    """

    name = "bm25"

    def __init__(self, k: int = DEFAULT_K, k1: float = K1, b: float = B) -> None:
        super().__init__(k)
        self.k1, self.b = k1, b
        self._forget_texts()
        self._texts: list[int] = []
        """The text id of each message of the trajectory, in order."""

    def _forget_texts(self) -> None:
        self._text_id: dict[str, int] = {}
        self._tf: list[Counter[str]] = []
        self._length: list[int] = []
        self._postings: dict[str, set[int]] = {}

    def reset(self, labels: Labels) -> None:
        super().reset(labels)
        self._texts = []
        if len(self._tf) >= TEXT_CACHE:  # only between trajectories: ids stay valid
            self._forget_texts()

    def observe(self, message: Message) -> None:
        self.observe_all((message,))

    def observe_all(self, messages: Sequence[Message]) -> None:
        text_id, texts = self._text_id, self._texts
        for message in messages:
            tid = text_id.get(message.text)
            texts.append(self._add_text(message.text) if tid is None else tid)
        self.messages.extend(messages)

    def _add_text(self, text: str) -> int:
        tid = self._text_id[text] = len(self._tf)
        tokens = tokenize(text)
        tf = Counter(tokens)
        self._tf.append(tf)
        self._length.append(len(tokens))
        for term in tf:
            self._postings.setdefault(term, set()).add(tid)
        return tid

    def text_scores(self, question: str) -> dict[int, float]:
        """The BM25 score of each text of the trajectory that shares a term with the
        question (every other message scores 0)."""
        n = len(self._texts)
        out: dict[int, float] = {}
        if not n:
            return out
        count = Counter(self._texts)
        total = sum(self._length[t] * c for t, c in count.items())
        avgdl = total / n or 1.0
        k1, b = self.k1, self.b
        k1_1 = k1 + 1.0
        tfs, length, postings = self._tf, self._length, self._postings
        norms: dict[int, float] = {}  # a text's length norm, the same for every term
        for term in dict.fromkeys(tokenize(question)):
            tids = postings.get(term)
            if not tids:
                continue
            here = count.keys() & tids
            if not here:
                continue
            idf = bm25_idf(n, sum(count[t] for t in here))
            for t in here:
                tf = tfs[t][term]
                norm = norms.get(t)
                if norm is None:
                    norm = norms[t] = k1 * (1.0 - b + b * length[t] / avgdl)
                out[t] = out.get(t, 0.0) + idf * tf * k1_1 / (tf + norm)
        return out

    def scores(self, question: str) -> list[float]:
        """The BM25 score of every message seen so far, in order."""
        by_text = self.text_scores(question)
        return [by_text.get(t, 0.0) for t in self._texts]

    def retrieve(self, query: Query) -> list[Message]:
        # top_k over every message without sorting them all: the matching messages by
        # (score, recency), then the most recent non-matching ones (a score is > 0
        # exactly when the message shares a term with the question)
        by_text = self.text_scores(query.question)
        scored = [(-by_text[t], -d) for d, t in enumerate(self._texts) if t in by_text]
        order = [-d for _, d in heapq.nsmallest(self.k, scored)]
        d = len(self._texts) - 1
        while len(order) < self.k and d >= 0:
            if self._texts[d] not in by_text:
                order.append(d)
            d -= 1
        return [self.messages[i] for i in order]

    def describe(self) -> dict[str, object]:
        return {
            "name": self.name,
            "k": self.k,
            "k1": self.k1,
            "b": self.b,
            "tokens": "words + CJK bigrams",
        }
