"""Cues in the question and the options that single out the answer: spacing that only
the answer has (or lacks), and the answer's own text inside the question."""

from __future__ import annotations

import re

from memsim.audit._context import AuditContext
from memsim.audit._framework import item_check
from memsim.audit._text import WHITESPACE_FEATURES, fold, singled_out, squash
from memsim.audit._types import AuditItem, CheckStats, Finding, finding
from memsim.schema import user_kind

GROUP = "structure"


@item_check(
    "whitespace_cues",
    "no whitespace difference (leading, trailing, doubled) singles out the answer",
    GROUP,
)
def whitespace_cues(item: AuditItem, ctx: AuditContext, stats: CheckStats) -> list[Finding] | None:
    choices, truth = item.choices(), item.qa.get("ground_truth")
    if len(choices) < 3 or truth not in choices:
        return None
    letters = sorted(choices)
    answer = letters.index(str(truth))
    cues = [name for i, name in singled_out([choices[k] for k in letters]) if i == answer]
    cues = [c for c in cues if c in WHITESPACE_FEATURES]
    if not cues:
        return []
    stats.counts["items with a cue"] += 1
    for cue in cues:
        stats.counts[cue] += 1
    return [finding("whitespace_cues", "error", item, f"the answer alone differs in {cues}")]


@item_check(
    "answer_in_question",
    "no question gives its answer away: the answer's text is not in the question unless a "
    'distractor\'s is too (as in "A or B?")',
    GROUP,
)
def answer_in_question(
    item: AuditItem, ctx: AuditContext, stats: CheckStats
) -> list[Finding] | None:
    choices, truth = item.choices(), item.qa.get("ground_truth")
    question = item.qa.get("question")
    if truth not in choices or not isinstance(question, str):
        return None
    others = [c for k, c in choices.items() if k != truth]
    leaked = answer_said(question, choices[str(truth)], others + _object_forms(ctx, others))
    if leaked is None:
        return []
    whole = leaked == choices[str(truth)]
    stats.counts["answers in the question" if whole else "answer parts in the question"] += 1
    return [finding("answer_in_question", "warning", item, f"the question says {leaked!r}")]


def _object_forms(ctx: AuditContext, options: list[str]) -> list[str]:
    """How a question may say an option that is the user, in the form the option does not
    use: memsim names the user's option in the object form ("Me") and a question may
    say "my wrestler or I"; data made before (or elsewhere) names it "I" (the user
    kind's ``refer``) where the question says "Comparing my wrestler and me". The
    locale's ``self_forms.whom`` is the object form. Empty without a schema."""
    loc = ctx.locale
    if ctx.schema is None or loc is None:
        return []
    kind = user_kind(ctx.schema)
    refer = ctx.schema.entities[kind].refer.get(ctx.schema.locale) if kind else None
    whom = loc.self_forms.whom if refer else ""
    if not refer or not whom or "{" in whom:
        return []
    other = {fold(refer): whom, fold(whom): refer}
    parts = [p for o in options for p in _SPLIT.split(o)]  # a hybrid's "My peer; Me"
    return [other[fold(p)] for p in parts if fold(p) in other]


def answer_said(question: str, answer: str, others: list[str]) -> str | None:
    """The answer, or the first of its ``;``-joined parts, that ``question`` says when
    no distractor (or part of one) is said too ("A or B?" names both: no cue); None
    otherwise. A Latin word counts only whole ("red" is not said by "I'm tired"); a
    distractor counts however short (the user's "I", "我" in a comparison)."""
    asked, spaced = squash(question), _spaced(question)

    def inside(text: str, shortest: int = 3) -> bool:
        key = squash(text)
        if len(key) < shortest or key.isdigit() or key not in asked:
            return False
        edges = rf"(?<![a-z0-9]){re.escape(_spaced(text))}(?![a-z0-9])"
        return re.search(edges, spaced) is not None

    parts = [answer, *_SPLIT.split(answer)] if ";" in answer or "；" in answer else [answer]
    other_parts = [p for c in others for p in [c, *_SPLIT.split(c)]]
    leaked = [p for p in parts if inside(p)]
    if not leaked or any(inside(p, 1) for p in other_parts):
        return None
    return leaked[0]


def _spaced(text: str) -> str:
    """``text`` folded, its punctuation and spacing one space: words keep their edges."""
    return " ".join(_NOT_WORD.sub(" ", fold(text)).split())


_NOT_WORD, _SPLIT = re.compile(r"[\W_]+"), re.compile(r"\s*[;；]\s*")
