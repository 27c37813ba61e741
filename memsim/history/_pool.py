"""The filler pool: sessions that fill histories up to their token budget, made once
and shared by every history of a dataset.

Guarantees:
- filler sessions are made exactly as evidence sessions are (a question's trajectory
  from another sampled profile of the same schema, through :func:`into_sessions`),
  so a filler session has the same form as an evidence session; a share of them
  (:data:`GENERIC_SHARE`) are generic task sessions that state no fact;
- fact ids in filler turns are qualified by the profile they come from
  (``p1002000007:relative[0].age``), so they are never taken for the asking profile's;
- no two pool sessions say the same (same speakers and texts): a repeat is dropped;
- each session is written once to the store (``sessions.jsonl``) as it is made; the
  pool keeps only small metadata (id, tokens, the (entity kind, attribute) keys its
  turns state), so memory does not grow with the texts;
- the pool depends only on the schema, the seed, the QA kinds and the budget.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import IO, Any

import numpy as np
import orjson
from numpy.typing import NDArray

from memsim.dataset._generate import GenerateOptions, GenerationError, make_record, plan
from memsim.history._sessions import conversation_of, into_sessions
from memsim.profile import Profile
from memsim.qa import QAContext
from memsim.records import ASSISTANT, QA, USER, Record, Session, Turn
from memsim.sampling import ProfileSampler

HISTORY_STREAM = 14
"""First spawn key of every random stream of histories: (14, 0, i) pool record i,
(14, 1, i) generic session i, (14, 2, tid) the assembly of question tid."""
POOL_PROFILE_START = 3 * 10**9
"""Index of the first pool profile (questions use 0.., the value pool 10**9..)."""
POOL_TID_START = 3 * 10**9
"""Trajectory stream index of pool record i (questions use their tid)."""
POOL_FACTOR = 3.0
"""Pool tokens per token of budget: room for the sessions a question's filter drops."""
GENERIC_SHARE = 0.1
"""Share of pool sessions that are generic task sessions (no fact)."""
MIN_POOL_TOKENS = 20_000

Rewrite = Callable[[Record, Profile | None], Record]
"""Rewrites a record's assistant turns (:class:`memsim.history.AssistantWriter`)."""


def stream(seed: int, *key: int) -> np.random.Generator:
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(HISTORY_STREAM, *key)))


def fact_key(fact_id: str) -> tuple[str, str]:
    """(entity kind, attribute) of a fact id, qualified or not (``relative[1].age``
    -> ``("relative", "age")``)."""
    local = fact_id.rsplit(":", 1)[-1]
    entity, attribute = local.rsplit(".", 1)
    return entity.split("[", 1)[0], attribute


@dataclass(frozen=True, slots=True)
class PoolSession:
    id: str
    tokens: int
    keys: frozenset[tuple[str, str]]
    minutes: int
    """From the session's first turn to its last."""
    digest: bytes
    """Of its turns' speakers and texts: two sessions that say the same are one."""
    weight: int
    """User turns that state a fact (at least 1): a session is drawn into a history with
    this weight, as a question's evidence lands in a session in proportion to the
    facts it holds (else evidence sessions would stand out by being longer)."""


def session_digest(turns: Iterable[tuple[str, str]]) -> bytes:
    """A digest of (speaker, text) pairs, the same in every process and run."""
    h = hashlib.blake2b(digest_size=12)
    for speaker, text in turns:
        h.update(speaker.encode() + b"\x00" + text.encode() + b"\x01")
    return h.digest()


def session_json(session: Session, tokens: int, source: str | None) -> dict[str, Any]:
    """A store line: turns with minute offsets from the start (histories give the start)."""
    start = dt.datetime.fromisoformat(session.start)
    turns = []
    for turn in session.turns:
        facts = [f if ":" in f or source is None else f"{source}:{f}" for f in turn.facts]
        turns.append(
            {
                "speaker": turn.speaker,
                "text": turn.text,
                "offset": int((dt.datetime.fromisoformat(turn.time) - start).total_seconds() // 60),
                "place": turn.place,
                "purpose": "filler" if facts else turn.purpose,
                "facts": facts,
            }
        )
    return {"id": session.id, "topic": session.topic, "tokens": tokens, "turns": turns}


class FillerPool:
    """Pool sessions made for a budget and written to ``store`` as they are made."""

    def __init__(self, sessions: list[PoolSession]) -> None:
        self.sessions = sessions
        self.tokens = sum(s.tokens for s in sessions)
        self.weights = np.array([s.weight for s in sessions], dtype=np.float64)
        self.session_tokens = np.array([s.tokens for s in sessions], dtype=np.int64)
        self.minutes = np.array([s.minutes for s in sessions], dtype=np.int64)
        self.ids = np.array([s.id for s in sessions], dtype=object)
        self.by_digest = {s.digest: i for i, s in enumerate(sessions)}
        self._with_key: dict[tuple[str, str], NDArray[np.bool_]] = {}
        for i, session in enumerate(sessions):
            for key in session.keys:
                mask = self._with_key.get(key)
                if mask is None:
                    mask = self._with_key[key] = np.zeros(len(sessions), dtype=np.bool_)
                mask[i] = True

    def usable(self, asked: set[tuple[str, str]], digests: set[bytes]) -> NDArray[np.bool_]:
        """Sessions that state nothing of the ``asked`` (entity kind, attribute) keys
        and say nothing the same as a session of ``digests``."""
        ok = np.ones(len(self.sessions), dtype=np.bool_)
        for key in asked:
            mask = self._with_key.get(key)
            if mask is not None:
                ok &= ~mask
        for digest in digests:
            if digest in self.by_digest:
                ok[self.by_digest[digest]] = False
        return ok

    def draw_order(self, rng: np.random.Generator) -> NDArray[np.int64]:
        """All pool indices in a random order, each session drawn with its weight
        (weighted sampling without replacement by exponential keys)."""
        keys = rng.exponential(size=len(self.sessions)) / self.weights
        return np.argsort(keys, kind="stable")

    @classmethod
    def build(
        cls,
        ctx: QAContext,
        options: GenerateOptions,
        budget: int,
        count: Any,
        store: IO[bytes],
        assistant: Rewrite | None = None,
    ) -> FillerPool:
        """``count(text) -> tokens``; sessions go to ``store`` one JSON line each;
        ``assistant`` rewrites assistant turns (as it does the questions' own)."""
        target = max(MIN_POOL_TOKENS, int(POOL_FACTOR * budget))
        made: list[PoolSession] = []
        seen: set[bytes] = set()
        total = 0
        for session, source in _sessions(ctx, options, assistant):
            digest = session_digest((t.speaker, t.text) for t in session.turns)
            if digest in seen:
                continue  # a short session that says what another says: keep one
            seen.add(digest)
            tokens = sum(count(t.text) for t in session.turns)
            line = session_json(session, tokens, source)
            store.write(orjson.dumps(line) + b"\n")
            keys = frozenset(fact_key(f) for t in line["turns"] for f in t["facts"])
            minutes = line["turns"][-1]["offset"]
            weight = max(1, sum(1 for t in line["turns"] if t["facts"]))
            made.append(PoolSession(session.id, tokens, keys, minutes, digest, weight))
            total += tokens
            if total >= target:
                break
        return cls(made)


def _sessions(
    ctx: QAContext, options: GenerateOptions, assistant: Rewrite | None
) -> Iterator[tuple[Session, str | None]]:
    """Pool sessions, endlessly: after every ``1/GENERIC_SHARE - 1`` records' sessions, a
    generic task session."""
    steps = plan(options, ctx.schema)
    sampler = ProfileSampler(ctx.net)
    every = max(1, round(1 / GENERIC_SHARE) - 1)
    i = 0
    while True:
        start = POOL_PROFILE_START + i
        for profile in sampler.profiles(options.seed, start, start + 64):
            kind, scenario = steps[i % len(steps)]
            try:
                raw = make_record(ctx, profile, kind, scenario, POOL_TID_START + i, options.seed)
            except GenerationError:
                raw = None
            if raw is not None:
                record = raw
                rng = stream(options.seed, 0, i)
                made = into_sessions(record, ctx.loc, rng, f"f{i:07d}")
                if assistant is not None:
                    made = assistant(made, profile)
                for session in made.sessions:
                    yield session, profile.id
            if i % every == every - 1:
                generic = generic_session(ctx, stream(options.seed, 1, i), f"g{i:07d}")
                if assistant is not None:
                    alone = Record(-1, "generic", "", (generic,), QA("", "", (), None, (), ""))
                    generic = assistant(alone, None).sessions[0]
                yield generic, None
            i += 1


def generic_session(ctx: QAContext, rng: np.random.Generator, sid: str) -> Session:
    """A task session that states no fact: a task, the assistant's help, some chit-chat
    and the thanks, on a day of the timeline."""
    conv = conversation_of(ctx.loc)
    task = conv.tasks[int(rng.integers(len(conv.tasks)))]
    lines = ctx.loc.chit_chat
    chat = [
        lines[int(j)] for j in rng.choice(len(lines), size=int(rng.integers(1, 3)), replace=False)
    ]

    def pick(options: list[str]) -> str:
        return options[int(rng.integers(len(options)))]

    said = [(USER, pick(task.opener)), (ASSISTANT, pick(task.help))]
    for line in chat:
        said += [(USER, line), (ASSISTANT, pick(conv.replies))]
    said += [(USER, pick(conv.thanks)), (ASSISTANT, pick(conv.welcome))]
    timeline = ctx.schema.timeline
    day = timeline.start + dt.timedelta(
        days=int(rng.integers((timeline.end - timeline.start).days))
    )
    now = dt.datetime.combine(day, dt.time(9)) + dt.timedelta(minutes=int(rng.integers(0, 600)))
    turns = []
    for k, (speaker, text) in enumerate(said):
        when = (now + dt.timedelta(minutes=k)).isoformat(timespec="minutes")
        purpose = "chit_chat" if speaker == USER else ""
        turns.append(Turn(k, speaker, text, when, ctx.loc.home, purpose))
    return Session(sid, turns[0].time, tuple(turns), task.topic)
