"""Tense against message time: a message that says when an event takes place is sent
before the event.

The schemas phrase an event's time as a plan ("I'm going to the concert on May 10",
"下周五我要去..."), so a message stating it after the event has begun speaks of the
past in the future tense. For each fact a message carries whose value is a date-time
(our records: fact ids, values read from the profile), the message's time must not be
later than the value. Noise facts (of other profiles) are left out.
"""

from __future__ import annotations

import datetime as dt

from memsim.audit._context import AuditContext
from memsim.audit._framework import item_check
from memsim.audit._types import AuditItem, CheckStats, Finding, finding

NAME = "tense_event_times"


@item_check(
    NAME,
    "no message states the time of an event that has already begun when it is sent "
    "(event times are phrased as plans, in the future tense)",
    "correctness",
    ("profiles", "provenance"),
)
def tense_event_times(
    item: AuditItem, ctx: AuditContext, stats: CheckStats
) -> list[Finding] | None:
    profile = ctx.profile(item)
    if profile is None:
        return None
    out = []
    for m in item.messages:
        try:
            sent = dt.datetime.fromisoformat(str(m.get("time")))
        except ValueError:
            continue
        for fid in m.get("facts") or ():
            if ":" in str(fid):
                continue  # noise: a fact of another profile
            try:
                fact = profile.fact(str(fid))
            except KeyError:
                continue
            if fact.type != "datetime":
                continue
            stats.counts["event times stated"] += 1
            if dt.datetime.fromisoformat(str(fact.value)) < sent:
                stats.counts["event times stated after the event"] += 1
                out.append(
                    finding(
                        NAME,
                        "error",
                        item,
                        f"message {m.get('mid')} ({sent:%Y-%m-%d %H:%M}) states {fid} "
                        f"= {fact.value}, already past, as a plan",
                    )
                )
    return out


__all__ = ["tense_event_times"]
