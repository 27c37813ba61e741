"""Absolute dates in answers against the relative days their evidence says.

An evidence message that says "next Monday" (下周一) names a day relative to *its own*
time; an answer that gives the absolute date must be that day. MemDaily's hybrid
answers resolved such phrases against the question's time instead, a week off. This
check needs no profile: it reads the answer, the evidence messages and their times.
Chinese relative days are read here (下周一, 下下周三, 这周五, 明天, 后天; weeks start on
Monday, as MemDaily's own resolutions do); other languages through the locale's
patterns in :mod:`memsim.verify` (English: "next Friday", "tomorrow").
"""

from __future__ import annotations

import datetime as dt
import re

from memsim.audit._context import AuditContext
from memsim.audit._framework import dataset_check
from memsim.audit._text import CJK
from memsim.audit._times import ZH_WEEKDAYS, dates_seen, parse_stamp
from memsim.audit._types import AuditItem, CheckStats, Finding, finding
from memsim.verbalize import LocaleData, load_locale
from memsim.verify import relative_days_in

ZH_RELATIVE = re.compile(r"(下下|下|这|本)?(?:周|星期|礼拜)([一二三四五六日天])|(大后天|后天|明天)")
ZH_DAYS_AHEAD = {"明天": 1, "后天": 2, "大后天": 3}
ZH_WEEKS_AHEAD = {None: 0, "这": 0, "本": 0, "下": 1, "下下": 2}


def zh_relative_days(text: str, said_at: dt.datetime) -> set[dt.date]:
    week = said_at.date() - dt.timedelta(days=said_at.weekday())
    found = set()
    for m in ZH_RELATIVE.finditer(text):
        if m[3]:
            found.add(said_at.date() + dt.timedelta(days=ZH_DAYS_AHEAD[m[3]]))
        else:
            found.add(week + dt.timedelta(days=7 * ZH_WEEKS_AHEAD[m[1]] + ZH_WEEKDAYS[m[2]]))
    return found


def relative_days(text: str, said_at: dt.datetime, loc: LocaleData | None) -> set[dt.date]:
    if CJK.search(text):
        return zh_relative_days(text, said_at)
    return relative_days_in(text, said_at, loc) if loc is not None else set()


@dataset_check(
    "answer_dates_resolved",
    "every absolute date in an answer is the day its evidence message says relatively "
    "(resolved against that message's time, not the question's)",
    "structure",
)
class AnswerDates:
    def __init__(self, ctx: AuditContext, stats: CheckStats):
        self.ctx, self.stats = ctx, stats
        try:
            self.loc: LocaleData | None = ctx.locale or load_locale("en")
        except ValueError:
            self.loc = None
        self.by_scenario: dict[str, list[int]] = {}
        """scenario -> [dates in answers, dates the evidence lets us judge, wrong]"""

    def visit(self, item: AuditItem) -> list[Finding] | None:
        answer = item.qa.get("answer")
        asked = parse_stamp(item.qa.get("time"))
        if not isinstance(answer, str) or asked is None:
            return None
        days = {
            dt.date(d.year, d.month, d.day)
            for d in dates_seen(answer)
            if d.year is not None and d.problem() is None
        }
        steps = item.qa.get("target_step_id") or []
        evidence = [m for m in item.messages if m.get("mid") in steps]
        if not days:
            return None  # most answers name no day: their evidence is not read
        said: set[dt.date] = set()
        for m in evidence:
            stamp = parse_stamp(m.get("time"))
            if stamp is not None:
                text = str(m.get("message", ""))
                said |= relative_days(text, stamp.when, self.loc)
                said |= {
                    dt.date(d.year, d.month, d.day)
                    for d in dates_seen(text)
                    if d.year is not None and d.problem() is None
                }
        tally = self.by_scenario.setdefault(item.scenario, [0, 0, 0])
        tally[0] += len(days)
        if not said:
            return []  # the evidence names no day: nothing to compare with
        out = []
        for day in sorted(days):
            tally[1] += 1
            if day in said:
                continue
            tally[2] += 1
            weeks = any((day - d).days % 7 == 0 for d in said)
            at_question = day in relative_days(_evidence_text(item, steps), asked.when, self.loc)
            why = " (resolved against the question's time)" if at_question else ""
            self.stats.counts["off by whole weeks" if weeks else "other days"] += 1
            self.stats.counts["resolved against the question's time"] += at_question
            out.append(
                finding(
                    "answer_dates_resolved",
                    "error",
                    item,
                    f"the answer says {day}, the evidence says {sorted(map(str, said))}{why}",
                )
            )
        return out

    def finish(self) -> list[Finding]:
        rows = dict(sorted(self.by_scenario.items()))
        if rows:
            rows["all"] = [sum(r[i] for r in rows.values()) for i in range(3)]
        for scenario, (total, judged, wrong) in rows.items():
            self.stats.scores[scenario] = {
                "dated answers": total,
                "judged": judged,
                "wrong": wrong,
                "share of dated answers wrong": round(wrong / total, 4) if total else 0.0,
            }
        return []


def _evidence_text(item: AuditItem, steps: list[int]) -> str:
    return " ".join(str(m.get("message", "")) for m in item.messages if m.get("mid") in steps)


__all__ = ["AnswerDates", "relative_days", "zh_relative_days"]
