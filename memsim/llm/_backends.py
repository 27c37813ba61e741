"""Chat backends, registered by name in ``registry("llm_backend")``.

Each backend makes exactly one HTTP call per :meth:`Backend.call`: the SDKs' own
retries are switched off (``max_retries=0``) so that retries happen only in
:mod:`memsim.llm._client`, where they are counted and honour ``Retry-After`` (the
zhipuai SDK ignores it). A failed call raises :class:`CallError` (retryable or not)
or :class:`LLMConfigError` (bad key, unknown model or URL: the run stops).

- ``openai``: the official ``openai`` SDK (``AsyncOpenAI``) against ``base_url``
  (hosted OpenAI by default; vLLM, Ollama, any OpenAI-compatible server); the key
  comes from ``OPENAI_API_KEY``.
- ``zhipuai``: the official ``zhipuai`` SDK (GLM-4 models; synchronous, so calls run
  in a thread pool as large as the concurrency); the key comes from
  ``ZHIPUAI_API_KEY`` and is sent as given as ``Authorization: Bearer <key>`` (the
  SDK's default; its optional JWT signing of ``id.secret`` keys is not used, the v4
  API accepts the key itself); base URL ``$ZHIPUAI_BASE_URL`` or
  ``https://open.bigmodel.cn/api/paas/v4``.

Both SDKs append ``/chat/completions`` to the base URL. Without a key but with a
``base_url`` (a local server), a placeholder key is sent.
"""

from __future__ import annotations

import asyncio
import email.utils
import functools
import importlib
import os
import time
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Protocol

from memsim._registry import Registry, registry
from memsim.graph import MissingExtraError
from memsim.llm._types import CallError, ChatReply, ChatRequest, LLMConfigError

LOCAL_KEY = "not-needed"
"""Sent when there is no key but a base URL: local servers ignore it."""
MAX_RETRY_AFTER = 120.0


class Backend(Protocol):
    name: str

    async def call(self, request: ChatRequest, model: str) -> ChatReply: ...

    async def aclose(self) -> None: ...


BackendFactory = Callable[..., Backend]
LLM_BACKENDS: Registry[BackendFactory] = registry("llm_backend")


def import_sdk(module: str) -> Any:
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise MissingExtraError(
            f"the '{module}' backend needs the {module} SDK, an optional extra: "
            "pip install 'memsim[llm]'"
        ) from exc


def resolve_key(api_key: str | None, env: str, base_url: str | None) -> str:
    key = api_key or os.environ.get(env)
    if key:
        return key
    if base_url:
        return LOCAL_KEY
    raise LLMConfigError(f"no API key: set {env} (or give --base-url for a local server)")


def parse_retry_after(headers: Mapping[str, str] | None) -> float | None:
    """Seconds to wait from ``retry-after-ms`` or ``retry-after`` (seconds or an
    HTTP date); None when absent or unreadable; capped at MAX_RETRY_AFTER."""
    if not headers:
        return None
    seconds: float | None = None
    if headers.get("retry-after-ms"):
        try:
            seconds = float(headers["retry-after-ms"]) / 1000
        except ValueError:
            seconds = None
    text = headers.get("retry-after")
    if seconds is None and text:
        seconds = _seconds(text)
    if seconds is None or seconds != seconds or seconds < 0:
        return None
    return min(seconds, MAX_RETRY_AFTER)


def _seconds(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        pass
    try:
        return email.utils.parsedate_to_datetime(text).timestamp() - time.time()
    except (TypeError, ValueError):
        return None


def status_error(backend: str, status: int, headers: Mapping[str, str], text: str) -> Exception:
    """The exception for an HTTP error status."""
    detail = text[:300]
    if status in (401, 403):
        env = {"openai": "OPENAI_API_KEY", "zhipuai": "ZHIPUAI_API_KEY"}.get(backend, "the key")
        return LLMConfigError(f"{backend}: HTTP {status} (check {env}): {detail}")
    if status == 404:
        return LLMConfigError(f"{backend}: HTTP 404 (unknown model or wrong base URL): {detail}")
    retryable = status in (408, 409, 429) or status >= 500
    return CallError(f"http_{status}", detail, retryable, parse_retry_after(headers))


def reply_from(completion: Any) -> ChatReply:
    """The first choice of a parsed completion, or CallError("malformed") when the
    body was not a completion (not JSON, no choices, empty content)."""
    if isinstance(completion, str | bytes):
        raise CallError("malformed", "the body is not a JSON completion")
    choices = getattr(completion, "choices", None)
    if not choices:
        raise CallError("malformed", "no choices")
    message = getattr(choices[0], "message", None)
    text = getattr(message, "content", None)
    if not isinstance(text, str) or not text.strip():
        raise CallError("malformed", "empty content")
    usage = getattr(completion, "usage", None)
    return ChatReply(
        text=text,
        prompt_tokens=int(getattr(usage, "prompt_tokens", 0) or 0),
        completion_tokens=int(getattr(usage, "completion_tokens", 0) or 0),
        finish_reason=getattr(choices[0], "finish_reason", None),
    )


def request_kwargs(request: ChatRequest, model: str) -> dict[str, Any]:
    kwargs: dict[str, Any] = {
        "model": model,
        "messages": [{"role": role, "content": content} for role, content in request.messages],
        "temperature": request.temperature,
    }
    optional = {
        "max_tokens": request.max_tokens,
        "top_p": request.top_p,
        "seed": request.seed,
        "stop": list(request.stop) or None,
    }
    return kwargs | {k: v for k, v in optional.items() if v is not None}


@LLM_BACKENDS.register("openai")
class OpenAIBackend:
    name = "openai"

    def __init__(
        self, *, base_url: str | None, api_key: str | None, timeout: float, concurrency: int
    ) -> None:
        self._sdk = import_sdk("openai")
        self._key = resolve_key(api_key, "OPENAI_API_KEY", base_url)
        self._base_url = base_url
        self._timeout = timeout
        self._client: Any = None  # made on first use, inside the event loop that uses it

    async def call(self, request: ChatRequest, model: str) -> ChatReply:
        sdk = self._sdk
        if self._client is None:
            self._client = sdk.AsyncOpenAI(
                api_key=self._key, base_url=self._base_url, timeout=self._timeout, max_retries=0
            )
        try:
            completion = await self._client.chat.completions.create(
                **request_kwargs(request, model)
            )
        except sdk.APITimeoutError:
            raise CallError("timeout", f"no reply within {self._timeout:g} s") from None
        except sdk.APIConnectionError as exc:
            raise CallError("connection", str(exc)) from None
        except sdk.APIStatusError as exc:
            raise status_error(
                self.name, exc.status_code, exc.response.headers, str(exc.message)
            ) from None
        except (sdk.APIError, ValueError, TypeError) as exc:  # bad JSON, wrong shape
            raise CallError("malformed", f"{type(exc).__name__}: {exc}"[:300]) from None
        return reply_from(completion)

    async def aclose(self) -> None:
        if self._client is not None:
            await self._client.close()


@LLM_BACKENDS.register("zhipuai")
class ZhipuAIBackend:
    name = "zhipuai"

    def __init__(
        self, *, base_url: str | None, api_key: str | None, timeout: float, concurrency: int
    ) -> None:
        self._sdk = import_sdk("zhipuai")
        import httpx  # a dependency of the zhipuai SDK

        self._timeout = timeout
        # the SDK's own pool allows 50 connections; size it to the concurrency instead
        self._http = httpx.Client(
            timeout=httpx.Timeout(timeout),
            limits=httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency),
        )
        self._client = self._sdk.ZhipuAI(
            api_key=resolve_key(api_key, "ZHIPUAI_API_KEY", base_url),
            base_url=base_url,
            timeout=timeout,
            max_retries=0,
            http_client=self._http,
        )
        self._threads = ThreadPoolExecutor(concurrency, thread_name_prefix="memsim-zhipuai")

    async def call(self, request: ChatRequest, model: str) -> ChatReply:
        sdk = self._sdk
        create = functools.partial(
            self._client.chat.completions.create, **request_kwargs(request, model)
        )
        try:
            completion = await asyncio.get_running_loop().run_in_executor(self._threads, create)
        except sdk.APITimeoutError:
            raise CallError("timeout", f"no reply within {self._timeout:g} s") from None
        except sdk.APIConnectionError as exc:
            raise CallError("connection", str(exc)) from None
        except sdk.APIStatusError as exc:
            response = exc.response
            raise status_error(
                self.name, response.status_code, response.headers, str(exc)
            ) from None
        except (sdk.ZhipuAIError, ValueError, TypeError) as exc:  # bad JSON, wrong shape
            raise CallError("malformed", f"{type(exc).__name__}: {exc}"[:300]) from None
        return reply_from(completion)

    async def aclose(self) -> None:
        self._threads.shutdown(wait=False, cancel_futures=True)
        self._http.close()
