"""LLM-written assistant turns, verified; the template reply is kept when one fails.

A chat model (any backend of :mod:`memsim.llm`: the same client, cache, retries and
resume as the message rewrites) gets the user's turn and the template reply, and
rewrites the reply to answer that turn naturally (the locale's
``conversation.llm_prompt``). A reply is kept only when:

- :func:`memsim.history.turn_problems` finds nothing: it states no value of any fact
  of the profile that the user has not said before it, and not the answer;
- it brings in no number and no capitalised word (a possible name) that neither the
  user's turn nor the template reply holds, and no meta text ("here is the rewrite");

else, and when the call fails after the client's retries, the template reply stays.
Each kept reply's turn says ``verbalizer = "llm:<backend>/<model>"``. Replies are
cached by request, so a rerun or a resumed run makes no call for what it has.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace

from memsim.llm import ChatReply, ChatRequest, LLMClient
from memsim.profile import Profile
from memsim.records import ASSISTANT, USER, Record, Session, Turn
from memsim.verbalize import LocaleData
from memsim.verify import meta_text_in, new_capitalised, new_numbers

MAX_TOKENS = 120


@dataclass(frozen=True)
class AssistantLLM:
    """Which chat model writes assistant turns (``memsim generate --assistant``)."""

    backend: str
    model: str
    base_url: str | None = None
    concurrency: int = 8
    cache_dir: str | None = None

    def to_json(self) -> dict[str, object]:
        return {"backend": self.backend, "model": self.model, "base_url": self.base_url}


@dataclass
class AssistantWriter:
    """Rewrites the assistant turns of records with a client; counts what it did."""

    client: LLMClient
    loc: LocaleData
    label: str
    counts: Counter[str] = field(default_factory=Counter)

    def rewrite(self, record: Record, profile: Profile | None) -> Record:
        prompt = self.loc.conversation.llm_prompt if self.loc.conversation else None
        if not prompt:
            raise ValueError(f"locale '{self.loc.code}' has no conversation.llm_prompt")
        asks: list[tuple[int, int, Turn]] = []
        requests: list[ChatRequest] = []
        for s, session in enumerate(record.sessions):
            for k, turn in enumerate(session.turns):
                if turn.speaker != ASSISTANT or turn.facts:
                    continue  # a turn stating a fact (an assistant_said reply) stays
                user = session.turns[k - 1].text if k else ""
                content = f"<user>{user}</user>\n<message>{turn.text}</message>"
                asks.append((s, k, turn))
                requests.append(
                    ChatRequest((("system", prompt), ("user", content)), max_tokens=MAX_TOKENS)
                )
        replies = self.client.complete_all(requests) if requests else []
        sessions = [list(session.turns) for session in record.sessions]
        for (s, k, turn), reply in zip(asks, replies, strict=True):
            if not isinstance(reply, ChatReply):
                self.counts["failed"] += 1
                continue
            text = reply.text.strip()
            user = sessions[s][k - 1].text if k else ""
            if self._problems(record, profile, s, k, text, source=f"{user} {turn.text}"):
                self.counts["rejected"] += 1
                continue
            self.counts["kept"] += 1
            sessions[s][k] = replace(turn, text=text, verbalizer=self.label)
        return replace(
            record,
            sessions=tuple(
                Session(o.id, o.start, tuple(t), o.topic)
                for o, t in zip(record.sessions, sessions, strict=True)
            ),
        )

    def _problems(
        self, record: Record, profile: Profile | None, s: int, k: int, text: str, source: str
    ) -> bool:
        if not text or meta_text_in(text, self.loc):
            return True
        if new_numbers(source, text, self.loc) or new_capitalised(source, text, self.loc):
            return True
        if profile is None:
            return False
        from memsim.history._assistant import turn_problems

        said = [
            ("", USER, "", t.time, t.facts)
            for session in record.sessions[: s + 1]
            for t in (session.turns if session is not record.sessions[s] else session.turns[:k])
            if t.speaker == USER
        ]
        turn = record.sessions[s].turns[k]
        checked = [*said, ("", ASSISTANT, text, turn.time, ())]
        return bool(turn_problems(checked, record.qa.answer, profile, self.loc))


def open_writer(config: AssistantLLM, loc: LocaleData) -> AssistantWriter:
    from memsim.llm import make_client

    client = make_client(
        config.backend,
        config.model,
        base_url=config.base_url,
        concurrency=config.concurrency,
        cache_dir=config.cache_dir,
    )
    return AssistantWriter(client, loc, f"llm:{config.backend}/{config.model}")
