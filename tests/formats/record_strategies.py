"""Small random native records for the formats' round-trip tests, and what each format
holds of a record (its "view"), so that native -> format -> reader is compared on exactly
the fields the format holds.

``records()`` guarantees what native generation guarantees: unique tids, unique turn ids
within a record (not necessarily 0..n-1), unique session ids, ISO-minute times that never
go back, a session starting at its first turn, evidence naming turns of the record, four
distinct options with a gold letter or none at all, and the question asked after its
history.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from memsim.formats._dates import iso_minute, sessions_by_day
from memsim.records import LETTERS, QA, Provenance, Record, Session, Turn

SETTINGS = settings(
    max_examples=40,
    deadline=None,
    database=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
KINDS = (
    "simple", "conditional", "comparative", "aggregative", "post_processing", "noisy",
    "knowledge_update", "temporal", "abstention",
)  # fmt: skip
TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=30)
START = dt.datetime(1990, 1, 1)


@st.composite
def record(draw: st.DrawFn, tid: int) -> Record:
    n_sessions = draw(st.integers(1, 3))
    sizes = [draw(st.integers(1, 4)) for _ in range(n_sessions)]
    ids = draw(
        st.lists(st.integers(0, 10**6), min_size=sum(sizes), max_size=sum(sizes), unique=True)
    )
    clock = START + dt.timedelta(minutes=draw(st.integers(0, 60 * 24 * 365 * 40)))
    sessions, turns_so_far = [], []
    for s, size in enumerate(sizes):
        turns = []
        for _ in range(size):
            clock += dt.timedelta(minutes=draw(st.integers(0, 60 * 24 * 3)))
            turn = Turn(
                id=ids[len(turns_so_far)],
                speaker=draw(st.sampled_from(("user", "assistant"))),
                text=draw(TEXT),
                time=iso_minute(clock),
                place=draw(st.sampled_from(("", "home, Boston"))),
                purpose=draw(st.sampled_from(("evidence", "filler", "noise", ""))),
                facts=tuple(
                    draw(st.lists(st.sampled_from(("user.age", "relative[0].name")), max_size=2))
                ),
            )
            turns.append(turn)
            turns_so_far.append(turn)
        sessions.append(
            Session(f"s{s}", turns[0].time, tuple(turns), draw(st.sampled_from(("", "work"))))
        )
    kind = draw(st.sampled_from(KINDS))
    evidence = draw(st.lists(st.sampled_from(ids), max_size=3, unique=True))
    if draw(st.booleans()):
        options = tuple(draw(st.lists(TEXT, min_size=4, max_size=4, unique=True)))
        gold: str | None = draw(st.sampled_from(LETTERS))
    else:
        options, gold = (), None
    provenance = None
    if draw(st.booleans()):
        provenance = Provenance(
            fact_ids=("user.age",),
            transform=draw(st.sampled_from(("identity", "age_difference"))),
            params={"entity": "user", "k": draw(st.integers(0, 9))},
            reference_time=iso_minute(clock),
            answer_value=draw(st.one_of(st.none(), st.integers(), TEXT)),
        )
    clock += dt.timedelta(minutes=draw(st.integers(1, 60 * 24 * 30)))
    qa = QA(
        question=draw(TEXT),
        answer=draw(TEXT),
        options=options,
        gold=gold,
        evidence=tuple(evidence),
        time=iso_minute(clock),
        qid=tid,
        provenance=provenance,
    )
    return Record(
        tid=tid,
        type=kind,
        scenario=draw(st.sampled_from(("roles", "events", "hybrid"))),
        sessions=tuple(sessions),
        qa=qa,
        profile_id=draw(st.sampled_from((None, f"p{tid:06d}"))),
        locale=draw(st.sampled_from((None, "en", "zh"))),
        flags=tuple(draw(st.lists(st.sampled_from(("[ERRORQ]",)), max_size=1))),
        extra=draw(st.sampled_from(({}, {"note": "kept", "n": [1, 2]}))),
    )


@st.composite
def records(draw: st.DrawFn, max_size: int = 5) -> list[Record]:
    n = draw(st.integers(1, max_size))
    return [draw(record(tid)) for tid in range(n)]


def history_view(record: Record, by_day: bool = False) -> dict[str, Any]:
    """What LongMemEval and LoCoMo hold of a history: per session its start and its turns'
    speakers and texts, and the evidence as (session, turn) positions; ``by_day``: of the
    history with its sessions cut by day, as those formats write it."""
    if by_day:
        record = dataclasses.replace(record, sessions=sessions_by_day(record.sessions))
    where = {
        t.id: (s, k)
        for s, session in enumerate(record.sessions)
        for k, t in enumerate(session.turns)
    }
    return {
        "sessions": [(s.start, [(t.speaker, t.text) for t in s.turns]) for s in record.sessions],
        "evidence": sorted(where[e] for e in record.qa.evidence if e in where),
        "question": record.qa.question,
    }


def fixed_records(n: int) -> list[Record]:
    """``n`` plain records of the six kinds (no hypothesis), for the load tests."""
    out = []
    for tid in range(n):
        day = START + dt.timedelta(days=tid)
        turns = tuple(
            Turn(tid * 10 + k, "user", f"Fact {k} of record {tid}.", iso_minute(day + dt.timedelta(minutes=k)),
                 "home", "evidence" if k == 1 else "filler", (f"user.f{k}",))
            for k in range(3)
        )  # fmt: skip
        qa = QA(
            question=f"Question {tid}?",
            answer="B value",
            options=("A value", "B value", "C value", "D value"),
            gold="B",
            evidence=(tid * 10 + 1,),
            time=iso_minute(day + dt.timedelta(hours=1)),
            qid=tid,
            provenance=Provenance(("user.f1",), params={"entity": "user"}, answer_value="B value"),
        )
        kind = KINDS[tid % 6]
        out.append(
            Record(
                tid, kind, "roles", (Session("s0", turns[0].time, turns),), qa, f"p{tid:06d}", "en"
            )
        )
    return out
