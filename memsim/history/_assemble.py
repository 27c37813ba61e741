"""Assemble one question's history: its evidence sessions and filler sessions from the
pool, to a token budget, with the evidence at a chosen depth.

Guarantees:
- the history holds the question's own sessions (the evidence block, kept whole and at
  its own times, so every evidence turn still says what it said when it said it) and
  filler sessions from the pool, none twice and none saying what one of its own
  sessions says;
- no filler session states a value for an (entity kind, attribute) that the question
  asks about (its provenance facts and withheld facts): a filler session from another
  life can never change the gold answer, whatever entity it talks about;
- the history's tokens (o200k_base, every turn's text) are within
  :data:`TOLERANCE` of the budget;
- ``depth`` d puts the evidence block after the share d of the filler tokens (0: first,
  1: last); the depth reached is recorded beside the one asked for;
- session starts strictly increase: filler before the block ends before it starts,
  filler after it starts after it ends, and the question comes after the last session.
  When filler follows the block, the question moves later only if no asked fact
  changes value in between and, for an answer counted from the day it is asked
  (:data:`DAY_ANSWERS`), only within that day; otherwise all filler goes before the
  block (depth 1, ``depth_forced``).
"""

from __future__ import annotations

import datetime as dt
import itertools
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import numpy as np
from numpy.typing import NDArray

from memsim.formats._store import STORE_FILE
from memsim.history._pool import FillerPool, fact_key, session_digest
from memsim.profile import Profile
from memsim.records import Record

TOLERANCE = 0.02
"""How far a history's tokens may be from its budget (a share of the budget)."""
SLACK = 0.004
"""Filling stops once the history is this close below its budget."""
GAP_MINUTES = (20, 8 * 60)
"""Pause between two sessions (log-uniform)."""
DEPTH_BUCKETS = (0.0, 0.25, 0.5, 0.75, 1.0)


def depth_bucket(depth: float) -> str:
    """The bucket of an evidence depth: [0, .25), [.25, .5), [.5, .75), [.75, 1]."""
    for low, high in itertools.pairwise(DEPTH_BUCKETS):
        if depth < high or high == DEPTH_BUCKETS[-1]:
            return f"{low:.2f}-{high:.2f}"
    raise AssertionError("unreachable")


class BudgetError(ValueError):
    """A history cannot be made to its budget (too small, or the pool runs out)."""


def record_tokens(record: Record, count: Callable[[str], int]) -> int:
    return sum(count(turn.text) for _, turn in record.iter_turns())


def assemble(
    record: Record,
    profile: Profile,
    pool: FillerPool,
    budget: int,
    depth: float,
    rng: np.random.Generator,
    count: Callable[[str], int],
) -> Record:
    """The record with its history: block sessions inline, filler as references in
    ``extra["history"]`` (expanded by :func:`memsim.history.expand`)."""
    block = record_tokens(record, count)
    room = budget - block
    if room < 0:
        raise BudgetError(
            f"question {record.tid}: its own sessions have {block} tokens, more than the "
            f"budget of {budget}"
        )
    prov = record.qa.provenance
    asked_ids = (*prov.fact_ids, *prov.withheld) if prov is not None else ()
    own = {session_digest((t.speaker, t.text) for t in s.turns) for s in record.sessions}
    usable = pool.usable({fact_key(f) for f in asked_ids}, own)
    chosen = _fill(pool, usable, room, int(SLACK * budget), rng)
    tokens = pool.session_tokens[chosen]
    filled = int(tokens.sum())
    if abs(budget - block - filled) > TOLERANCE * budget:
        raise BudgetError(
            f"question {record.tid}: the filler sessions it may use ({int(usable.sum())} of "
            f"{len(pool.sessions)}) do not come within 2% ({int(TOLERANCE * budget)} tokens) "
            f"of the budget of {budget} tokens; use a larger budget"
        )
    split = _split(tokens, depth)
    gaps = _gaps(rng, len(chosen) + 1)
    starts, question = _times(record, pool.minutes[chosen], split, gaps)
    asked_at = dt.datetime.fromisoformat(record.qa.time)
    forced = split < len(chosen) and not (
        _stable(profile, asked_ids, asked_at, question)
        and (question.date() == asked_at.date() or not _counts_from_asking(record))
    )
    if forced:
        split = len(chosen)
        starts, question = _times(record, pool.minutes[chosen], split, gaps)
    stamps = np.datetime_as_string(starts, unit="m").tolist()
    ids = pool.ids[chosen].tolist()
    sessions: list[dict[str, Any]] = [
        {"id": sid, "start": stamp} for sid, stamp in zip(ids[:split], stamps, strict=False)
    ]
    sessions += [{"id": s.id, "start": s.start} for s in record.sessions]
    sessions += [
        {"id": sid, "start": stamp} for sid, stamp in zip(ids[split:], stamps[split:], strict=False)
    ]
    before = int(tokens[:split].sum())
    evidence = set(record.qa.evidence)
    history = {
        "budget": budget,
        "tokens": block + filled,
        "depth": depth,
        "evidence_depth": round(before / filled, 6) if filled else 0.0,
        "depth_forced": forced,
        "evidence_sessions": [
            s.id for s in record.sessions if any(t.id in evidence for t in s.turns)
        ],
        "filler_sessions": len(chosen),
        "store": STORE_FILE,
        "sessions": sessions,
    }
    when = _iso(question)
    qa = record.qa
    if prov is not None and when != qa.time:
        qa = replace(qa, provenance=replace(prov, reference_time=when))
    qa = replace(qa, time=when)
    return replace(record, qa=qa, extra={**record.extra, "history": history})


def _fill(
    pool: FillerPool, usable: NDArray[np.bool_], room: int, slack: int, rng: np.random.Generator
) -> NDArray[np.int64]:
    """Pool indices drawn (by weight) until the room is filled to within ``slack``:
    the longest prefix of the draw that fits, then later sessions small enough."""
    order = pool.draw_order(rng)
    order = order[usable[order]]
    sizes = pool.session_tokens[order]
    taken = int(np.searchsorted(np.cumsum(sizes), room, side="right"))
    chosen = [order[:taken]]
    total = int(sizes[:taken].sum())
    for i in range(taken, len(order)):
        if room - total <= slack:
            break
        if total + int(sizes[i]) <= room:
            chosen.append(order[i : i + 1])
            total += int(sizes[i])
    return np.concatenate(chosen).astype(np.int64)


def _split(tokens: NDArray[np.int64], depth: float) -> int:
    """How many filler sessions go before the block: the cut closest to ``depth``."""
    cuts = np.concatenate([[0], np.cumsum(tokens)])
    return int(np.argmin(np.abs(cuts - depth * cuts[-1])))


def _gaps(rng: np.random.Generator, n: int) -> NDArray[np.int64]:
    """Minutes between sessions (log-uniform on :data:`GAP_MINUTES`)."""
    low, high = np.log(GAP_MINUTES[0]), np.log(GAP_MINUTES[1])
    return np.exp(rng.uniform(low, high, size=n)).astype(np.int64)


def _times(
    record: Record, minutes: NDArray[np.int64], split: int, gaps: NDArray[np.int64]
) -> tuple[NDArray[np.datetime64], dt.datetime]:
    """Start of every filler session (in order) and the question's time: filler before
    the block ends a gap before the next session starts; filler after it starts a gap
    after the previous one ends."""
    first = np.datetime64(record.sessions[0].start, "m")
    last = np.datetime64(record.sessions[-1].turns[-1].time, "m")
    step = minutes + gaps[: len(minutes)]
    # before: session j starts at first - sum over j..split-1 of (minutes + gap)
    back = np.cumsum(step[:split][::-1])[::-1]
    before = first - back.astype("timedelta64[m]")
    # after: session j starts at last + gap_j + sum over split..j-1 of (minutes + gap)
    forward = np.cumsum(step[split:]) - minutes[split:]
    after = last + forward.astype("timedelta64[m]")
    question = dt.datetime.fromisoformat(record.qa.time)
    if len(after):
        end = last + np.timedelta64(int(step[split:].sum() + gaps[-1]), "m")
        question = max(question, end.astype(dt.datetime))
    return np.concatenate([before, after]), question


DAY_ANSWERS = ("elapsed",)
"""Transforms whose answer counts from the day the question is asked."""


def _counts_from_asking(record: Record) -> bool:
    """Whether the answer depends on the question's day (it must not move to another)."""
    prov = record.qa.provenance
    if prov is None:
        return False
    parts = prov.params.get("parts") if prov.transform == "hybrid" else None
    transforms = [p.get("transform") for p in parts] if isinstance(parts, list) else []
    return any(t in DAY_ANSWERS for t in (prov.transform, *transforms))


def _stable(
    profile: Profile, fact_ids: tuple[str, ...], old: dt.datetime, new: dt.datetime
) -> bool:
    """Whether every asked fact has the same value at ``old`` and at ``new``."""
    a, b = _iso(old), _iso(new)
    for fid in fact_ids:
        fact = profile.fact(fid)
        if fact.value_at(a) != fact.value_at(b):
            return False
    return True


def _iso(when: dt.datetime) -> str:
    return when.isoformat(timespec="minutes")
