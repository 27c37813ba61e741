"""What goes into and comes out of a chat model, and what a client counts.

Every field of :class:`ChatRequest` is part of the cache key, so two requests that
could get different answers never share a cached reply.
"""

from __future__ import annotations

import hashlib
from dataclasses import asdict, dataclass, field
from typing import Any

import orjson

ROLES = ("system", "user", "assistant")


@dataclass(frozen=True)
class ChatRequest:
    """One chat completion: the messages as (role, content) pairs and the sampling
    parameters. ``stop`` and ``seed`` are passed only when set."""

    messages: tuple[tuple[str, str], ...]
    temperature: float = 0.0
    max_tokens: int | None = None
    top_p: float | None = None
    seed: int | None = None
    stop: tuple[str, ...] = ()

    @classmethod
    def system_user(
        cls, system: str, user: str, temperature: float = 0.0, max_tokens: int | None = None
    ) -> ChatRequest:
        """A request of one system message and one user message."""
        return cls((("system", system), ("user", user)), temperature, max_tokens)

    def __post_init__(self) -> None:
        # lists are accepted and stored as tuples, so the request stays hashable
        object.__setattr__(self, "messages", tuple(tuple(m) for m in self.messages))
        object.__setattr__(self, "stop", tuple(self.stop))
        if not self.messages:
            raise ValueError("a chat request needs at least one message")
        for message in self.messages:
            if len(message) != 2:
                raise ValueError(f"a chat message is (role, content), not {message!r}")
            role, content = message
            if role not in ROLES:
                raise ValueError(f"unknown chat role {role!r} (known: {', '.join(ROLES)})")
            if not isinstance(content, str):
                raise TypeError(f"message content must be str, not {type(content).__name__}")

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["messages"] = [list(m) for m in self.messages]
        data["stop"] = list(self.stop)
        return data

    def key(self, backend: str, model: str) -> str:
        """The cache key: a digest of the backend, the model and every field."""
        payload = {"backend": backend, "model": model, "request": self.to_json()}
        return hashlib.sha256(orjson.dumps(payload, option=orjson.OPT_SORT_KEYS)).hexdigest()


@dataclass(frozen=True)
class ChatReply:
    """The text of the first choice; ``cached`` says whether it came from the cache
    (tokens are those the service reported when the call was made). ``finish_reason``
    is the service's ("stop", "length" when cut at ``max_tokens``), when it gave one."""

    text: str
    prompt_tokens: int
    completion_tokens: int
    cached: bool = False
    finish_reason: str | None = None


@dataclass(frozen=True)
class LLMFailure:
    """Why a request finally failed, after ``attempts`` calls (retries included)."""

    reason: str
    """timeout | connection | http_<status> | malformed: <what>"""
    attempts: int
    detail: str = ""


class CallError(Exception):
    """One call failed. ``retryable`` failures are retried with backoff; a service's
    ``retry_after`` (seconds, from a 429 or 503) is waited at least."""

    def __init__(
        self,
        reason: str,
        detail: str = "",
        retryable: bool = True,
        retry_after: float | None = None,
    ) -> None:
        super().__init__(f"{reason}: {detail}" if detail else reason)
        self.reason = reason
        self.detail = detail
        self.retryable = retryable
        self.retry_after = retry_after


class LLMConfigError(ValueError):
    """The service refuses every request (bad key, unknown model, wrong URL): retrying
    cannot help, so the run stops with this message."""


@dataclass
class LLMStats:
    """What one client did. ``calls`` counts HTTP attempts (retries included);
    ``requests`` counts logical requests, of which ``cache_hits`` needed no call
    (found on disk, or shared with an identical request already in flight). Tokens
    are those of the calls made by this client, as the service reported them."""

    requests: int = 0
    cache_hits: int = 0
    calls: int = 0
    retries: int = 0
    failures: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    failure_reasons: dict[str, int] = field(default_factory=dict)
    retry_reasons: dict[str, int] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["failure_reasons"] = dict(sorted(self.failure_reasons.items()))
        data["retry_reasons"] = dict(sorted(self.retry_reasons.items()))
        return data
