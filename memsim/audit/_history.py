"""Audit checks of multi-session histories (:mod:`memsim.history`).

They apply to a native dataset folder that has a session store (``sessions.jsonl``)
and read its histories expanded, one at a time, in the check's ``finish`` (a history
of a million tokens is never held whole beside the others). On any other data they
find nothing and say so in a note.

``history_structure`` proves, for every history: session starts strictly increase,
turn times strictly increase and come after their session's start, and the question
comes after the last turn; every evidence turn lies inside a session the history
names as an evidence session; no session appears twice (by id or by what it says);
no filler turn states a fact of an (entity kind, attribute) the question asks about;
the history's tokens (recounted with o200k_base) are within 2% of its budget and
are what the record says; the evidence depth is what the record says.
"""

from __future__ import annotations

import datetime as dt
import importlib.util
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from memsim.audit._context import AuditContext
from memsim.audit._framework import dataset_check
from memsim.audit._types import AuditItem, CheckStats, Finding
from memsim.records import Record, Session

DEPTH_TOLERANCE = 1e-4
TOLERANCE = 0.02


def history_folder(ctx: AuditContext) -> Path | None:
    """The dataset folder when it holds histories (a session store), else None."""
    from memsim.history import STORE_FILE

    data = ctx.source.data_file or ctx.source.path
    if ctx.source.format != "native":
        return None
    # the source names the folder or its dataset.jsonl (a folder taken for the file
    # once made every history check find "no sessions.jsonl" and pass vacuously)
    folder = data if data.is_dir() else data.parent
    return folder if (folder / STORE_FILE).is_file() else None


def histories(folder: Path) -> Iterator[tuple[Record, set[str]]]:
    """Every history expanded, with the ids of the question's own (inline) sessions."""
    from memsim.history import STORE_FILE, SessionStore, expand, read_histories

    with SessionStore(folder / STORE_FILE) as store:
        for record in read_histories(folder, expanded=False):
            yield expand(record, store), {s.id for s in record.sessions}


@dataset_check(
    "history_structure",
    "every history has sessions in time order, its evidence inside evidence sessions, no "
    "session twice, no filler about an asked attribute, its token budget within 2% and "
    "the evidence depth it records",
    "structure",
    needs=("provenance",),
)
class HistoryStructure:
    def __init__(self, ctx: AuditContext, stats: CheckStats) -> None:
        self.ctx, self.stats = ctx, stats
        self.folder = history_folder(ctx)
        self.count: Callable[[str], int] | None = None
        if self.folder is None:
            # nothing to count: only say whether counting would be possible (loading
            # the tokenizer's vocabularies costs half a second of every audit)
            if importlib.util.find_spec("bpe_openai") is None:
                stats.notes.append("token budgets not recounted: install memsim[tokens]")
        else:
            try:
                from memsim._tokens import TokenCounter

                self.count = TokenCounter().count
            except ImportError:
                stats.notes.append("token budgets not recounted: install memsim[tokens]")
        self.session_tokens: dict[str, int] = {}

    def visit(self, item: AuditItem) -> None:
        return None

    def finish(self) -> list[Finding]:
        if self.folder is None:
            self.stats.notes.append("not a history dataset (no sessions.jsonl): nothing to check")
            return []
        out: list[Finding] = []
        for record, own in histories(self.folder):
            self.stats.items += 1
            for problem in self._problems(record, own):
                self.stats.counts[problem.split(":", 1)[0]] += 1
                out.append(
                    Finding(
                        "history_structure",
                        "error",
                        problem,
                        record.tid,
                        record.qa.qid,
                        record.type,
                        record.scenario,
                        f"dataset.jsonl tid {record.tid}",
                    )
                )
        return out

    def _problems(self, record: Record, own: set[str]) -> Iterator[str]:
        history: dict[str, Any] = dict(record.extra["history"])
        yield from _time_order(record)
        yield from _evidence_inside(record, history)
        yield from _no_repeats(record)
        yield from _filler_off_question(record)
        if self.count is not None:
            tokens = [(s.id in own, self._tokens(s, s.id in own)) for s in record.sessions]
            yield from _budget(tokens, history)
            yield from _depth(tokens, history)

    def _tokens(self, session: Session, own: bool) -> int:
        """Tokens of a session; a stored session's are counted once per audit."""
        assert self.count is not None
        known = None if own else self.session_tokens.get(session.id)
        if known is None:
            known = sum(self.count(t.text) for t in session.turns)
            if not own:
                self.session_tokens[session.id] = known
        return known


def _budget(tokens: list[tuple[bool, int]], history: dict[str, Any]) -> Iterator[str]:
    total = sum(n for _, n in tokens)
    budget = int(history["budget"])
    if total != history["tokens"]:
        yield f"tokens: the history has {total} tokens, the record says {history['tokens']}"
    if abs(total - budget) > TOLERANCE * budget:
        yield f"budget: {total} tokens, more than 2% from the budget of {budget}"


def _depth(tokens: list[tuple[bool, int]], history: dict[str, Any]) -> Iterator[str]:
    """The share of filler tokens before the question's own sessions, as recorded."""
    first_own = next((i for i, (own, _) in enumerate(tokens) if own), len(tokens))
    filler = sum(n for own, n in tokens if not own)
    before = sum(n for own, n in tokens[:first_own] if not own)
    depth = before / filler if filler else 0.0
    recorded = float(history["evidence_depth"])
    if abs(depth - recorded) > DEPTH_TOLERANCE:
        yield f"depth: the evidence sits at depth {depth:.4f}, the record says {recorded}"
    if any(own for own, _ in tokens[first_own:]) and not all(
        own for own, _ in tokens[first_own : first_own + sum(o for o, _ in tokens)]
    ):
        yield "depth: the question's own sessions are not together"


def _time_order(record: Record) -> Iterator[str]:
    last_start: str | None = None
    last_turn: dt.datetime | None = None
    for session in record.sessions:
        if last_start is not None and session.start <= last_start:
            yield (
                f"time order: session {session.id} starts at {session.start}, "
                f"not after {last_start}"
            )
        last_start = session.start
        start = dt.datetime.fromisoformat(session.start)
        for turn in session.turns:
            when = dt.datetime.fromisoformat(turn.time)
            if when < start or (last_turn is not None and when <= last_turn):
                yield f"time order: turn {turn.id} of session {session.id} at {turn.time}"
            last_turn = when
    if last_turn is not None and dt.datetime.fromisoformat(record.qa.time) <= last_turn:
        yield f"time order: the question ({record.qa.time}) is not after the last turn"


def _evidence_inside(record: Record, history: dict[str, Any]) -> Iterator[str]:
    named = set(history.get("evidence_sessions", ()))
    where = {t.id: s.id for s, t in record.iter_turns()}
    for tid in record.qa.evidence:
        sid = where.get(tid)
        if sid is None:
            yield f"evidence: turn {tid} is in no session of the history"
        elif sid not in named:
            yield f"evidence: turn {tid} is in session {sid}, not an evidence session"


def _no_repeats(record: Record) -> Iterator[str]:
    from memsim.history._pool import session_digest

    ids: set[str] = set()
    said: set[bytes] = set()
    for session in record.sessions:
        digest = session_digest((t.speaker, t.text) for t in session.turns)
        if session.id in ids or digest in said:
            yield f"repeat: session {session.id} appears twice in the history"
        ids.add(session.id)
        said.add(digest)


def _filler_off_question(record: Record) -> Iterator[str]:
    from memsim.history import fact_key

    prov = record.qa.provenance
    if prov is None:
        return
    asked = {fact_key(f) for f in (*prov.fact_ids, *prov.withheld)}
    for session, turn in record.iter_turns():
        if turn.purpose != "filler" or not any(":" in f for f in turn.facts):
            continue
        hit = sorted({fact_key(f) for f in turn.facts} & asked)
        if hit:
            yield (
                f"filler: turn {turn.id} of filler session {session.id} states "
                f"{', '.join('.'.join(k) for k in hit)}, which the question asks about"
            )
