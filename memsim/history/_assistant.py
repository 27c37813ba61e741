"""Verification of assistant turns: what the assistant says must never be a source of
facts.

An assistant turn passes when, checked with :mod:`memsim.verify` (the test the audit
and the LLM rewrite checks share):
- it states no value of any fact of the profile that the user has not said before it
  in the history (so it neither brings in a fact nor contradicts one: a contradiction
  would have to state some value);
- it does not state the question's answer (it never answers a later question early).

Offline assistant turns come from the locale's ``conversation`` lines, which hold no
values; this check proves it on every generated history (tests) and the audit runs it
on any data with profiles.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence

from memsim.profile import Profile
from memsim.records import USER, Record
from memsim.verbalize import LocaleData, value_at
from memsim.verify import StatedFact, fact_stated, text_stated


def assistant_problems(record: Record, profile: Profile, loc: LocaleData) -> list[str]:
    """Why an assistant turn of ``record`` is not clean (empty: all are)."""
    turns = (
        (f"session {s.id} turn {t.id}", t.speaker, t.text, t.time, t.facts)
        for s, t in record.iter_turns()
    )
    return turn_problems(turns, record.qa.answer, profile, loc)


def turn_problems(
    turns: Iterable[tuple[str, str, str, str, Sequence[str]]],
    answer: str,
    profile: Profile,
    loc: LocaleData,
) -> list[str]:
    """The same test on ``(where, speaker, text, time, facts)`` in history order."""
    facts = [(e, f) for e in profile.entities for f in e.facts.values()]
    answer = answer.strip()
    said: set[str] = set()
    problems: list[str] = []
    for where, speaker, text, time, stated_ids in turns:
        if speaker == USER:
            said.update(stated_ids)
            continue
        when = dt.datetime.fromisoformat(time)
        for entity, fact in facts:
            if fact.id in said:
                continue
            stated = StatedFact(entity, fact, value_at(fact, when), when)
            if fact_stated(text, stated, loc):
                problems.append(
                    f"{where}: the assistant states {fact.id} = {stated.value!r}, "
                    "which the user has not said"
                )
        if answer and text_stated(text, answer, loc):
            problems.append(f"{where}: the assistant states the answer {answer!r} early")
    return problems
