"""Checks of the data that reads value histories and times.

- ``values_in_force``: no message says a value of a fact that is not the one in force
  at the message's time (a superseded value, or one still to come);
- ``never_told_unsaid``: an abstention's asked fact is said by no message, whatever
  value of its history, noise included, nor by a place; a false premise's entity is
  named by no message;
- ``temporal_from_text``: every temporal answer computed again by an independent path:
  the days are read back from the messages' text (absolute dates, relative ones
  resolved against the message's time) and the question's text, not from the
  provenance's parameters or the profile's times.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from memsim.audit._context import AuditContext
from memsim.audit._correctness import GROUP, NEEDS, deriver
from memsim.audit._faithful import states
from memsim.audit._framework import item_check
from memsim.audit._text import fold
from memsim.audit._types import AuditItem, CheckStats, Finding, finding
from memsim.profile import Entity, Fact, Profile
from memsim.verbalize import LocaleData, value_at
from memsim.verify import StatedFact, dates_in, fact_stated, numbers_in, relative_days_in


def _when(m: dict[str, Any]) -> dt.datetime:
    return dt.datetime.fromisoformat(str(m.get("time")))


def _own(profile: Profile, fact_id: str) -> tuple[Entity, Fact] | None:
    if ":" in fact_id:
        return None  # noise: a fact of another profile
    entity_id, attr = fact_id.rsplit(".", 1)
    try:
        entity = profile.entity(entity_id)
        return entity, entity.facts[attr]
    except KeyError:
        return None


def _values(fact: Fact) -> list[Any]:
    return list(dict.fromkeys(s.value for s in fact.history)) if fact.history else [fact.value]


@item_check(
    "values_in_force",
    "no message says a value of a fact other than the one in force at the message's time",
    GROUP,
    NEEDS,
)
def values_in_force(item: AuditItem, ctx: AuditContext, stats: CheckStats) -> list[Finding] | None:
    profile = ctx.profile(item)
    if profile is None:
        return None
    assert ctx.locale is not None
    out = []
    for m in item.messages:
        when, text = _when(m), str(m.get("message"))
        for fid in m.get("facts", ()):
            own = _own(profile, str(fid))
            if own is None or len(own[1].history) < 2:
                continue
            entity, fact = own
            stats.counts["statements of changing facts"] += 1
            now = value_at(fact, when)
            # the other facts the message says may contain a value ("San Francisco
            # County Sheriff's Office" holds a city): that is not this fact said
            beside = [
                fold(str(value_at(o[1], when)))
                for o in (_own(profile, str(f)) for f in m.get("facts", ()) if f != fid)
                if o is not None
            ]
            for other in _values(fact):
                if any(fold(str(other)) in b for b in (*beside, fold(str(now)))):
                    continue  # inside another value said, or the one in force ("听音乐会")
                if other != now and fact_stated(
                    text, StatedFact(entity, fact, other, when), ctx.locale
                ):
                    stats.counts["values not in force"] += 1
                    out.append(
                        finding(
                            "values_in_force",
                            "error",
                            item,
                            f"message {m.get('mid')} says {fid} = {other!r}, in force then: "
                            f"{now!r}",
                        )
                    )
    return out


@item_check(
    "never_told_unsaid",
    "the fact an abstention question asks is said by no message (any value of its history, "
    "noise included) nor any place; the entity a false premise names appears in no message",
    GROUP,
    NEEDS,
)
def never_told_unsaid(
    item: AuditItem, ctx: AuditContext, stats: CheckStats
) -> list[Finding] | None:
    prov, profile = item.provenance or {}, ctx.profile(item)
    transform = prov.get("transform")
    if profile is None or transform not in ("never_told", "false_premise"):
        return None
    assert ctx.schema is not None and ctx.locale is not None
    params = prov.get("params") or {}
    if transform == "false_premise":
        return _premise_unsaid(item, ctx, profile, params, stats)
    entity = profile.entity(str(params["entity"]))
    fact = entity.facts[str(params["attribute"])]
    out = []
    for m in item.messages:
        when, carried = _when(m), [str(f) for f in m.get("facts", ())]
        about = any(f.rsplit(".", 1)[0] == entity.id for f in carried if ":" not in f)
        said = fact.id in carried or any(
            (about and states(str(m.get("message")), entity, fact, when, ctx.schema, ctx.locale)
             is None)
            or (entity.scenario == "user"
                and fact_stated(str(m.get("place", "")), StatedFact(entity, fact, v, when),
                                ctx.locale))
            for v in _values(fact)
        )  # fmt: skip
        stats.counts["messages checked"] += 1
        if said:
            stats.counts["never-told facts said"] += 1
            out.append(
                finding(
                    "never_told_unsaid", "error", item, f"message {m.get('mid')} says {fact.id}"
                )
            )
    return out


def _premise_unsaid(
    item: AuditItem,
    ctx: AuditContext,
    profile: Profile,
    params: dict[str, Any],
    stats: CheckStats,
) -> list[Finding]:
    d = deriver(ctx)
    (name_attr, value), kind = next(iter(dict(params["naming"]).items())), str(params["kind"])
    model = next(e for e in profile.entities if e.kind == kind)
    fact = model.facts[name_attr]
    ghost = Entity(model.id, kind, -1, model.scenario, {name_attr: fact._replace(value=value)})
    who = fold(d.who(ghost))
    out = []
    for m in item.messages:
        if re.search(rf"(?<!\w){re.escape(who)}(?!\w)", fold(str(m.get("message")))):
            stats.counts["absent entities named"] += 1
            out.append(
                finding("never_told_unsaid", "error", item, f"message {m.get('mid')} names {who}")
            )
    return out


# --- temporal answers from the text ---------------------------------------------------
def _days(text: str, said_at: dt.datetime, loc: LocaleData) -> set[dt.date]:
    """The days a text names: absolute (the year of the message when not said) and
    relative ones resolved against its time."""
    found = set(relative_days_in(text, said_at, loc))
    mentions = dates_in(text, loc)
    dated = {(d.month, d.day) for d in mentions if d.year is not None}
    for d in mentions:
        if d.year is None and (d.month, d.day) in dated:
            continue  # "June 24" read again inside "June 24, 2024" (asked in a later year)
        try:
            found.add(dt.date(d.year or said_at.year, d.month, d.day))
        except ValueError:
            continue
    return found


def _carriers(item: AuditItem, fact_id: str) -> list[dict[str, Any]]:
    return [m for m in item.messages if fact_id in map(str, m.get("facts", ()))]


def _event_day(item: AuditItem, fact_id: str, loc: LocaleData) -> dt.date | None:
    days = set()
    for m in _carriers(item, fact_id):
        days |= _days(str(m.get("message")), _when(m), loc)
    if len(days) > 1:
        raise ValueError(f"the messages give {fact_id} several days: {sorted(days)}")
    return next(iter(days), None)


def _longest(said: list[Any]) -> list[Any]:
    """The values said, less those said only inside a longer one: "听音乐" is inside
    "听音乐会", "good" inside "very good"; the longer value said is the one meant."""
    return [v for v in said if not any(str(v) in str(w) and v != w for w in said)]


def _stated_value(text: str, entity: Entity, fact: Fact, when: dt.datetime, loc: LocaleData) -> Any:
    said = _longest(
        [v for v in _values(fact) if fact_stated(text, StatedFact(entity, fact, v, when), loc)]
    )
    if len(said) != 1:
        raise ValueError(f"a message about {fact.id} says {len(said)} of its values")
    return said[0]


def _value_on(item: AuditItem, entity: Entity, fact: Fact, day: dt.date, loc: LocaleData) -> Any:
    """The value on ``day`` as the messages tell it: a message with a day says the value
    holds from that day, one without says it holds at its time; the latest before the
    day wins, else the earliest told."""
    told = []
    for m in _carriers(item, fact.id):
        text, when = str(m.get("message")), _when(m)
        value = _stated_value(text, entity, fact, when, loc)
        days = {d for d in _days(text, when, loc) if d <= when.date()}
        told.append((min(days) if days else when.date(), when, value))
    if not told:
        raise ValueError(f"no message tells {fact.id}")
    # on one day, the message said later knows more (a value in the morning, its change
    # that evening)
    before = [t for t in told if t[0] <= day]
    return (max(before, key=lambda t: t[:2]) if before else min(told, key=lambda t: t[:2]))[2]


def _question_days(item: AuditItem, loc: LocaleData) -> list[dt.date]:
    asked = dt.datetime.fromisoformat(str(item.qa.get("time")))
    return sorted(_days(str(item.qa.get("question")), asked, loc))


def _weeks(question: str, loc: LocaleData) -> bool:
    for template in loc.history.temporal["elapsed_weeks"]:
        parts = [re.escape(p) for p in re.split(r"\{[a-z_]+\}", template)]
        if re.fullmatch("(.+?)".join(parts), question, re.DOTALL):
            return True
    return False


def _value_slot(question: str, loc: LocaleData) -> str:
    """The words of an "elapsed" question that fill its ``{value}`` (the whole question
    when no template of the locale matches it, as in a rewrite): the template's own words
    may hold a number ("按整周算（不足一周的舍去）" reads 一 as 1), which is no value."""
    for template in (*loc.history.temporal["elapsed_days"], *loc.history.temporal["elapsed_weeks"]):
        tokens = re.findall(r"\{([a-z_]+)\}", template)
        if "value" not in tokens:
            continue
        parts = [re.escape(p) for p in re.split(r"\{[a-z_]+\}", template)]
        found = re.fullmatch("(.+?)".join(parts), question, re.DOTALL)
        if found:
            return found.group(tokens.index("value") + 1)
    return question


def _from_text(item: AuditItem, ctx: AuditContext, profile: Profile) -> tuple[str, bool]:
    """(what the text gives, whether the gold option says it)."""
    assert ctx.locale is not None
    loc, d = ctx.locale, deriver(ctx)
    prov = item.provenance or {}
    params, transform = dict(prov.get("params") or {}), str(prov.get("transform"))
    gold = item.choices().get(str(item.qa.get("ground_truth")), "")
    asked = dt.datetime.fromisoformat(str(item.qa.get("time")))
    if transform in ("value_at", "elapsed"):
        entity = profile.entity(str(params["entity"]))
        fact = entity.facts[str(params["attribute"])]
        if transform == "value_at":
            (day,) = _question_days(item, loc)
            value = _value_on(item, entity, fact, day, loc)
            return repr(value), d.value_means(entity, fact, value, asked)(gold)
        question = str(item.qa.get("question"))
        slot = _value_slot(question, loc)
        named = _longest(
            [v for v in _values(fact) if fact_stated(slot, StatedFact(entity, fact, v, asked), loc)]
        )
        (value,) = named
        starts = [
            min(_days(str(m.get("message")), _when(m), loc))
            for m in _carriers(item, fact.id)
            if _days(str(m.get("message")), _when(m), loc)
            and _stated_value(str(m.get("message")), entity, fact, _when(m), loc) == value
        ]
        (began,) = set(starts)
        days = (asked.date() - began).days
        number = days // 7 if _weeks(question, loc) else days
        return str(number), numbers_in(gold, loc) == [number]
    attr = str(params["attribute"])
    events = [profile.entity(str(e)) for e in params.get("entities", [params.get("entity")])]
    on = {e.id: _event_day(item, e.facts[attr].id, loc) for e in events}
    known = {k: v for k, v in on.items() if v is not None}
    if transform == "first_of":
        if len(known) < len(on):
            return loc.history.never_told, fold(gold) == fold(loc.history.never_told)
        first = min(events, key=lambda e: known[e.id])
        return d.who(first), fold(gold) == fold(loc.cap(d.who(first)))
    if transform == "count_between":
        window = _question_days(item, loc)  # one day when it starts and ends the same day
        start, end = window[0], window[-1]
        number = sum(1 for x in known.values() if start <= x <= end)
        return str(number), numbers_in(gold, loc) == [number]
    (told,) = on.values()
    return str(told), told is not None and told in _days(gold, asked, loc)


TEMPORAL = ("value_at", "elapsed", "first_of", "count_between", "date_of")


@item_check(
    "temporal_from_text",
    "every temporal answer is what the messages' text and times and the question's text "
    "give, read without the provenance's times (days said absolutely or relatively, "
    "changes with their days, the window and the unit in the question)",
    GROUP,
    NEEDS,
)
def temporal_from_text(
    item: AuditItem, ctx: AuditContext, stats: CheckStats
) -> list[Finding] | None:
    prov, profile = item.provenance or {}, ctx.profile(item)
    transform = str(prov.get("transform"))
    if profile is None or transform not in TEMPORAL:
        return None
    stats.counts[f"transform {transform}"] += 1
    try:
        given, agrees = _from_text(item, ctx, profile)
    except (ValueError, KeyError, StopIteration) as exc:
        stats.counts["not readable from the text"] += 1
        return [finding("temporal_from_text", "error", item, f"cannot read the answer: {exc}")]
    if agrees:
        return []
    stats.counts["gold differs from the text"] += 1
    gold = item.choices().get(str(item.qa.get("ground_truth")))
    return [finding("temporal_from_text", "error", item, f"the text gives {given}, gold {gold!r}")]


__all__ = ["never_told_unsaid", "temporal_from_text", "values_in_force"]
