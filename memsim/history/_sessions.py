"""Sessions: a question's one-session trajectory becomes a conversation of several
sessions with assistant turns.

Guarantees:
- every user turn of the trajectory is kept with its text, time, place, purpose and
  facts (so every check of the trajectory still holds), in the same order;
- turns are grouped, in order, into sessions of at most :data:`SESSION_SIZE` user
  turns, a pause longer than :data:`SESSION_GAP` starting a new one, and every
  session states a fact (chit-chat alone joins a neighbouring session); a
  session is a task session (the user asks for help with a generic task, the assistant
  helps, the facts come up in passing, the user says thanks) or a chit-chat session;
  so the first turn of a session is often not a fact at all;
- every user turn is followed by an assistant turn, one minute later; a task session's
  opener comes two minutes before its first turn and its thanks two minutes after the
  last one (trajectory turns are at least 5 minutes apart, so times strictly
  increase and session starts strictly increase);
- assistant turns and task lines come from the locale's ``conversation`` data, whose
  lines state no value of any fact (checked by :func:`assistant_problems`);
- the question's evidence ids are renumbered with the turns;
- a question whose evidence the assistant said (provenance ``said_by: assistant``, the
  ``assistant_said`` kind) has its one evidence user turn replaced by the user's
  request (no value, no fact) and the assistant's reply one minute later, which states
  the fact and becomes the evidence turn: the only assistant turn that states a value.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import replace

import numpy as np

from memsim.records import ASSISTANT, USER, Record, Session, Turn
from memsim.verbalize import LocaleData
from memsim.verbalize._locale import Conversation

SESSION_SIZE = (2, 4)
"""User turns of the trajectory per session (the last session may have fewer)."""
SESSION_GAP = dt.timedelta(hours=6)
"""A longer pause between two user turns always starts a new session."""
TASK_PROBABILITY = 0.6
"""Chance that a session is a task session (else chit-chat)."""
FOLLOW_UP_PROBABILITY = 0.4
"""Chance that the reply to a session's last fact is a follow-up question."""


class NoConversationError(ValueError):
    """The locale has no ``conversation`` data, so it cannot make sessions."""


def conversation_of(loc: LocaleData) -> Conversation:
    if loc.conversation is None:
        raise NoConversationError(
            f"locale '{loc.code}' has no 'conversation' data (task sessions and assistant "
            "turns); add it to the locale file to make multi-session histories"
        )
    return loc.conversation


def into_sessions(record: Record, loc: LocaleData, rng: np.random.Generator, prefix: str) -> Record:
    """The record as sessions with assistant turns; session ids are ``{prefix}s{k}``."""
    conv = conversation_of(loc)
    user_turns = [t for t in record.turns if t.speaker == USER]
    low, high = SESSION_SIZE
    chunks: list[list[Turn]] = []
    size = 0
    for turn in user_turns:
        pause = _when(turn) - _when(chunks[-1][-1]) if chunks else SESSION_GAP
        if not chunks or len(chunks[-1]) >= size or pause > SESSION_GAP:
            chunks.append([])
            size = int(rng.integers(low, high + 1))
        chunks[-1].append(turn)
    chunks = _with_facts(chunks)
    lookup = _lookup(record)
    renumber: dict[int, int] = {}
    sessions: list[Session] = []
    for k, chunk in enumerate(chunks):
        made = _session(chunk, conv, rng, lookup)
        turns: list[Turn] = []
        for turn in made[1]:
            new_id = sum(len(s.turns) for s in sessions) + len(turns)
            if turn.id >= 0:
                renumber[turn.id] = new_id
            turns.append(replace(turn, id=new_id))
        sessions.append(Session(f"{prefix}s{k}", turns[0].time, tuple(turns), made[0]))
    qa = replace(record.qa, evidence=tuple(renumber[e] for e in record.qa.evidence))
    return replace(record, sessions=tuple(sessions), qa=qa)


def _lookup(record: Record) -> dict[int, str]:
    """{user turn id: the user's request} of the turns a question whose evidence the
    assistant said has looked up (its evidence and look-alike facts); {} for any other."""
    prov = record.qa.provenance
    if prov is None or prov.params.get("said_by") != ASSISTANT:
        return {}
    requests: dict[str, str] = dict(prov.params["requests"])
    out = {
        t.id: requests[t.facts[0]]
        for t in record.turns
        if len(t.facts) == 1 and t.facts[0] in requests
    }
    if not set(record.qa.evidence) <= set(out):
        raise ValueError(
            f"question {record.tid}: evidence said by the assistant needs one user turn "
            f"stating {list(prov.fact_ids)} alone"
        )
    return out


def _with_facts(chunks: list[list[Turn]]) -> list[list[Turn]]:
    """Chunks where every one states a fact: a chunk of chit-chat alone joins the one
    before it (the first joins the next), so that no session is told apart from
    evidence sessions by having no fact."""
    out: list[list[Turn]] = []
    waiting: list[Turn] = []
    for chunk in chunks:
        if any(t.facts for t in chunk):
            out.append(waiting + chunk)
            waiting = []
        elif out:
            out[-1] = out[-1] + chunk
        else:
            waiting += chunk
    if waiting:
        out.append(waiting)
    return out


def _session(
    chunk: list[Turn],
    conv: Conversation,
    rng: np.random.Generator,
    lookup: dict[int, str],
) -> tuple[str, list[Turn]]:
    """(topic, turns); turns of the trajectory keep their ids, new ones get -1 (the
    assistant's reply to a lookup takes the id of the user turn it replaces)."""

    def pick(lines: list[str]) -> str:
        return lines[int(rng.integers(len(lines)))]

    def said(speaker: str, text: str, when: dt.datetime, place: str, purpose: str) -> Turn:
        return Turn(-1, speaker, text, when.isoformat(timespec="minutes"), place, purpose)

    first, last = _when(chunk[0]), _when(chunk[-1])
    place = chunk[0].place
    task = None
    if rng.random() < TASK_PROBABILITY:
        task = conv.tasks[int(rng.integers(len(conv.tasks)))]
    out: list[Turn] = []
    if task is not None:
        out.append(said(USER, pick(task.opener), first - _MIN * 2, place, "chit_chat"))
        out.append(said(ASSISTANT, pick(task.help), first - _MIN, place, ""))
    for i, turn in enumerate(chunk):
        if turn.id in lookup:
            found = pick(conv.found).format(sentence=turn.text)
            out.append(replace(turn, id=-1, text=lookup[turn.id], purpose="chit_chat", facts=()))
            out.append(replace(turn, speaker=ASSISTANT, text=found, time=_at(turn, _MIN)))
            continue
        out.append(turn)
        if not turn.facts:
            reply = pick(conv.replies)
        elif i == len(chunk) - 1 and rng.random() < FOLLOW_UP_PROBABILITY:
            reply = pick(conv.follow_ups)
        else:
            reply = pick(conv.acknowledgements)
        out.append(said(ASSISTANT, reply, _when(turn) + _MIN, turn.place, ""))
    if task is not None:
        out.append(said(USER, pick(conv.thanks), last + _MIN * 2, chunk[-1].place, "chit_chat"))
        out.append(said(ASSISTANT, pick(conv.welcome), last + _MIN * 3, chunk[-1].place, ""))
    return (task.topic if task is not None else "chat"), out


_MIN = dt.timedelta(minutes=1)


def _at(turn: Turn, later: dt.timedelta) -> str:
    return (_when(turn) + later).isoformat(timespec="minutes")


def _when(turn: Turn) -> dt.datetime:
    return dt.datetime.fromisoformat(turn.time)
