"""Message checks on our own records, through :mod:`memsim.verify` (the same test that
verifies LLM rewrites, so the audit accepts exactly what verification accepts).

A message *states* a fact of an entity when :func:`memsim.verify.fact_stated` finds the
value the fact holds at the message's time, and it names the entity (states the
values its ``refer`` template is made of: "my {relation}" -> the relation).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from functools import lru_cache
from string import Formatter
from typing import Any

from memsim.audit._context import AuditContext
from memsim.audit._correctness import GROUP, NEEDS, derivation
from memsim.audit._framework import item_check
from memsim.audit._types import AuditItem, CheckStats, Finding, finding
from memsim.profile import Entity, Fact, Profile
from memsim.schema import Schema
from memsim.verbalize import LocaleData, value_at
from memsim.verify import StatedFact, fact_stated, relative_days_in
from memsim.verify._numbers import per_locale


@lru_cache(maxsize=256)
def refer_fields(template: str) -> tuple[str, ...]:
    return tuple(f for _, f, _, _ in Formatter().parse(template) if f)


STATED_MEMO = 50_000
"""(text, type, value) answers :func:`stated` remembers per locale before starting afresh."""

_answers: Callable[[LocaleData], dict[tuple[str, str, object], bool]] = per_locale(lambda loc: {})


def stated(
    text: str, entity: Entity, fact: Fact, value: Any, when: dt.datetime, loc: LocaleData
) -> bool:
    """:func:`memsim.verify.fact_stated`, remembered per text, type and value: but for a
    date-time (a relative day is read against ``when``) its answer depends on nothing
    else, and the same message ("My line of work: chef.") carries the same value in
    many profiles and is asked about by several checks."""
    if fact.type == "datetime" or not isinstance(value, (str, int)):
        return fact_stated(text, StatedFact(entity, fact, value, when), loc)
    memo = _answers(loc)
    key = (text, fact.type, value)
    hit = memo.get(key)
    if hit is None:
        if len(memo) >= STATED_MEMO:
            memo.clear()
        hit = memo[key] = fact_stated(text, StatedFact(entity, fact, value, when), loc)
    return bool(hit)


def states(
    text: str, entity: Entity, fact: Fact, when: dt.datetime, schema: Schema, loc: LocaleData
) -> str | None:
    """Why ``text`` does not state ``fact`` of ``entity`` at ``when`` (None: it does)."""
    value = value_at(fact, when)
    if not stated(text, entity, fact, value, when, loc):
        return f"does not state {fact.id} = {value!r}"
    for name in _refer_names(schema, entity.kind, loc.code):
        named = entity.facts.get(name)
        if named is None or named.id == fact.id:
            continue
        shown = value_at(named, when)
        if not stated(text, entity, named, shown, when, loc):
            return f"does not name {entity.id} ({name} {shown!r})"
    return None


_REFER: dict[tuple[int, str, str], tuple[Schema, tuple[str, ...]]] = {}


def _refer_names(schema: Schema, kind: str, code: str) -> tuple[str, ...]:
    """:func:`refer_fields` of the kind's ``refer`` template in the locale: looked up
    once per schema object, kind and locale, not once per fact (the schema is kept
    with them, so its id is never reused for another)."""
    hit = _REFER.get((id(schema), kind, code))
    if hit is None or hit[0] is not schema:
        names = refer_fields(schema.entities[kind].refer.get(code, ""))
        hit = _REFER[id(schema), kind, code] = (schema, names)
    return hit[1]


def _own(profile: Profile, fact_id: str) -> tuple[Entity, Fact] | None:
    if ":" in fact_id:
        return None  # noise: a fact of another profile
    entity_id, attr = fact_id.rsplit(".", 1)
    entity = profile.entity(entity_id)
    return entity, entity.facts[attr]


def _when(m: dict[str, Any]) -> dt.datetime:
    return dt.datetime.fromisoformat(str(m.get("time")))


@item_check(
    "messages_state_facts",
    "every message states each fact it carries, as the value holds at its time, and names "
    "the entity (memsim.verify, as LLM rewrites are verified)",
    GROUP,
    ("provenance", "profiles", "schema"),
)
def messages_state_facts(
    item: AuditItem, ctx: AuditContext, stats: CheckStats
) -> list[Finding] | None:
    profile = ctx.profile(item)
    if profile is None:
        return None
    assert ctx.schema is not None and ctx.locale is not None
    schema, loc, counts = ctx.schema, ctx.locale, stats.counts
    out = []
    for m in item.messages:
        text: str | None = None  # the message's text and time, read at its first own fact
        for fid in m.get("facts", ()):
            own = _own(profile, str(fid))
            if own is None:
                continue
            counts["facts checked"] += 1
            if text is None:
                text, when = str(m.get("message")), _when(m)
            why = states(text, *own, when, schema, loc)
            if why:
                counts["facts not stated"] += 1
                out.append(
                    finding(
                        "messages_state_facts",
                        "error",
                        item,
                        f"message {m.get('mid')} {why}: {text[:100]}",
                    )
                )
    return out


@item_check(
    "evidence_targets",
    "the evidence the answer depends on is exactly the provenance's facts, each stated in a "
    "message, and target_step_id is exactly the messages that state them",
    GROUP,
    NEEDS,
)
def evidence_targets(item: AuditItem, ctx: AuditContext, stats: CheckStats) -> list[Finding] | None:
    found = derivation(item, ctx)
    if found is None or found.derived is None or item.provenance is None:
        return None
    needed = found.derived.facts
    listed = set(item.provenance.get("fact_ids") or ())
    out = []
    if listed != needed:
        stats.counts["provenance facts differ"] += 1
        out.append(
            finding(
                "evidence_targets",
                "error",
                item,
                f"provenance lists {sorted(listed)}, the answer depends on {sorted(needed)}",
            )
        )
    carriers = {m.get("mid"): set(map(str, m.get("facts", ()))) & needed for m in item.messages}
    expected = sorted(int(mid) for mid, facts in carriers.items() if facts and mid is not None)
    said = set().union(*carriers.values()) if carriers else set()
    for fid in sorted(needed - said):
        stats.counts["evidence never stated"] += 1
        out.append(finding("evidence_targets", "error", item, f"no message states {fid}"))
    target = item.qa.get("target_step_id")
    if sorted(target or []) != expected:
        stats.counts["wrong target_step_id"] += 1
        out.append(
            finding(
                "evidence_targets",
                "error",
                item,
                f"target_step_id {target}, the messages stating the evidence are {expected}",
            )
        )
    roles = {m.get("mid"): m.get("role") for m in item.messages}
    odd = [mid for mid in expected if roles.get(mid) not in (None, "evidence")]
    if odd:
        out.append(
            finding("evidence_targets", "warning", item, f"messages {odd} not marked evidence")
        )
    return out


@item_check(
    "withheld_unstated",
    'a withheld fact ("you never told me both") is carried and stated by no message',
    GROUP,
    NEEDS,
)
def withheld_unstated(
    item: AuditItem, ctx: AuditContext, stats: CheckStats
) -> list[Finding] | None:
    withheld = list((item.provenance or {}).get("withheld") or ())
    profile = ctx.profile(item)
    if not withheld or profile is None:
        return None
    assert ctx.schema is not None and ctx.locale is not None
    out = []
    for fid in withheld:
        entity, fact = profile.entity(fid.rsplit(".", 1)[0]), profile.fact(fid)
        # an entity named by no value (the user, "I") is spoken of by the messages that
        # carry its facts; a "20" in "October 20" is not the user's age said
        unnamed = not refer_fields(ctx.schema.entities[entity.kind].refer.get(ctx.locale.code, ""))
        for m in item.messages:
            carried = fid in m.get("facts", ())
            carried_ids = [str(f) for f in m.get("facts", ())]
            about = not unnamed or any(f.rsplit(".", 1)[0] == entity.id for f in carried_ids)
            said = (
                not carried
                and about
                and states(str(m.get("message")), entity, fact, _when(m), ctx.schema, ctx.locale)
                is None
            )
            others = [_own(profile, str(f)) for f in m.get("facts", ())]
            same_value = any(
                o and value_at(o[1], _when(m)) == value_at(fact, _when(m)) for o in others
            )
            if carried or (said and not same_value):
                stats.counts["withheld facts stated"] += 1
                out.append(
                    finding(
                        "withheld_unstated",
                        "error",
                        item,
                        f"message {m.get('mid')} states withheld {fid}",
                    )
                )
    return out


@item_check(
    "relative_times",
    'every relative day a message says ("next Friday") resolves, against that message\'s '
    "time, to the day of the event; answers and options use absolute dates",
    GROUP,
    NEEDS,
)
def relative_times(item: AuditItem, ctx: AuditContext, stats: CheckStats) -> list[Finding] | None:
    profile = ctx.profile(item)
    if profile is None:
        return None
    assert ctx.locale is not None
    out = []
    for m in item.messages:
        said_at = _when(m)
        for fid in m.get("facts", ()):
            own = _own(profile, str(fid))
            if own is None or own[1].type != "datetime":
                continue
            days = relative_days_in(str(m.get("message")), said_at, ctx.locale)
            if not days:
                continue
            stats.counts["relative mentions"] += 1
            day = dt.datetime.fromisoformat(str(value_at(own[1], said_at))).date()
            if day not in days:
                stats.counts["resolved wrongly"] += 1
                out.append(
                    finding(
                        "relative_times",
                        "error",
                        item,
                        f"message {m.get('mid')} says {sorted(map(str, days))} for {fid} on {day}",
                    )
                )
    asked = dt.datetime.fromisoformat(str(item.qa.get("time")))
    for label, text in [("answer", item.qa.get("answer")), *item.choices().items()]:
        if isinstance(text, str) and relative_days_in(text, asked, ctx.locale):
            stats.counts["relative options"] += 1
            out.append(
                finding("relative_times", "error", item, f"{label} says a relative day: {text!r}")
            )
    return out


__all__ = ["refer_fields", "states"]
