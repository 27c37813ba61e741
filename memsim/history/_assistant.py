"""Verification of assistant turns: what the assistant says must never be a source of
facts.

An assistant turn passes when, checked with :mod:`memsim.verify` (the test the audit
and the LLM rewrite checks share):
- it states no value of any fact of the profile that the user has not said before it
  in the history (so it neither brings in a fact nor contradicts one: a contradiction
  would have to state some value);
- it does not state the question's answer (it never answers a later question early).

The one exception is an assistant turn that declares facts (the evidence of an
``assistant_said`` question: the assistant's reply to a lookup): what it declares is
its own to state, so those facts count as said from then on and the answer they make
is not "early"; every other value it states is held to the rules above, and the audit's
evidence checks prove it states what it declares.

Offline assistant turns come from the locale's ``conversation`` lines, which hold no
values; this check proves it on every generated history (tests) and the audit runs it
on any data with profiles.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Collection, Iterable, Sequence

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
    own_words: Collection[str] = (),
) -> list[str]:
    """The same test on ``(where, speaker, text, time, facts)`` in history order.

    ``own_words`` are the fixed words an entity is named by ("I", the user): an answer
    that is one of them (whose age is higher, "I") is not looked for in the assistant's
    text, where "I" is the assistant itself."""
    facts = [(e, f) for e in profile.entities for f in e.facts.values()]
    answer = answer.strip()
    if answer.casefold() in {w.casefold() for w in own_words}:
        answer = ""
    said: set[str] = set()
    problems: list[str] = []
    asked = ""  # the user turn before: what it names in words is said (a lookup's who)
    for where, speaker, text, time, stated_ids in turns:
        if speaker == USER:
            said.update(stated_ids)
            asked = text
            continue
        said.update(stated_ids)  # a lookup reply of the assistant_said kind
        note = unwrap_found(text, loc) if stated_ids else None
        if note is not None:
            # the note it quotes is the user's own sentence of the declared facts (the
            # audit's messages_faithful proves it); the words around it must state nothing
            text = text.replace(note, "")
        when = dt.datetime.fromisoformat(time)
        declared = {str(value_at(f, when)) for _, f in facts if f.id in stated_ids}
        for entity, fact in facts:
            if fact.id in said:
                continue
            stated = StatedFact(entity, fact, value_at(fact, when), when)
            if str(stated.value) in declared:
                continue  # the value the turn declares, also held by another fact
            if fact_stated(text, stated, loc) and not (
                stated_ids and fact_stated(asked, stated, loc)
            ):
                problems.append(
                    f"{where}: the assistant states {fact.id} = {stated.value!r}, "
                    "which the user has not said"
                )
        if answer and not stated_ids and text_stated(text, answer, loc):
            problems.append(f"{where}: the assistant states the answer {answer!r} early")
    return problems


def conversation_line(text: str, loc: LocaleData) -> bool:
    """Whether ``text`` is one of the locale's conversation lines (task openers and
    help, the assistant's replies, thanks, a lookup request with its label and who)."""
    conv = loc.conversation
    if conv is None:
        return False
    fixed = [*conv.acknowledgements, *conv.follow_ups, *conv.replies, *conv.thanks, *conv.welcome]
    for task in conv.tasks:
        fixed += [*task.opener, *task.help]
    if text in fixed:
        return True
    return any(_fits(text, template, ("label", "who")) is not None for template in conv.lookups)


def unwrap_found(text: str, loc: LocaleData) -> str | None:
    """The saved note an assistant's lookup reply quotes (``conversation.found``), or
    None when ``text`` is no such reply."""
    conv = loc.conversation
    for template in conv.found if conv is not None else ():
        parts = _fits(text, template, ("sentence",))
        if parts is not None:
            return parts[0]
    return None


def _fits(text: str, template: str, fields: tuple[str, ...]) -> tuple[str, ...] | None:
    """The values of ``fields`` when ``text`` is ``template`` filled in, else None."""
    pattern = re.escape(template)
    for name in fields:
        pattern = pattern.replace(re.escape("{" + name + "}"), "(.+)")
    match = re.fullmatch(pattern, text, flags=re.DOTALL)
    return match.groups() if match else None


def framing_turn(speaker: str, text: str, facts: Sequence[str], loc: LocaleData) -> bool:
    """Whether a turn is a history's conversational framing, the same in every session,
    evidence or filler: an assistant turn that states no fact, or a task's opening or
    closing line of the user (``conversation.tasks``, ``thanks``)."""
    if facts:
        return False
    if speaker != USER:
        return True
    conv = loc.conversation
    if conv is None:
        return False
    return text in conv.thanks or any(text in task.opener for task in conv.tasks)
