"""Structural checks: they need nothing but the items, so they run on any data.

Each proves one property of every item (see its ``proves``): no failure markers, valid
evidence ids, distinct options, a ground-truth letter that maps to the answer, strictly
increasing timestamps, the
question after the last message, no placeholder or garbage messages, no impossible
dates among the options.
"""

from __future__ import annotations

import re

from memsim.audit._context import AuditContext
from memsim.audit._framework import item_check
from memsim.audit._text import squash, within_one_edit
from memsim.audit._times import dates_seen, parse_stamp
from memsim.audit._types import AuditItem, CheckStats, Finding, finding

_DIGIT = re.compile(r"\d")

GROUP = "structure"
MARKER = re.compile(r"\[ERROR[A-Z]*\]")
NEAR_DUPLICATE_MIN = 6
"""Options this long (after squashing) that differ by one character, not a digit, are
near-duplicates ("赵雅琳" / "赵雅琪"); numbers, ages and dates differ in digits by nature."""


def _near(x: str, y: str) -> bool:
    if min(len(x), len(y)) < NEAR_DUPLICATE_MIN or not within_one_edit(x, y):
        return False
    return _DIGIT.sub("", x) != _DIGIT.sub("", y)


@item_check(
    "error_markers",
    "no item carries a failed-generation marker ([ERRORQ], [ERRORA], [ERRORC], [ERRORG]) "
    "or a null answer",
    GROUP,
)
def error_markers(item: AuditItem, ctx: AuditContext, stats: CheckStats) -> list[Finding]:
    qa = item.qa
    found = set(item.flags)
    if qa.get("answer") is None:
        found.add("error_answer")
    texts = {
        "question": qa.get("question"),
        "answer": qa.get("answer"),
        "choices": str(qa.get("choices")),
        "ground truth": qa.get("ground_truth"),
    }
    where = [k for k, v in texts.items() if isinstance(v, str) and MARKER.search(v)]
    if not found and not where:
        return []
    stats.counts["items flagged"] += 1
    detail = ", ".join(sorted(found | {f"marker in {w}" for w in where}))
    return [finding("error_markers", "error", item, f"failed generation: {detail}")]


@item_check(
    "evidence_ids",
    "every question names its evidence messages, and every id is a message of the trajectory",
    GROUP,
)
def evidence_ids(item: AuditItem, ctx: AuditContext, stats: CheckStats) -> list[Finding]:
    steps = item.qa.get("target_step_id")
    mids = {m.get("mid") for m in item.messages}
    out = []
    if not isinstance(steps, list) or not steps:
        stats.counts["empty"] += 1
        return [finding("evidence_ids", "error", item, "no evidence message ids")]
    bad = [s for s in steps if not isinstance(s, int) or s not in mids]
    if bad:
        stats.counts["out of range"] += 1
        out.append(finding("evidence_ids", "error", item, f"ids {bad} name no message"))
    if len(set(map(str, steps))) != len(steps):
        stats.counts["repeated"] += 1
        out.append(finding("evidence_ids", "warning", item, f"ids repeated: {steps}"))
    if len(mids) != len(item.messages):
        out.append(finding("evidence_ids", "error", item, "two messages share an id"))
    return out


@item_check(
    "options_distinct",
    "every multiple-choice item has four options, distinct after normalisation "
    "(near-duplicates, one non-digit character apart, are reported as warnings)",
    GROUP,
)
def options_distinct(item: AuditItem, ctx: AuditContext, stats: CheckStats) -> list[Finding] | None:
    choices = item.choices()
    if not choices:
        return None
    out = []
    if sorted(choices) != ["A", "B", "C", "D"]:
        out.append(finding("options_distinct", "error", item, f"letters {sorted(choices)}"))
    keys = {letter: squash(text) for letter, text in choices.items()}
    letters = sorted(keys)
    for i, a in enumerate(letters):
        for b in letters[i + 1 :]:
            x, y = keys[a], keys[b]
            if x == y:
                stats.counts["duplicate pairs"] += 1
                out.append(
                    finding(
                        "options_distinct",
                        "error",
                        item,
                        f"options {a} and {b} are the same: {choices[a]!r} / {choices[b]!r}",
                    )
                )
            elif _near(x, y):
                stats.counts["near-duplicate pairs"] += 1
                out.append(
                    finding(
                        "options_distinct",
                        "warning",
                        item,
                        f"options {a} and {b} differ by one character: "
                        f"{choices[a]!r} / {choices[b]!r}",
                    )
                )
    if out:
        stats.counts["items with duplicates"] += 1
    return out


@item_check(
    "ground_truth_letter",
    "the ground-truth letter is one of the options and its text is the answer",
    GROUP,
)
def ground_truth_letter(
    item: AuditItem, ctx: AuditContext, stats: CheckStats
) -> list[Finding] | None:
    choices, truth, answer = item.choices(), item.qa.get("ground_truth"), item.qa.get("answer")
    if not choices:
        return None
    if truth not in choices:
        stats.counts["letter not an option"] += 1
        return [finding("ground_truth_letter", "error", item, f"ground truth {truth!r}")]
    if choices[str(truth)] != answer:
        same = isinstance(answer, str) and squash(choices[str(truth)]) == squash(answer)
        stats.counts["differs only in format" if same else "maps to another text"] += 1
        return [
            finding(
                "ground_truth_letter",
                "warning" if same else "error",
                item,
                f"option {truth} is {choices[str(truth)]!r}, the answer is {answer!r}",
            )
        ]
    return []


@item_check(
    "timestamps_increasing",
    "every message time parses, names its real weekday, and comes strictly after the previous "
    "one (or at the same time, inside a session dated as a whole as LongMemEval and LoCoMo do)",
    GROUP,
)
def timestamps_increasing(item: AuditItem, ctx: AuditContext, stats: CheckStats) -> list[Finding]:
    out = []
    previous = None
    backwards = 0
    # formats that date sessions, not turns (LongMemEval, LoCoMo), give every turn of a
    # session its date: equal times inside such a session are not a step back
    dated = {s.id for s in item.record.sessions if len({t.time for t in s.turns}) == 1}
    for position, m in enumerate(item.messages):
        stamp = parse_stamp(m.get("time"))
        if stamp is None:
            stats.counts["unreadable times"] += 1
            out.append(finding("timestamps_increasing", "error", item, f"time {m.get('time')!r}"))
            continue
        if not stamp.weekday_ok:
            stats.counts["wrong weekdays"] += 1
            out.append(
                finding("timestamps_increasing", "error", item, f"weekday of {m.get('time')!r}")
            )
        same_dated = (
            previous is not None
            and stamp.when == previous[1]
            and m.get("session") in dated
            and m.get("session") == item.messages[previous[0]].get("session")
        )
        if previous is not None and stamp.when <= previous[1] and not same_dated:
            backwards += 1
            if backwards <= 3:  # one finding per step, at most three per item
                out.append(
                    finding(
                        "timestamps_increasing",
                        "error",
                        item,
                        f"message {position} at {m.get('time')} is not after message "
                        f"{previous[0]} at {item.messages[previous[0]].get('time')}",
                    )
                )
        previous = (position, stamp.when)
    if backwards:
        stats.counts["trajectories not increasing"] += 1
        stats.counts["steps not increasing"] += backwards
    return out


@item_check(
    "question_after_messages",
    "every question is asked after the last message of its trajectory",
    GROUP,
)
def question_after_messages(
    item: AuditItem, ctx: AuditContext, stats: CheckStats
) -> list[Finding] | None:
    asked = parse_stamp(item.qa.get("time"))
    if asked is None:
        stats.counts["unreadable question times"] += 1
        return [finding("question_after_messages", "error", item, "question time unreadable")]
    stamps = [s for s in (parse_stamp(m.get("time")) for m in item.messages) if s]
    if not stamps:
        return None
    last = max(s.when for s in stamps)
    if asked.when > last:
        return []
    stats.counts["asked before the last message" if asked.when < last else "asked at it"] += 1
    return [
        finding(
            "question_after_messages",
            "error" if asked.when < last else "warning",
            item,
            f"asked at {item.qa.get('time')}, the last message is at {last:%Y-%m-%d %H:%M}",
        )
    ]


@item_check(
    "option_dates_valid",
    "no option or answer names a date that cannot exist (February 30, 2月30日) or a "
    "weekday that does not match its date",
    GROUP,
)
def option_dates_valid(
    item: AuditItem, ctx: AuditContext, stats: CheckStats
) -> list[Finding] | None:
    texts = {**item.choices()}
    if isinstance(item.qa.get("answer"), str):
        texts["answer"] = item.qa["answer"]
    out = []
    for where, text in texts.items():
        for seen in dates_seen(text):
            problem = seen.problem()
            if problem:
                stats.counts["wrong weekdays" if "weekday" in problem else "impossible days"] += 1
                out.append(
                    finding(
                        "option_dates_valid", "error", item, f"{where}: {seen.text!r}: {problem}"
                    )
                )
    return out
