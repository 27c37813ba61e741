"""The client every LLM user in memsim goes through: bounded concurrency, retries,
a persistent cache, and counts of all of it.

Guarantees:
- at most ``concurrency`` requests are being worked on at once (a request keeps its
  slot while it backs off, so a rate-limited service is not hammered);
- a retryable failure (timeout, connection error, 408/409/429/5xx, a malformed body)
  is retried at most ``max_retries`` times, after ``backoff_base * 2**k`` seconds
  (capped at ``backoff_cap``) times a jitter in [0.5, 1], and never sooner than the
  service's ``Retry-After``; the jitter changes timing only, never a result;
- a reply is committed to the cache before it is returned, and a request already in
  the cache or already in flight makes no call;
- results come back in input order; a request that finally fails gives an
  :class:`LLMFailure`, never an exception; :class:`LLMConfigError` (bad key, unknown
  model) stops everything at once.

The client runs its own event loop in a background thread, so it can be used from
synchronous code (:meth:`LLMClient.complete_all`) and by coroutines scheduled with
:meth:`LLMClient.submit`.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import random
import threading
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, TypeVar

from memsim.llm._backends import LLM_BACKENDS, Backend
from memsim.llm._cache import ReplyCache, default_cache_dir
from memsim.llm._types import (
    CallError,
    ChatReply,
    ChatRequest,
    LLMConfigError,
    LLMFailure,
    LLMStats,
)

T = TypeVar("T")
Result = ChatReply | LLMFailure


class LLMClient:
    def __init__(
        self,
        backend: Backend,
        model: str,
        *,
        concurrency: int = 8,
        max_retries: int = 6,
        cache: ReplyCache | None = None,
        backoff_base: float = 0.5,
        backoff_cap: float = 30.0,
        jitter_seed: int | None = None,
    ) -> None:
        if concurrency < 1:
            raise ValueError(f"concurrency must be at least 1, not {concurrency}")
        self.backend = backend
        self.model = model
        self.concurrency = concurrency
        self.max_retries = max_retries
        self.cache = cache
        self.backoff = (backoff_base, backoff_cap)
        self.stats = LLMStats()
        self._jitter = random.Random(jitter_seed)
        self._slots = asyncio.Semaphore(concurrency)
        self._inflight: dict[str, asyncio.Future[Result]] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None

    # --- running coroutines on the client's loop ----------------------------------------
    def submit(self, coro: Coroutine[Any, Any, T]) -> concurrent.futures.Future[T]:
        """Schedule a coroutine on the client's event loop (started on first use)."""
        if self._loop is None:
            self._loop = asyncio.new_event_loop()
            self._thread = threading.Thread(
                target=self._loop.run_forever, name="memsim-llm", daemon=True
            )
            self._thread.start()
        # the task on the loop never ends in an exception: the exception is carried to
        # the returned future instead. A task whose future was cancelled while it failed
        # (a 401 racing the caller's clean-up) would otherwise be logged at exit as
        # "Task exception was never retrieved".
        inner = asyncio.run_coroutine_threadsafe(_boxed(coro), self._loop)
        outer: concurrent.futures.Future[T] = concurrent.futures.Future()

        def settle(done: concurrent.futures.Future[tuple[bool, Any]]) -> None:
            if done.cancelled() or done.exception() is not None:
                outer.cancel()
                return
            ok, value = done.result()
            if outer.set_running_or_notify_cancel():
                if ok:
                    outer.set_result(value)
                else:
                    outer.set_exception(value)

        inner.add_done_callback(settle)
        outer.add_done_callback(lambda f: f.cancelled() and inner.cancel())
        return outer

    def complete_all(
        self, requests: Sequence[ChatRequest], progress: Callable[[int], object] | None = None
    ) -> list[Result]:
        """Every request's reply or failure, in input order. ``progress`` is called
        with 1 as each request finishes (a tqdm bar's ``update`` fits)."""

        async def one(request: ChatRequest) -> Result:
            result = await self.complete(request)
            if progress is not None:
                progress(1)
            return result

        async def run() -> list[Result]:
            tasks = [asyncio.ensure_future(one(r)) for r in requests]
            try:
                return list(await asyncio.gather(*tasks))
            except BaseException:
                for task in tasks:
                    task.cancel()
                raise

        return self.submit(run()).result()

    # --- one request ---------------------------------------------------------------------
    async def complete(self, request: ChatRequest) -> Result:
        """The reply to one request (from the cache, a call in flight, or a new call)."""
        self.stats.requests += 1
        key = request.key(self.backend.name, self.model)
        stored = self.cache.get(key) if self.cache is not None else None
        if stored is not None:
            self.stats.cache_hits += 1
            return stored
        if key in self._inflight:
            self.stats.cache_hits += 1
            shared = await asyncio.shield(self._inflight[key])
            return replace(shared, cached=True) if isinstance(shared, ChatReply) else shared
        future: asyncio.Future[Result] = asyncio.get_running_loop().create_future()
        self._inflight[key] = future
        try:
            result = await self._call(request, key)
        except asyncio.CancelledError:
            future.cancel()
            raise
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # marked as seen: only waiters re-raise it
            raise
        finally:
            del self._inflight[key]
        future.set_result(result)
        return result

    async def _call(self, request: ChatRequest, key: str) -> Result:
        async with self._slots:
            attempts = 0
            while True:
                attempts += 1
                self.stats.calls += 1
                try:
                    reply = await self.backend.call(request, self.model)
                except CallError as err:
                    if not err.retryable or attempts > self.max_retries:
                        return self._failed(err, attempts)
                    self.stats.retries += 1
                    _bump(self.stats.retry_reasons, err.reason)
                    await asyncio.sleep(self._delay(attempts, err.retry_after))
                    continue
                self.stats.prompt_tokens += reply.prompt_tokens
                self.stats.completion_tokens += reply.completion_tokens
                if self.cache is not None:
                    reply = self.cache.put(key, self.backend.name, self.model, request, reply)
                return reply

    def _failed(self, err: CallError, attempts: int) -> LLMFailure:
        self.stats.failures += 1
        _bump(self.stats.failure_reasons, err.reason)
        return LLMFailure(err.reason, attempts, err.detail)

    def _delay(self, attempts: int, retry_after: float | None) -> float:
        base, cap = self.backoff
        delay = min(cap, base * 2 ** (attempts - 1)) * self._jitter.uniform(0.5, 1.0)
        return float(max(delay, retry_after or 0.0))

    # --- lifetime ------------------------------------------------------------------------
    def close(self) -> None:
        if self._loop is not None and self._thread is not None:
            with contextlib.suppress(concurrent.futures.TimeoutError, RuntimeError):
                self.submit(self.backend.aclose()).result(timeout=10)
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(timeout=10)
            self._loop.close()
            self._loop = self._thread = None
        if self.cache is not None:
            self.cache.close()

    def __enter__(self) -> LLMClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


async def _boxed(coro: Coroutine[Any, Any, T]) -> tuple[bool, Any]:
    """(True, result) or (False, the exception); cancellation passes through."""
    try:
        return True, await coro
    except Exception as exc:
        return False, exc


def _bump(counts: dict[str, int], reason: str) -> None:
    counts[reason] = counts.get(reason, 0) + 1


def make_client(
    backend: str,
    model: str,
    *,
    base_url: str | None = None,
    api_key: str | None = None,
    concurrency: int = 8,
    timeout: float = 60.0,
    max_retries: int = 6,
    cache_dir: str | Path | None = None,
    use_cache: bool = True,
    backoff_base: float = 0.5,
    backoff_cap: float = 30.0,
) -> LLMClient:
    """A client for a registered backend (``openai``, ``zhipuai``). ``cache_dir``
    defaults to :func:`default_cache_dir`; ``use_cache=False`` keeps nothing on disk."""
    if backend not in LLM_BACKENDS:
        raise ValueError(
            f"unknown LLM backend '{backend}' (known: {', '.join(LLM_BACKENDS.names())})"
        )
    if not model:
        raise LLMConfigError("an LLM backend needs a model name (--model)")
    made = LLM_BACKENDS.get(backend)(
        base_url=base_url, api_key=api_key, timeout=timeout, concurrency=concurrency
    )
    cache = ReplyCache(cache_dir or default_cache_dir()) if use_cache else None
    return LLMClient(
        made,
        model,
        concurrency=concurrency,
        max_retries=max_retries,
        cache=cache,
        backoff_base=backoff_base,
        backoff_cap=backoff_cap,
    )
