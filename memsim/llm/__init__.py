"""LLM clients: OpenAI-compatible and ZhipuAI chat backends behind one client with
bounded concurrency, counted retries and a persistent reply cache.

Nothing here imports an SDK: a backend imports its SDK (the ``llm`` extra) when it is
made, and says how to install it when it is missing. ``memsim.llm.testing`` holds a
fake chat-completions server for tests and benchmarks.

    client = make_client("openai", "gpt-4o-mini", concurrency=16)
    replies = client.complete_all([ChatRequest((("user", "Hi"),))])
    print(client.stats.to_json())
"""

from memsim.llm._backends import LLM_BACKENDS, Backend, parse_retry_after
from memsim.llm._cache import ReplyCache, default_cache_dir
from memsim.llm._client import LLMClient, make_client
from memsim.llm._types import (
    CallError,
    ChatReply,
    ChatRequest,
    LLMConfigError,
    LLMFailure,
    LLMStats,
)

__all__ = [
    "LLM_BACKENDS",
    "Backend",
    "CallError",
    "ChatReply",
    "ChatRequest",
    "LLMClient",
    "LLMConfigError",
    "LLMFailure",
    "LLMStats",
    "ReplyCache",
    "default_cache_dir",
    "make_client",
    "parse_retry_after",
]
