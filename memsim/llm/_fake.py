"""The fake "model" and its scripted faults, for :mod:`memsim.llm.testing`.

The model is deterministic: it keeps the text between ``<message>`` (or
``<question>``) tags whole and frames it colloquially. A :class:`Rule` picks requests
by a digest of their messages, so the same logical request is picked whichever SDK
sends it and whatever the order of arrival.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

Model = Callable[[list[dict[str, Any]]], str]

HTTP_FAULTS = ("http", "stall", "malformed_json", "not_json", "no_choices", "empty_content")
CONTENT_FAULTS = ("drop", "change", "invent", "invent_name", "leak")
INVENTED = {
    "en": " By the way, my neighbor Zelda turned {n} yesterday.",
    "zh": "顺便说一下，邻居小泽昨天{n}岁了。",
}
INVENTED_NAME = {
    # no number and, in English, no capital: only a list of known names can catch it
    "en": " afterwards we drove over to shanghai.",
    "zh": "后来我们去了乌鲁木齐。",
}
LEAKED = {"en": "Sure! Here is the rewritten message: ", "zh": "好的，以下是改写后的消息："}
FRAMES = {
    "en": ("Hey! {m}", "Quick update: {m}", "{m} Just so you know.", "So, anyway. {m}"),
    "zh": ("对了，{m}", "{m}跟你说一声。", "顺便说一下，{m}"),
}
DROPPED = {"en": "Hey! Guess what happened today.", "zh": "对了，今天发生了一件事。"}
TAGS = re.compile(r"<(message|question)>\s*(.*?)\s*</\1>", re.S)


@dataclass(frozen=True)
class Fault:
    """``http`` (an error ``status``, with ``retry_after`` seconds if set); ``stall``
    (answer only after ``seconds``); ``malformed_json``, ``not_json``,
    ``no_choices``, ``empty_content`` (a 200 that is not a usable completion); and
    the content faults ``drop`` (the facts are gone), ``change`` (digits shifted, or
    the last word reversed and capitalised), ``invent`` (a sentence with a new name and
    number), ``invent_name`` (a sentence with a new place name only, lowercase in English)
    and ``leak`` (meta-text before the rewrite)."""

    kind: str
    status: int = 500
    retry_after: float | None = None
    seconds: float = 0.0

    def __post_init__(self) -> None:
        if self.kind not in HTTP_FAULTS + CONTENT_FAULTS:
            raise ValueError(f"unknown fault {self.kind!r}")


@dataclass(frozen=True)
class Rule:
    """Apply ``fault`` to the requests whose digest is ``offset`` modulo ``every``
    (and whose last message contains ``match``, if set), on their first ``times``
    arrivals (``None``: always)."""

    fault: Fault
    every: int = 1
    offset: int = 0
    times: int | None = 1
    match: str | None = None


@dataclass(frozen=True)
class LogEntry:
    path: str
    authorization: str
    body: dict[str, Any]
    digest: int
    arrival: int
    """1 for the first request with these messages, 2 for the second, ..."""
    outcome: str
    """ok, or the fault applied"""
    status: int
    text: str | None
    prompt_tokens: int
    completion_tokens: int
    started: float
    finished: float


def faithful_model(messages: list[dict[str, Any]]) -> str:
    """Keeps the tagged message whole and frames it colloquially; without tags,
    echoes the last message."""
    last = str(messages[-1].get("content", ""))
    found = TAGS.findall(last)
    if not found:
        return f"You said: {last}"
    text = found[-1][1]
    frames = FRAMES[language(text)]
    return frames[digest(text) % len(frames)].format(m=text)


def language(text: str) -> str:
    return "zh" if re.search(r"[\u4e00-\u9fff]", text) else "en"


def tokens(text: str) -> int:
    return len(re.findall(r"\w+|[^\w\s]", text))


def digest(value: Any) -> int:
    data = json.dumps(value, sort_keys=True, ensure_ascii=False).encode()
    return int.from_bytes(hashlib.sha256(data).digest()[:8], "big")


def spoil(kind: str, reply: str) -> str:
    """What a content fault makes of a faithful reply."""
    lang = language(reply)
    if kind == "drop":
        return DROPPED[lang]
    if kind == "leak":
        return LEAKED[lang] + reply
    if kind == "invent_name":
        return reply + INVENTED_NAME[lang]
    if kind == "invent":
        n = next(n for n in range(47, 100) if str(n) not in reply)
        return reply + INVENTED[lang].format(n=n)
    if re.search(r"\d", reply):
        return re.sub(r"\d", lambda m: str((int(m[0]) + 1) % 10), reply)
    last = list(re.finditer(r"\w+", reply))[-1]
    return reply[: last.start()] + last[0][::-1].capitalize() + reply[last.end() :]


def completion(body: dict[str, Any], text: str) -> dict[str, Any]:
    messages = body.get("messages") or []
    prompt = sum(tokens(str(m.get("content", ""))) for m in messages)
    return {
        "id": f"chatcmpl-{digest(messages) % 10**12}",
        "object": "chat.completion",
        "created": 0,
        "model": body.get("model", "fake"),
        "choices": [
            {"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}
        ],
        "usage": {
            "prompt_tokens": prompt,
            "completion_tokens": tokens(text),
            "total_tokens": prompt + tokens(text),
        },
    }
