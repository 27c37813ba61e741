"""On a tiny hand-built dataset, every metric equals a value computed by hand."""

from __future__ import annotations

import hashlib
import json
import math
from pathlib import Path
from typing import Any

import pytest
from tiny import PLACE, T0, T1, record, write_tiny

from memsim.bench import BenchOptions, Labels, Message, Query, run_bench
from memsim.bench._bm25 import BM25Memory
from memsim.bench._metrics import LatencyHistogram, bootstrap_ci, ndcg_at_k, recall_at_k


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str], dict[str, Any]]:
    base = tmp_path_factory.mktemp("tiny")
    data = write_tiny(base / "dataset")
    options = BenchOptions(
        mechanisms=("no_memory", "full_context", "recent_k", "bm25", "oracle"),
        levels=(1,),
        k=2,
        seed=0,
        timings=False,
    )
    recs = run_bench(data, base / "out", options)
    assert json.loads((base / "out" / "results.json").read_text()) == recs
    return {(r["mechanism"], r["qa_type"]): r for r in recs}


def close(found: float | None, expected: float | None) -> bool:
    """Equal up to the 6 decimals results.json keeps (None only for None)."""
    if expected is None or found is None:
        return found is expected
    return abs(found - expected) <= 1e-6


def tie(question: str, *options: str) -> str:
    """The documented tie rule, computed here with hashlib: smallest blake2b of
    (question, NUL, option)."""
    return min(
        options,
        key=lambda o: hashlib.blake2b(f"{question}\x00{o}".encode(), digest_size=8).hexdigest(),
    )


def letter(t: dict[str, Any], option: str) -> str:
    return next(k for k, v in t["choices"].items() if v == option)


def lines_of(t: dict[str, Any], mids: list[int]) -> str:
    return "".join(f"[{t['messages'][i][1]}, {PLACE}] {t['messages'][i][0]}\n" for i in mids)


def test_bm25_scores_by_hand() -> None:
    memory = BM25Memory(k=2)
    memory.reset(Labels(frozenset(), frozenset()))
    for i, (text, when) in enumerate(T0["messages"]):
        memory.observe(Message(i, text, when, PLACE))
    # query terms how/old/is/my/mother; N = 3 documents of 6, 5, 4 tokens (avgdl 5)
    idf2, idf1 = math.log(1 + 1.5 / 2.5), math.log(1 + 2.5 / 1.5)
    tf6 = 2.2 / (1 + 1.2 * (0.25 + 0.75 * 6 / 5))
    tf4 = 2.2 / (1 + 1.2 * (0.25 + 0.75 * 4 / 5))
    assert memory.scores("How old is my mother?") == pytest.approx(
        [tf6 * (3 * idf2 + idf1), 0.0, tf4 * 3 * idf2]
    )
    assert [m.mid for m in memory.retrieve(Query("How old is my mother?", ""))] == [0, 2]


def test_recall_and_ndcg_by_hand(results: dict[tuple[str, str], dict[str, Any]]) -> None:
    ndcg_t1_recent = (1 / math.log2(3)) / (1 + 1 / math.log2(3))  # evidence at rank 2 of 2
    expected = {
        # mechanism: (recall@2, NDCG@2, recall@5, evidence seen, mean memory messages)
        "no_memory": (0.0, 0.0, 0.0, 0.0, 0.0),
        "recent_k": ((0 + 0.5) / 2, (0 + ndcg_t1_recent) / 2, (0 + 0.5) / 2, 0.25, 2.0),
        "bm25": (1.0, 1.0, 1.0, 1.0, 2.0),
        "oracle": (1.0, 1.0, 1.0, 1.0, 1.5),
        "full_context": (None, None, None, 1.0, 3.5),
    }
    for mech, (rk, nk, r5, seen, msgs) in expected.items():
        r = results[mech, "all"]
        assert r["k"] == 2 and r["n"] == 2 and r["n_with_evidence"] == 2
        for field, value in (
            ("recall_at_k", rk),
            ("ndcg_at_k", nk),
            ("recall_at_5", r5),
            ("evidence_seen", seen),
            ("memory_messages", msgs),
        ):
            assert close(r[field], value), (mech, field, r[field], value)
    # per kind: recent_k sees T1's evidence at rank 2 of its 2 (recall 1/min(2,2))
    assert results["recent_k", "conditional"]["recall_at_k"] == pytest.approx(0.5)
    assert close(results["recent_k", "conditional"]["ndcg_at_k"], ndcg_t1_recent)
    assert results["recent_k", "simple"]["recall_at_k"] == 0.0


def test_accuracy_and_intervals_by_hand(results: dict[tuple[str, str], dict[str, Any]]) -> None:
    # T0: recent_k sees "I turned 58" and "My father is old." -> 58 (A, wrong);
    # bm25 and oracle see "62" only -> B; full context sees 58 and 62: a tie.
    # T1: every mechanism that sees "nurse" answers B; none sees another option.
    t0_full = letter(T0, tie(T0["question"], "58", "62"))
    t0_none = letter(T0, tie(T0["question"], *T0["choices"].values()))
    t1_none = letter(T1, tie(T1["question"], *T1["choices"].values()))
    correct = {
        "recent_k": 1,
        "bm25": 2,
        "oracle": 2,
        "full_context": (t0_full == "B") + 1,
        "no_memory": (t0_none == "B") + (t1_none == "B"),
    }
    for mech, c in correct.items():
        r = results[mech, "all"]
        assert (r["correct"], r["answered"], r["accuracy"]) == (c, 2, c / 2), mech
        # the bootstrap of 2 outcomes: all equal -> a point; one of each -> [0, 1]
        assert (r["accuracy_ci_low"], r["accuracy_ci_high"]) == (
            (0.0, 1.0) if c == 1 else (c / 2, c / 2)
        )
    assert results["recent_k", "simple"]["accuracy"] == 0.0
    assert results["recent_k", "conditional"]["accuracy"] == 1.0
    assert all(
        r["reader"] == "lexical" and r["reader_kind"] == "non-LLM baseline"
        for r in results.values()
    )


def test_prompt_tokens_by_hand(results: dict[tuple[str, str], dict[str, Any]]) -> None:
    bpe = pytest.importorskip("bpe_openai", reason="token counts need the tokens extra")
    enc = bpe.get_encoding("o200k_base")

    def count(text: str) -> int:
        return len(enc.encode_ordinary(text))

    shown = {  # what each mechanism shows the reader, oldest first
        "no_memory": ([], []),
        "full_context": ([0, 1, 2], [0, 1, 2, 3]),
        "recent_k": ([1, 2], [2, 3]),
        "bm25": ([0, 2], [0, 2]),
        "oracle": ([0], [0, 2]),
    }
    for mech, (m0, m1) in shown.items():
        expected = (count(lines_of(T0, m0)) + count(lines_of(T1, m1))) / 2
        assert results[mech, "all"]["prompt_tokens"] == pytest.approx(expected), mech


def test_latency_fields_null_without_timings(
    results: dict[tuple[str, str], dict[str, Any]],
) -> None:
    for r in results.values():
        assert r["write_ms_p50"] is None and r["read_ms_p95"] is None


def test_metric_functions() -> None:
    assert recall_at_k([5, 1, 9], {1, 9, 4}, 2) == 0.5  # 1 of min(2, 3)
    assert recall_at_k([5, 1, 9], {1, 9, 4}, 5) == pytest.approx(2 / 3)
    assert recall_at_k([], {1}, 5) == 0.0
    assert recall_at_k([1], set(), 5) is None
    assert ndcg_at_k([5, 1], {1}, 2) == pytest.approx(1 / math.log2(3))
    assert ndcg_at_k([1, 5, 9], {1, 9}, 3) == pytest.approx((1 + 0.5) / (1 + 1 / math.log2(3)))
    assert bootstrap_ci(5, 10, 0, "x") == bootstrap_ci(5, 10, 0, "x")
    low, high = bootstrap_ci(50, 100, 0, "x") or (0, 0)
    assert 0.38 < low < 0.42 and 0.58 < high < 0.62  # ~ 0.5 -+ 1.96 * 0.05


def test_latency_histogram_percentiles() -> None:
    h = LatencyHistogram()
    h.add_ns([1_000] * 50 + [2_000_000] * 45 + [9_000_000] * 5)
    assert h.percentile_ms(50) == pytest.approx(0.001, rel=0.02)
    assert h.percentile_ms(95) == pytest.approx(2.0, rel=0.02)
    assert h.percentile_ms(99) == pytest.approx(9.0, rel=0.02)
    assert LatencyHistogram().percentile_ms(50) is None


def test_output_files(tmp_path: Path) -> None:
    # the module fixture wrote through run_bench; check the folder layout once here
    data = tmp_path / "d"
    data.mkdir()
    (data / "dataset.jsonl").write_text(json.dumps(record(T0, 0)) + "\n", encoding="utf-8")
    run_bench(data, tmp_path / "out", BenchOptions(mechanisms=("oracle",), levels=(1,)))
    names = sorted(p.name for p in (tmp_path / "out").iterdir())
    assert names == ["manifest.json", "results.json", "results.md", "results.png"]
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text())
    assert manifest["kind"] == "bench" and manifest["seed"] == 0
    assert (
        manifest["dataset"]["sha256"]
        == hashlib.sha256((data / "dataset.jsonl").read_bytes()).hexdigest()
    )
    assert "non-LLM baseline" in (tmp_path / "out" / "results.md").read_text()
    assert (tmp_path / "out" / "results.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_memory_token_count_adds_up_over_lines() -> None:
    """The benchmark counts a memory block as the sum of its lines' counts; that is exact
    because o200k never merges across a line end when lines start with '['."""
    bpe = pytest.importorskip("bpe_openai", reason="token counts need the tokens extra")
    from memsim.bench._reader import memory_line

    enc = bpe.get_encoding("o200k_base")
    messages = [
        Message(
            0,
            "我的上司的邮箱地址是zhaoyalin0205@szfinancecenter.com。",
            "2024年04月01日 周一 19:35",
            "广东深圳",
        ),
        Message(1, "My cousin can be emailed at x@y.com.  ", "2024-04-29T08:46", "home, Boston"),
        Message(
            2,
            "I should really start going to bed earlier...",
            "2024-04-29 Mon 15:25",
            "Boston County Sheriff's Office, Boston",
        ),
        Message(3, "  leading spaces and a trailing newline\n", "2024-04-29T15:26", "home"),
    ]
    lines = [memory_line(m) for m in messages]
    assert len(enc.encode_ordinary("".join(lines))) == sum(
        len(enc.encode_ordinary(x)) for x in lines
    )
