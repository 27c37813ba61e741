"""The llm reader against a real chat-completions server on 127.0.0.1 (memsim's fake
server, spoken to by the official SDKs): the expected accuracy from deterministic
replies, unparseable replies and failed requests counted as wrong (never a crash),
cached replies on a rerun, and the prompt it sends."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from tiny import T0, T1, write_tiny

from memsim.bench import BenchOptions, ReaderItem, build_messages, make_reader, run_bench
from memsim.bench._types import Message
from memsim.cli import main
from memsim.llm.testing import FakeChatServer, Fault, Rule

REPLIES = {
    T0["question"]: "The answer is B.",  # right
    T1["question"]: "It could be A or B, hard to say.",  # names two options: unparseable
}


@pytest.fixture(autouse=True)
def keys(monkeypatch: pytest.MonkeyPatch) -> None:
    """The reader takes keys from the environment, as a user's run does."""
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.setenv("ZHIPUAI_API_KEY", "sk-test")


def scripted(messages: list[dict[str, Any]]) -> str:
    """Answers from the question in the prompt: a fixed reply per question."""
    prompt = str(messages[-1]["content"])
    return next(reply for question, reply in REPLIES.items() if question in prompt)


def options(server: FakeChatServer, cache: Path, backend: str = "openai") -> BenchOptions:
    args = {
        "backend": backend,
        "model": "glm-4-flash",
        "base_url": server.base_url,
        "cache_dir": str(cache),
        "timeout": 10.0,
        "max_retries": 1,
    }
    return BenchOptions(
        mechanisms=("oracle", "no_memory"),
        levels=(1,),
        timings=False,
        reader="llm",
        reader_args=args,
    )


def by_key(recs: list[dict[str, Any]]) -> dict[tuple[str, str], dict[str, Any]]:
    return {(r["mechanism"], r["qa_type"]): r for r in recs}


@pytest.mark.parametrize("backend", ["openai", "zhipuai"])
def test_expected_accuracy_and_unparseable_is_wrong(backend: str, tmp_path: Path) -> None:
    data = write_tiny(tmp_path / "dataset")
    with FakeChatServer(model=scripted, api_key="sk-test") as server:
        opts = options(server, tmp_path / "cache", backend)
        reader = make_reader(opts)
        try:
            recs = by_key(run_bench(data, tmp_path / "out", opts, reader=reader))
            stats = reader.run_stats()
        finally:
            reader.close()
        calls = len(server.entries())
    # T0 (simple) answered right, T1 (conditional) unparseable: wrong, not a crash
    for mechanism in ("oracle", "no_memory"):
        assert recs[(mechanism, "simple")]["accuracy"] == 1.0
        assert recs[(mechanism, "conditional")]["accuracy"] == 0.0
        assert recs[(mechanism, "all")]["accuracy"] == 0.5
    assert stats["unparsed_replies"] == 2 and stats["failed_requests"] == 0
    assert calls == 4  # 2 questions x 2 mechanisms (their memories differ)
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text())
    assert manifest["reader"] == {
        "name": "llm",
        "kind": "LLM",
        "backend": backend,
        "model": "glm-4-flash",
    }


def test_failed_requests_count_as_wrong_and_a_rerun_is_cached(tmp_path: Path) -> None:
    data = write_tiny(tmp_path / "dataset")
    down = Rule(Fault("http", status=500), match=T0["question"], times=None)
    with FakeChatServer(model=scripted, rules=[down], api_key="sk-test") as server:
        opts = options(server, tmp_path / "cache")
        first = by_key(run_bench(data, tmp_path / "out1", opts))
        made = len(server.entries())
        again = by_key(run_bench(data, tmp_path / "out2", opts))
        rerun_calls = len(server.entries()) - made
    assert first[("oracle", "simple")]["accuracy"] == 0.0  # every call failed
    assert first[("oracle", "all")]["n"] == 2
    # failures are not cached: only T0's requests are made again (2 attempts each)
    assert rerun_calls == 2 * 2
    assert again[("oracle", "conditional")] == first[("oracle", "conditional")]


def test_the_cli_runs_the_llm_reader(tmp_path: Path) -> None:
    data = write_tiny(tmp_path / "dataset")
    with FakeChatServer(model=scripted, api_key="sk-test") as server:
        args = [
            "bench",
            str(data),
            "--mechanisms",
            "oracle",
            "--noise",
            "1",
            "--reader",
            "llm",
            "--model",
            "m",
            "--base-url",
            server.base_url,
            "--cache",
            str(tmp_path / "c"),
            "--out",
            str(tmp_path / "out"),
            "--no-progress",
        ]
        result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    assert "unparsed_replies 1" in result.output and "reader llm (LLM)" in result.output
    missing = CliRunner().invoke(main, [*args[:8], "--out", str(tmp_path / "o2")])
    assert missing.exit_code == 2 and "needs a model" in missing.output


def test_the_prompt_holds_memory_time_question_and_options() -> None:
    memory = (Message(0, "My mother is 62.", "2024-04-01 Mon 08:00", "home, Boston"),)
    item = ReaderItem("How old is my mother?", "2024-04-02 Tue 09:00", T0["choices"], memory)
    system, user = build_messages(item)
    assert system[0] == "system" and "letter" in system[1]
    text = user[1]
    assert "[2024-04-01 Mon 08:00, home, Boston] My mother is 62." in text
    assert "2024-04-02 Tue 09:00" in text and "How old is my mother?" in text
    assert "A. 58\nB. 62\nC. 65\nD. 70" in text
    chinese = ReaderItem("我母亲多大了？", "2024年04月02日 周二 09:00", {"A": "1", "B": "2"}, ())
    assert "问题：我母亲多大了？" in build_messages(chinese)[1][1]
    assert "（无）" in build_messages(chinese)[1][1]
