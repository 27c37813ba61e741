"""The assistant is never a source of facts: in every record with assistant turns, no
assistant turn states a value of the profile that the user has not said before it, and
none states the answer before the question (:func:`memsim.history.turn_problems`, on
the question's own sessions: those that hold its evidence)."""

from __future__ import annotations

from memsim.audit._context import AuditContext
from memsim.audit._framework import item_check
from memsim.audit._types import AuditItem, CheckStats, Finding, finding
from memsim.records import ASSISTANT


@item_check(
    "assistant_turns",
    "no assistant turn states a fact the user has not said, or the answer, before the question",
    "correctness",
    needs=("profiles", "schema", "own"),
)
def assistant_turns(item: AuditItem, ctx: AuditContext, stats: CheckStats) -> list[Finding] | None:
    from memsim.history._assistant import turn_problems

    if not any(m.get("speaker") == ASSISTANT for m in item.messages):
        return None
    if ctx.profiles is None or ctx.locale is None or item.profile_id is None:
        return None
    profile = ctx.profiles.get(item.profile_id)
    turns = (
        (
            f"turn {m.get('mid')}",
            str(m.get("speaker", "user")),
            str(m.get("message", "")),
            str(m.get("time")),
            [str(f) for f in m.get("facts") or ()],
        )
        for m in item.messages
    )
    answer = str(item.qa.get("answer", ""))
    code = ctx.locale.code
    own_words = (
        [
            refer
            for kind in ctx.schema.entities.values()
            if (refer := kind.refer.get(code)) and "{" not in refer
        ]
        if ctx.schema is not None
        else []
    )
    problems = turn_problems(turns, answer, profile, ctx.locale, own_words)
    stats.counts["assistant turns"] += sum(m.get("speaker") == ASSISTANT for m in item.messages)
    return [finding("assistant_turns", "error", item, p) for p in problems]
