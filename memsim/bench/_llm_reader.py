"""The ``llm`` reader: a chat model answers each multiple-choice question from the
retrieved memory, through :mod:`memsim.llm` (any OpenAI-compatible endpoint, or ZhipuAI).

Guarantees: the prompt holds the retrieved messages (oldest first, each with its time
and place), the time the question is asked, the question and the four options, in the
data's language (Chinese prompts for questions in Chinese); the model's reply is read by
:func:`parse_choice`, and a reply that names no single option, or a request that fails
after its retries, is an unanswered item (scored wrong, counted), never a crash or a
guess; replies are cached on disk like every LLM call of memsim, so a rerun asks nothing
again. Requests run concurrently (``concurrency``), a batch at a time.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from memsim._yaml import safe_load
from memsim.bench._parse import parse_choice
from memsim.bench._reader import READER, Reader, ReaderItem, render_memory
from memsim.bench._tokenize import has_cjk

PROMPTS = Path(__file__).parent / "prompts"


@lru_cache(maxsize=4)
def prompt_templates(code: str) -> dict[str, str]:
    data: dict[str, str] = safe_load((PROMPTS / f"{code}.yaml").read_bytes(), code)
    return data


def build_messages(item: ReaderItem) -> tuple[tuple[str, str], ...]:
    """The chat messages that ask ``item``: system instructions, then the memory, the
    question time, the question and the options."""
    t = prompt_templates("zh" if has_cjk(item.question) else "en")
    memory = render_memory(item.memory).rstrip("\n") or t["no_memory"]
    options = "\n".join(f"{letter}. {text}" for letter, text in sorted(item.choices.items()))
    user = t["user"].format(
        memory=memory, time=item.question_time, question=item.question, options=options
    )
    return (("system", t["system"]), ("user", user))


@READER.register("llm")
class LLMReader(Reader):
    """A chat model picks the letter (see the module docstring)."""

    name = "llm"
    kind = "LLM"

    def __init__(
        self,
        backend: str = "openai",
        model: str | None = None,
        base_url: str | None = None,
        concurrency: int = 8,
        cache_dir: str | None = None,
        timeout: float = 60.0,
        max_retries: int = 6,
    ) -> None:
        from memsim.llm import make_client

        self.backend, self.model = backend, model or ""
        self.client = make_client(
            backend,
            self.model,
            base_url=base_url,
            concurrency=concurrency,
            cache_dir=cache_dir,
            timeout=timeout,
            max_retries=max_retries,
        )
        self.unparsed = 0
        self.failed = 0

    def answer(self, items: Sequence[ReaderItem]) -> list[str | None]:
        from memsim.llm import ChatRequest, LLMFailure

        requests = [ChatRequest(build_messages(item), max_tokens=16) for item in items]
        out: list[str | None] = []
        for item, reply in zip(items, self.client.complete_all(requests), strict=True):
            if isinstance(reply, LLMFailure):
                self.failed += 1
                out.append(None)
                continue
            letter = parse_choice(reply.text, item.choices)
            self.unparsed += letter is None
            out.append(letter)
        return out

    def describe(self) -> dict[str, object]:
        """What the results depend on (the endpoint's URL is left out, as from the cache
        key: the same model behind another address gives the same answers)."""
        return {"name": self.name, "kind": self.kind, "backend": self.backend, "model": self.model}

    def run_stats(self) -> dict[str, Any]:
        return {
            **self.client.stats.to_json(),
            "unparsed_replies": self.unparsed,
            "failed_requests": self.failed,
        }

    def close(self) -> None:
        self.client.close()
