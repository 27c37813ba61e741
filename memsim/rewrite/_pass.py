"""The rewrite pass: template records in, records with verified LLM rewrites out.

Guarantees:
- every message that states facts gets one request per attempt, at most
  ``max_attempts`` attempts; chit-chat (no facts) is left as it is, since nothing
  could check what a rewrite of it adds;
- a rewrite reaches the data only if :mod:`memsim.rewrite._checks` accepts it;
  otherwise, or when the service finally fails, the message keeps its template
  sentence; each message says which (``verbalizer``: ``template``, ``llm`` or
  ``template_fallback``), and an ``llm`` message keeps its ``template`` beside it;
- records come out in input order, whatever order replies arrive in; at most
  ``window`` records are held, so memory stays flat;
- the output depends only on the records and the replies (which the cache keeps),
  so a rerun after a kill gives the same bytes without repeating a completed call.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import datetime as dt
import re
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, TypeVar

from memsim.llm import ChatRequest, LLMClient, LLMConfigError, LLMFailure
from memsim.profile import Entity, Profile, load_profile
from memsim.qa import QAContext
from memsim.records import QA, Record, Turn
from memsim.rewrite._checks import (
    message_problems,
    question_phrases,
    question_problems,
    reason_kind,
    rewrite_vocabulary,
    stated_facts,
)
from memsim.rewrite._prompts import prompts_for
from memsim.schema import user_kind

Text = TypeVar("Text", Turn, QA)
"""What the pass rewrites: a turn's text or a question."""


class LLMUnavailableError(LLMConfigError):
    """The service failed many requests in a row: the run stops (completed calls are
    cached, so rerunning the command resumes)."""


@dataclass(frozen=True)
class RewriteOptions:
    backend: str
    model: str
    base_url: str | None = None
    concurrency: int = 8
    cache_dir: str | None = None
    paraphrase_questions: bool = False
    max_attempts: int = 3
    temperature: float = 0.0
    max_tokens: int = 256
    timeout: float = 60.0
    max_retries: int = 6

    def to_json(self) -> dict[str, Any]:
        """The settings that shape the output (not concurrency, cache or timeouts)."""
        return {
            "backend": self.backend,
            "model": self.model,
            "base_url": self.base_url,
            "paraphrase_questions": self.paraphrase_questions,
            "max_attempts": self.max_attempts,
            "temperature": self.temperature,
            "max_tokens": self.max_tokens,
        }


@dataclass
class RewriteAccount:
    """What the data needed: the same for a fresh run and for a resumed one."""

    messages: Counter[str] = field(default_factory=Counter)
    questions: Counter[str] = field(default_factory=Counter)
    requests: int = 0
    rejected: int = 0
    rejected_by_reason: Counter[str] = field(default_factory=Counter)
    fallbacks: Counter[str] = field(default_factory=Counter)
    failed_by_reason: Counter[str] = field(default_factory=Counter)
    prompt_tokens: int = 0
    completion_tokens: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "messages": dict(sorted(self.messages.items())),
            "questions": dict(sorted(self.questions.items())),
            "requests": self.requests,
            "rejected": self.rejected,
            "rejected_by_reason": dict(sorted(self.rejected_by_reason.items())),
            "fallbacks": dict(sorted(self.fallbacks.items())),
            "failed_by_reason": dict(sorted(self.failed_by_reason.items())),
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
        }


class Rewriter:
    def __init__(
        self, client: LLMClient, ctx: QAContext, profiles: Path, options: RewriteOptions
    ) -> None:
        self.client = client
        self.ctx = ctx
        self.profiles = profiles
        self.options = options
        self.prompts, self.prompts_sha256 = prompts_for(ctx.loc)
        self.vocab = rewrite_vocabulary(ctx)
        self.noise = {p.id: p for p in ctx.noise_profiles}
        self.account = RewriteAccount()
        self.window = 2 * options.concurrency + 4
        self.max_consecutive_failures = max(32, 2 * options.concurrency)
        self._consecutive_failures = 0
        self._stopped: LLMUnavailableError | None = None

    def manifest(self) -> dict[str, Any]:
        return {
            **self.options.to_json(),
            "prompts": {"locale": self.prompts.code, "sha256": self.prompts_sha256},
            "dataset": self.account.to_json(),
        }

    def rewrite(self, records: Iterable[Record]) -> Iterator[Record]:
        """The records with their messages (and questions) rewritten, in order."""
        window: deque[concurrent.futures.Future[Record]] = deque()
        try:
            for record in records:
                if record.profile_id is None:
                    raise ValueError(f"record {record.tid}: names no profile to rewrite from")
                profile = load_profile(self.profiles, int(record.profile_id[1:]))
                window.append(self.client.submit(self._record(record, profile)))
                if len(window) >= self.window:
                    yield self._result(window.popleft())
            while window:
                yield self._result(window.popleft())
        finally:
            for pending in window:
                pending.cancel()

    def _result(self, future: concurrent.futures.Future[Record]) -> Record:
        try:
            return future.result()
        except concurrent.futures.CancelledError:
            if self._stopped is not None:
                raise self._stopped from None
            raise

    async def _record(self, record: Record, profile: Profile) -> Record:
        """The record with its turns (and question) rewritten; its profile given."""
        kind = user_kind(self.ctx.schema)
        users = profile.of_kind(kind) if kind else []
        user = users[0] if users else None
        sessions = []
        for session in record.sessions:
            turns = await asyncio.gather(*(self._message(t, profile, user) for t in session.turns))
            sessions.append(replace(session, turns=tuple(turns)))
        qa = await self._question(record, profile, user)
        return replace(record, sessions=tuple(sessions), qa=qa)

    async def _message(self, turn: Turn, profile: Profile, user: Entity | None) -> Turn:
        if not turn.facts:
            self.account.messages["template"] += 1
            return replace(turn, verbalizer="template")
        facts = stated_facts(turn, profile, self.noise)
        return await self._rewrite(
            turn,
            turn.text,
            user,
            self.prompts.message_request,
            lambda template, rewrite: message_problems(
                template, rewrite, facts, self.ctx, self.vocab
            ),
            self.account.messages,
        )

    async def _question(self, record: Record, profile: Profile, user: Entity | None) -> QA:
        qa = record.qa
        if not self.options.paraphrase_questions:
            return qa
        phrases = question_phrases(record, profile, self.ctx)
        if not phrases:
            self.account.questions["template"] += 1
            return replace(qa, verbalizer="template")
        return await self._rewrite(
            qa,
            qa.question,
            user,
            self.prompts.question_request,
            lambda template, rewrite: question_problems(
                template, rewrite, phrases, self.ctx, self.vocab
            ),
            self.account.questions,
        )

    async def _rewrite(
        self,
        item: Text,
        template: str,
        user: Entity | None,
        request: Callable[[str, str, int, float, int], ChatRequest],
        problems: Callable[[str, str], list[str]],
        paths: Counter[str],
    ) -> Text:
        """``item`` (a turn or a question) with its ``template`` text rewritten in the
        user's voice (as of the item's time) and verified, or kept; the path taken is
        counted in ``paths``."""
        persona = self.prompts.persona_text(
            user, self.ctx.schema, self.ctx.loc, dt.datetime.fromisoformat(item.time)
        )
        o = self.options
        text, path = await self._attempts(
            lambda k: request(template, persona, k, o.temperature, o.max_tokens),
            lambda rewrite: problems(template, rewrite),
        )
        paths[path] += 1
        kept = template if path == "llm" else ""
        if isinstance(item, Turn):
            return replace(item, text=text or template, verbalizer=path, template=kept)
        return replace(item, question=text or template, verbalizer=path, template=kept)

    async def _attempts(
        self, request: Callable[[int], ChatRequest], problems: Callable[[str], list[str]]
    ) -> tuple[str | None, str]:
        """(accepted text, "llm") or (None, "template_fallback")."""
        for attempt in range(self.options.max_attempts):
            result = await self.client.complete(request(attempt))
            self.account.requests += 1
            if isinstance(result, LLMFailure):
                self._failed(result)
                return None, "template_fallback"
            self._consecutive_failures = 0
            self.account.prompt_tokens += result.prompt_tokens
            self.account.completion_tokens += result.completion_tokens
            text = clean(result.text)
            reasons = ["truncated"] if result.finish_reason == "length" else problems(text)
            if not reasons:
                return text, "llm"
            self.account.rejected += 1
            self.account.rejected_by_reason.update({reason_kind(r) for r in reasons})
        self.account.fallbacks["rejected"] += 1
        return None, "template_fallback"

    def _failed(self, failure: LLMFailure) -> None:
        self.account.fallbacks["failed"] += 1
        self.account.failed_by_reason[failure.reason] += 1
        self._consecutive_failures += 1
        if self._consecutive_failures >= self.max_consecutive_failures:
            self._stopped = LLMUnavailableError(
                f"the LLM service failed {self._consecutive_failures} requests in a row "
                f"(last: {failure.reason} {failure.detail}); completed calls are cached: "
                "rerun the same command to resume"
            )
            for task in asyncio.all_tasks():  # make no more calls
                if task is not asyncio.current_task():
                    task.cancel()
            raise self._stopped


_QUOTES = {'"': '"', "“": "”", "「": "」", "'": "'"}


def clean(text: str) -> str:
    """One line, no surrounding spaces, no pair of quotes around the whole."""
    text = re.sub(r"\s+", " ", text).strip()
    if len(text) >= 2 and _QUOTES.get(text[0]) == text[-1]:
        text = text[1:-1].strip()
    return text
