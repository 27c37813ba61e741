"""bm25's array scoring gives every message exactly the float of the BM25 formula
computed message by message, and the ranking that formula gives.

Memories are the session dataset's trajectories infused with the English noise pool
(as ``memsim bench`` makes them) at 1x and 10x, and a few at 50x; one mechanism serves them all, as
in a run (its texts and postings carry over between trajectories)."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from memsim.bench import NoisePool, detect_format, infuse, open_source
from memsim.bench._bm25 import K1, B, BM25Memory
from memsim.bench._tokenize import tokenize
from memsim.bench._types import Labels, Message, Query


def formula(messages: tuple[Message, ...], question: str) -> list[float]:
    """Okapi BM25 (Lucene's idf) of each message, from its definition: N messages,
    df the messages holding the term, each distinct query term once, in order."""
    tokens = [tokenize(m.text) for m in messages]
    n = len(messages)
    avgdl = sum(len(t) for t in tokens) / n or 1.0
    out = []
    for doc in tokens:
        score = 0.0
        for term in dict.fromkeys(tokenize(question)):
            tf = doc.count(term)
            if not tf:
                continue
            df = sum(1 for d in tokens if term in d)
            idf = math.log(1.0 + (n - df + 0.5) / (df + 0.5))
            score += idf * tf * (K1 + 1.0) / (tf + K1 * (1.0 - B + B * len(doc) / avgdl))
        out.append(score)
    return out


def ranking(scores: list[float], k: int) -> list[int]:
    """Matching messages by score, ties to the later; then the latest others."""
    hits = sorted((i for i, s in enumerate(scores) if s > 0), key=lambda i: (-scores[i], -i))
    rest = [i for i in reversed(range(len(scores))) if scores[i] == 0]
    return (hits + rest)[:k]


def test_scores_and_ranking_are_the_formulas(dataset_dir: Path, en_pool: NoisePool) -> None:
    source = open_source(dataset_dir)
    fmt = detect_format(source.sample_times())
    everyone = list(range(len(en_pool.entities)))
    memory = BM25Memory(k=10)
    checked = 0
    for index, raw in source.items():
        for level in (1, 10, 50) if index < 8 else (1, 10):  # 50x: a few (the formula is slow)
            rng = np.random.default_rng(index * 1000 + level)
            item = infuse(raw, level, fmt, en_pool, everyone, rng)
            memory.reset(Labels(frozenset(), frozenset()))
            memory.observe_all(item.messages)
            for question in (raw.qa.question, "my my aunt", "nothing-shared-here"):
                expected = formula(item.messages, question)
                assert memory.scores(question) == expected  # the same floats
                got = [m.mid for m in memory.retrieve(Query(question, ""))]
                assert got == ranking(expected, 10)
                checked += 1
    assert checked >= 3 * (2 * 40 + 8)
