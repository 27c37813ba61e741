"""LLM failures end the run with the right message and nothing else on stderr: no
traceback, no asyncio "Task exception was never retrieved", no output folder."""

from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest
from hostile_run import SCHEMA, assert_refused, memsim

from memsim.llm.testing import FakeChatServer


def _generate(small: Path, out: Path, base_url: str, concurrency: int = 8) -> list[str | Path]:
    return [
        "generate", "--schema", SCHEMA, "--profiles", small / "profiles", "--out", out,
        "--per-type", 5, "--no-progress", "--verbalizer", "openai", "--model", "m",
        "--base-url", base_url, "--concurrency", concurrency, "--cache", out.parent / "cache",
    ]  # fmt: skip


@pytest.mark.parametrize("concurrency", [8, 8, 32, 32])
def test_http_401_leaves_no_stray_tracebacks(small: Path, concurrency: int) -> None:
    env = {**os.environ, "OPENAI_API_KEY": "wrong"}
    out = small / "llm"
    with FakeChatServer(api_key="right") as server:
        proc = memsim(*_generate(small, out, server.base_url, concurrency), env=env)
    assert_refused(proc, "HTTP 401", "check OPENAI_API_KEY")
    assert "never retrieved" not in proc.stderr
    assert proc.stderr.count("\n") == 1, proc.stderr
    assert not out.exists()


def test_missing_key(small: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "OPENAI_API_KEY"}
    args = _generate(small, small / "llm", "unused")
    at = args.index("--base-url")
    del args[at : at + 2]  # the service's own URL needs a key; a local server may not
    assert_refused(memsim(*args, env=env), "OPENAI_API_KEY")


def test_closed_port_is_a_connection_failure(capfd: pytest.CaptureFixture[str]) -> None:
    # through the CLI a closed port is retried with backoff until 32 requests in a row
    # failed (about 2 minutes, then exit 2: "the LLM service failed 32 requests in a
    # row"); here the same client with a short backoff
    from memsim.llm import ChatRequest, LLMFailure, make_client

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # nothing listens there once the socket is closed
    client = make_client(
        "openai", "m", base_url=f"http://127.0.0.1:{port}/v1", api_key="sk-test",
        use_cache=False, max_retries=2, backoff_base=0.01, backoff_cap=0.02,
    )  # fmt: skip
    with client:
        (result,) = client.complete_all([ChatRequest((("user", "hi"),))])
    assert isinstance(result, LLMFailure) and result.reason == "connection"
    err = capfd.readouterr().err
    assert "Traceback" not in err and "never retrieved" not in err
