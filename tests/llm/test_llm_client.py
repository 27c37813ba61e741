"""LLMClient through both official SDKs against the fake server on 127.0.0.1."""

from __future__ import annotations

import email.utils
import time
from pathlib import Path

import pytest

from memsim.llm import (
    ChatReply,
    ChatRequest,
    LLMConfigError,
    LLMFailure,
    make_client,
    parse_retry_after,
)
from memsim.llm.testing import FakeChatServer, Fault, Rule, faithful_model

BACKENDS = ("openai", "zhipuai")


def requests(n: int, tag: str = "") -> list[ChatRequest]:
    return [
        ChatRequest(
            (
                ("system", "Rewrite it."),
                ("user", f"<message>\nMy cousin{tag} is {i} years old.\n</message>"),
            ),
            max_tokens=64,
        )
        for i in range(n)
    ]


def expected(request: ChatRequest) -> str:
    return faithful_model([{"role": r, "content": c} for r, c in request.messages])


def client(backend: str, server: FakeChatServer, cache: Path, **kw: object):  # type: ignore[no-untyped-def]
    options = {"concurrency": 4, "timeout": 10.0, "backoff_base": 0.01, **kw}
    return make_client(backend, "glm-4-flash", base_url=server.base_url, cache_dir=cache, **options)  # type: ignore[arg-type]


@pytest.mark.parametrize("backend", BACKENDS)
def test_replies_in_order_and_counted(backend: str, tmp_path: Path) -> None:
    reqs = requests(12)
    with (
        FakeChatServer(latency=0.01) as server,
        client(backend, server, tmp_path, api_key="sk-test.secret") as c,
    ):
        out = c.complete_all(reqs)
        log = server.entries()
    assert [r.text for r in out if isinstance(r, ChatReply)] == [expected(r) for r in reqs]
    assert not any(r.cached for r in out if isinstance(r, ChatReply))
    stats = c.stats
    assert stats.requests == stats.calls == len(log) == 12
    assert stats.retries == stats.failures == stats.cache_hits == 0
    assert stats.prompt_tokens == sum(e.prompt_tokens for e in log) > 0
    assert stats.completion_tokens == sum(e.completion_tokens for e in log) > 0
    # both SDKs send the key as given (the zhipuai SDK does not turn it into a JWT)
    assert {e.authorization for e in log} == {"Bearer sk-test.secret"}
    assert {e.path for e in log} == {"/v1/chat/completions"}
    assert {e.body["model"] for e in log} == {"glm-4-flash"}
    assert all(e.body["max_tokens"] == 64 for e in log)


@pytest.mark.parametrize("backend", BACKENDS)
def test_transient_faults_are_retried_and_counted(backend: str, tmp_path: Path) -> None:
    rules = [
        Rule(Fault("http", status=503), every=7, offset=0),
        Rule(Fault("http", status=429, retry_after=0.3), every=7, offset=1),
        Rule(Fault("stall", seconds=4.0), every=7, offset=2),
        Rule(Fault("malformed_json"), every=7, offset=3),
        Rule(Fault("not_json"), every=7, offset=4),
        Rule(Fault("no_choices"), every=7, offset=5),
        Rule(Fault("empty_content"), every=7, offset=6, times=2),
    ]
    reqs = requests(40)
    with FakeChatServer(rules=rules) as server, client(backend, server, tmp_path, timeout=1.5) as c:
        out = c.complete_all(reqs)
        time.sleep(4.0)  # let the stalled handlers finish and log themselves
        log = server.entries()
    assert [r.text for r in out if isinstance(r, ChatReply)] == [expected(r) for r in reqs]
    faulted = [e for e in log if e.outcome != "ok"]
    assert {e.outcome for e in faulted} == {
        "http",
        "stall",
        "malformed_json",
        "not_json",
        "no_choices",
        "empty_content",
    }
    stats = c.stats
    assert stats.failures == 0
    assert stats.calls == len(log) == 40 + len(faulted)
    assert stats.retries == len(faulted)
    reasons = stats.retry_reasons
    assert reasons["timeout"] == sum(e.outcome == "stall" for e in log)
    assert reasons["http_503"] == sum(e.status == 503 for e in log)
    assert reasons["http_429"] == sum(e.status == 429 for e in log)
    assert reasons["malformed"] == sum(
        e.outcome in ("malformed_json", "not_json", "no_choices", "empty_content") for e in log
    )
    assert stats.prompt_tokens == sum(e.prompt_tokens for e in log)
    # Retry-After is honoured: the retry of a 429 comes at least 0.3 s after it
    by_digest: dict[int, list[float]] = {}
    for e in sorted(log, key=lambda e: e.started):
        by_digest.setdefault(e.digest, []).append(e.started)
    limited = [e for e in log if e.status == 429]
    assert limited
    for e in limited:
        later = [t for t in by_digest[e.digest] if t > e.started]
        assert later and later[0] - e.finished >= 0.29


@pytest.mark.parametrize("backend", BACKENDS)
def test_retries_are_bounded_and_4xx_not_retried(backend: str, tmp_path: Path) -> None:
    reqs = requests(3)
    always_down = Rule(Fault("http", status=500), match="is 0 years", times=None)
    bad_request = Rule(Fault("http", status=400), match="is 1 years", times=None)
    with (
        FakeChatServer(rules=[always_down, bad_request]) as server,
        client(backend, server, tmp_path, max_retries=3) as c,
    ):
        out = c.complete_all(reqs)
        log = server.entries()
    assert out[0] == LLMFailure("http_500", 4, out[0].detail)  # type: ignore[union-attr]
    assert isinstance(out[1], LLMFailure) and out[1].reason == "http_400" and out[1].attempts == 1
    assert isinstance(out[2], ChatReply)
    assert sum(e.status == 500 for e in log) == 4 and sum(e.status == 400 for e in log) == 1
    assert c.stats.failures == 2 and c.stats.failure_reasons == {"http_400": 1, "http_500": 1}
    assert c.stats.calls == len(log) == 6
    # failures are not cached: a rerun asks again
    with FakeChatServer() as server2, client(backend, server2, tmp_path) as again:
        rerun = again.complete_all(reqs)
        assert len(server2.entries()) == 2
    assert all(isinstance(r, ChatReply) for r in rerun)
    assert again.stats.cache_hits == 1


@pytest.mark.parametrize("backend", BACKENDS)
def test_bad_key_stops_the_run(backend: str, tmp_path: Path) -> None:
    with (
        FakeChatServer(api_key="right") as server,
        client(backend, server, tmp_path, api_key="wrong") as c,
        pytest.raises(LLMConfigError, match="401"),
    ):
        c.complete_all(requests(5))
    assert len(server.entries()) == 0  # refused before any chat request was served


@pytest.mark.parametrize("backend", BACKENDS)
def test_cache_hits_on_rerun_and_in_flight_sharing(backend: str, tmp_path: Path) -> None:
    reqs = requests(6) + requests(6)  # every request twice in one batch
    with FakeChatServer(latency=0.05) as server:
        with client(backend, server, tmp_path) as first:
            out1 = first.complete_all(reqs)
        assert len(server.entries()) == 6
        assert first.stats.cache_hits == 6 and first.stats.calls == 6
        with client(backend, server, tmp_path) as second:
            out2 = second.complete_all(reqs)
        assert len(server.entries()) == 6  # no new call
    assert second.stats.cache_hits == 12 and second.stats.calls == 0
    assert second.stats.prompt_tokens == 0
    assert [r.text for r in out2] == [r.text for r in out1]  # type: ignore[union-attr]
    assert all(r.cached for r in out2 if isinstance(r, ChatReply))


def test_cache_key_covers_every_parameter(tmp_path: Path) -> None:
    base = requests(1)[0]
    variants = [
        base,
        ChatRequest(base.messages, temperature=0.5, max_tokens=64),
        ChatRequest(base.messages, max_tokens=65),
        ChatRequest(base.messages, max_tokens=64, seed=1),
        ChatRequest(base.messages, max_tokens=64, top_p=0.9),
        ChatRequest(base.messages, max_tokens=64, stop=("\n",)),
        ChatRequest((("user", base.messages[1][1]),), max_tokens=64),
    ]
    keys = {v.key("openai", "m") for v in variants}
    assert len(keys) == len(variants)
    assert base.key("openai", "m") != base.key("zhipuai", "m") != base.key("openai", "n")
    with pytest.raises(ValueError, match="role"):
        ChatRequest((("robot", "hi"),))


@pytest.mark.parametrize("backend", BACKENDS)
def test_concurrency_is_bounded(backend: str, tmp_path: Path) -> None:
    with (
        FakeChatServer(latency=0.1) as server,
        client(backend, server, tmp_path, concurrency=3) as c,
    ):
        started = time.monotonic()
        c.complete_all(requests(9))
        elapsed = time.monotonic() - started
    assert server.max_in_flight == 3
    assert elapsed >= 0.3  # 9 requests, 3 at a time, 0.1 s each


def test_parse_retry_after() -> None:
    assert parse_retry_after({"retry-after": "2"}) == 2.0
    assert parse_retry_after({"retry-after-ms": "250", "retry-after": "9"}) == 0.25
    assert parse_retry_after({"retry-after": "100000"}) == 120.0
    assert parse_retry_after({"retry-after": "soon"}) is None
    assert parse_retry_after({}) is None
    later = email.utils.formatdate(time.time() + 30, usegmt=True)
    assert 25 < (parse_retry_after({"retry-after": later}) or 0) <= 30


def test_unknown_backend_and_missing_model(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"unknown LLM backend 'claude'.*openai, zhipuai"):
        make_client("claude", "m", cache_dir=tmp_path)
    with pytest.raises(LLMConfigError, match="model"):
        make_client("openai", "", base_url="http://127.0.0.1:9", cache_dir=tmp_path)
