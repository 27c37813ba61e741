"""A fake chat-completions service for tests and benchmarks: a real HTTP server on
127.0.0.1 (an ephemeral port), run in a background thread, that the official
``openai`` and ``zhipuai`` SDKs talk to unmodified through their ``base_url``.

Its "model" is deterministic: by default it rewrites the text between
``<message>`` tags (or ``<question>`` tags) faithfully, keeping it whole and adding
colloquial framing. Faults are scripted by :class:`Rule`: a rule picks requests by
a digest of their messages (so the same logical request is picked whichever SDK
sends it, and whatever the order of arrival) and applies a :class:`Fault` to their
first ``times`` arrivals. Every request is logged (:attr:`FakeChatServer.log`).
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Sequence
from functools import partial
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from memsim.llm._fake import (
    CONTENT_FAULTS,
    HTTP_FAULTS,
    Fault,
    LogEntry,
    Model,
    Rule,
    completion,
    digest,
    faithful_model,
    spoil,
    tokens,
)


class FakeChatServer:
    """``with FakeChatServer(latency=0.2, rules=[...]) as server:`` then point a
    client at ``server.base_url``."""

    def __init__(
        self,
        *,
        latency: float = 0.0,
        rules: Sequence[Rule] = (),
        model: Model = faithful_model,
        api_key: str | None = None,
    ) -> None:
        self.latency = latency
        self.rules = tuple(rules)
        self.model = model
        self.api_key = api_key
        self.log: list[LogEntry] = []
        self._arrivals: dict[int, int] = {}
        self.in_flight = 0
        self.max_in_flight = 0
        """The most chat requests the server was working on at once."""
        self._lock = threading.Lock()
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # --- lifetime ------------------------------------------------------------------------
    def start(self) -> FakeChatServer:
        handler = type("Handler", (_Handler,), {"fake": self})
        httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler, bind_and_activate=False)
        httpd.daemon_threads = True
        httpd.request_queue_size = 256  # bursts of connections from high concurrency
        httpd.server_bind()
        httpd.server_activate()
        self._httpd = httpd
        self._thread = threading.Thread(
            target=httpd.serve_forever, args=(0.05,), name="fake-chat", daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None

    def __enter__(self) -> FakeChatServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def url(self) -> str:
        if self._httpd is None:
            raise RuntimeError("the fake server is not running")
        return f"http://127.0.0.1:{self._httpd.server_address[1]}"

    @property
    def base_url(self) -> str:
        return f"{self.url}/v1"

    # --- what happened -------------------------------------------------------------------
    def entries(self) -> list[LogEntry]:
        with self._lock:
            return list(self.log)

    def wait_for(self, count: int, timeout: float = 30.0) -> list[LogEntry]:
        """Block until at least ``count`` requests are logged (or fail)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            entries = self.entries()
            if len(entries) >= count:
                return entries
            time.sleep(0.005)
        raise TimeoutError(f"the fake server logged {len(self.entries())} < {count} requests")

    # --- one request ---------------------------------------------------------------------
    def arrive(self, messages: list[dict[str, Any]]) -> tuple[int, int, Fault | None]:
        key = digest(messages)
        with self._lock:
            arrival = self._arrivals[key] = self._arrivals.get(key, 0) + 1
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)
        last = str(messages[-1].get("content", "")) if messages else ""
        for rule in self.rules:
            if key % rule.every != rule.offset:
                continue
            if rule.match is not None and rule.match not in last:
                continue
            if rule.times is None or arrival <= rule.times:
                return key, arrival, rule.fault
        return key, arrival, None

    def leave(self) -> None:
        with self._lock:
            self.in_flight -= 1

    def record(self, entry: LogEntry) -> None:
        with self._lock:
            self.log.append(entry)


class _Handler(BaseHTTPRequestHandler):
    fake: FakeChatServer
    protocol_version = "HTTP/1.1"  # keep-alive, as the SDKs' connection pools expect
    disable_nagle_algorithm = True  # headers and body are two writes: no 40 ms ACK wait

    def log_message(self, format: str, *args: Any) -> None:  # quiet
        pass

    def do_POST(self) -> None:
        fake = self.fake
        raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        auth = self.headers.get("Authorization", "")
        if not self.path.rstrip("/").endswith("/chat/completions"):
            self._send(404, {"error": {"message": f"no route {self.path}"}})
            return
        if fake.api_key is not None and auth != f"Bearer {fake.api_key}":
            self._send(401, {"error": {"message": "invalid api key"}})
            return
        body = json.loads(raw or b"{}")
        messages = body.get("messages") or []
        started = time.time()
        key, arrival, fault = fake.arrive(messages)
        try:
            if fake.latency:
                time.sleep(fake.latency)
            outcome, status, text, send = self._respond(body, messages, fault)
            used = text is not None and outcome in ("ok", *CONTENT_FAULTS)
            # logged before the reply goes out, so a client that has its reply finds the
            # request in the log
            fake.record(
                LogEntry(
                    path=self.path,
                    authorization=auth,
                    body=body,
                    digest=key,
                    arrival=arrival,
                    outcome=outcome,
                    status=status,
                    text=text,
                    prompt_tokens=sum(tokens(str(m.get("content", ""))) for m in messages)
                    if used
                    else 0,
                    completion_tokens=tokens(text) if used and text else 0,
                    started=started,
                    finished=time.time(),
                )
            )
        finally:
            fake.leave()
        send()

    def _respond(
        self, body: dict[str, Any], messages: list[dict[str, Any]], fault: Fault | None
    ) -> tuple[str, int, str | None, Callable[[], None]]:
        """(outcome, status, text, a function that sends the reply)."""
        kind = fault.kind if fault else "ok"
        if fault is not None and kind == "http":
            headers = {} if fault.retry_after is None else {"Retry-After": f"{fault.retry_after:g}"}
            payload = {"error": {"message": "scripted fault"}}
            status = fault.status
            return kind, status, None, lambda: self._send(status, payload, headers)
        if fault is not None and kind == "stall":
            time.sleep(fault.seconds)
        text = self.fake.model(messages)
        if fault is not None and kind in CONTENT_FAULTS:
            text = spoil(kind, text)
        send: Callable[[], None]
        if kind == "malformed_json":
            cut = b'{"id": "cut", "choices": [{"message": {"content": "Hel'
            send = partial(self._send_raw, 200, cut, "json")
        elif kind == "not_json":
            page = b"<html><body>502 Bad Gateway</body></html>"
            send = partial(self._send_raw, 200, page, "html")
        elif kind == "no_choices":
            send = partial(self._send, 200, completion(body, text) | {"choices": []})
        else:
            send = partial(
                self._send, 200, completion(body, "" if kind == "empty_content" else text)
            )
        return kind, 200, text, send

    def _send(
        self, status: int, payload: dict[str, Any], headers: dict[str, str] | None = None
    ) -> None:
        self._send_raw(status, json.dumps(payload, ensure_ascii=False).encode(), "json", headers)

    def _send_raw(
        self, status: int, data: bytes, kind: str, headers: dict[str, str] | None = None
    ) -> None:
        try:
            self.send_response(status)
            ctype = "application/json" if kind == "json" else "text/html; charset=utf-8"
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(data)))
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (a stall past its timeout)


__all__ = [
    "CONTENT_FAULTS",
    "HTTP_FAULTS",
    "FakeChatServer",
    "Fault",
    "LogEntry",
    "Model",
    "Rule",
    "completion",
    "faithful_model",
    "spoil",
]
