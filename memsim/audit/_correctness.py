"""Correctness checks on our own records: with the profiles and the schema, every
answer is re-derived (see :mod:`memsim.audit._transforms`) and compared with what the
item displays; every option is judged by what it means; the question names what it
asks. Message checks are in :mod:`memsim.audit._faithful`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from memsim.audit._context import AuditContext
from memsim.audit._derive import DerivationError, Derived, Deriver, reference_time
from memsim.audit._framework import item_check
from memsim.audit._text import fold, squash
from memsim.audit._transforms import derive
from memsim.audit._types import AuditItem, CheckStats, Finding, finding
from memsim.audit._wording import user_named, worded_labels
from memsim.profile import Profile

NEEDS = ("provenance", "profiles", "schema")
GROUP = "correctness"


@dataclass(frozen=True)
class Derivation:
    profile: Profile
    derived: Derived | None
    error: str | None


def deriver(ctx: AuditContext) -> Deriver:
    assert ctx.schema is not None and ctx.locale is not None
    found = ctx.shared.get("deriver")
    if not isinstance(found, Deriver):
        found = ctx.shared["deriver"] = Deriver(ctx.schema, ctx.locale)
    return found


def derivation(item: AuditItem, ctx: AuditContext) -> Derivation | None:
    """The item's re-derived answer (computed once per item, shared by the checks)."""
    hit = ctx.shared.get("derivation")
    if hit is not None and hit[0] == item.index:
        return hit[1]  # type: ignore[no-any-return]
    prov, profile = item.provenance, ctx.profile(item)
    if prov is None or profile is None:
        return None
    try:
        derived: Derived | None = derive(
            deriver(ctx),
            profile,
            str(prov.get("transform")),
            dict(prov.get("params") or {}),
            frozenset(prov.get("withheld") or ()),
            reference_time(prov),
        )
        error = None
    except DerivationError as exc:
        derived, error = None, str(exc)
    result = Derivation(profile, derived, error)
    ctx.shared["derivation"] = (item.index, result)
    return result


def _json_equal(a: Any, b: Any) -> bool:
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return len(a) == len(b) and all(_json_equal(x, y) for x, y in zip(a, b, strict=True))
    return a == b or str(a) == str(b)


@item_check(
    "answer_rederived",
    "every answer equals the one re-derived from the profile and the item's provenance "
    "(transform, parameters, reference time), and the recorded answer value agrees",
    GROUP,
    NEEDS,
)
def answer_rederived(item: AuditItem, ctx: AuditContext, stats: CheckStats) -> list[Finding] | None:
    found = derivation(item, ctx)
    if found is None:
        return None
    transform = str(item.provenance.get("transform")) if item.provenance else "?"
    stats.counts[f"transform {transform}"] += 1
    if found.derived is None:
        stats.counts["not derivable"] += 1
        return [finding("answer_rederived", "error", item, f"cannot re-derive: {found.error}")]
    d, out = found.derived, []
    if item.qa.get("answer") != d.display:
        stats.counts["wrong answers"] += 1
        out.append(
            finding(
                "answer_rederived",
                "error",
                item,
                f"the answer is {item.qa.get('answer')!r}, the profile gives {d.display!r}",
            )
        )
    recorded = item.provenance.get("answer_value") if item.provenance else None
    if not _json_equal(recorded, d.value):
        stats.counts["wrong answer values"] += 1
        out.append(
            finding(
                "answer_rederived",
                "error",
                item,
                f"provenance answer_value {recorded!r}, re-derived {d.value!r}",
            )
        )
    return out


@item_check(
    "options_correct",
    "exactly one option means the re-derived answer and it is the ground-truth letter; "
    "every distractor is false for the asked entity (also at other times of its history)",
    GROUP,
    NEEDS,
)
def options_correct(item: AuditItem, ctx: AuditContext, stats: CheckStats) -> list[Finding] | None:
    found = derivation(item, ctx)
    choices = item.choices()
    if found is None or found.derived is None or not choices:
        return None
    d = found.derived
    true = sorted(letter for letter, text in choices.items() if d.means(text))
    truth = item.qa.get("ground_truth")
    out = []
    if true != [truth]:
        stats.counts["items without exactly one correct option"] += 1
        false_truth = truth not in true
        wrong = [x for x in true if x != truth]
        what = f"options meaning the answer {d.display!r}: {true or 'none'}"
        if wrong:
            stats.counts["true distractors"] += len(wrong)
        if false_truth:
            stats.counts["ground truth not correct"] += 1
        out.append(finding("options_correct", "error", item, f"{what} (ground truth {truth})"))
    for letter, text in choices.items():
        if letter != truth and any(squash(text) == squash(v) for v in d.other_values):
            stats.counts["distractors true at another time"] += 1
            out.append(
                finding(
                    "options_correct",
                    "warning",
                    item,
                    f"option {letter} {text!r} was the value at another time",
                )
            )
    return out


@item_check(
    "question_names_terms",
    "every question names what its answer was derived from: the entity (or the condition), "
    "the attribute, the predicate with its threshold",
    GROUP,
    NEEDS,
)
def question_names_terms(
    item: AuditItem, ctx: AuditContext, stats: CheckStats
) -> list[Finding] | None:
    found = derivation(item, ctx)
    if found is None or found.derived is None:
        return None
    question = fold(str(item.qa.get("question", "")))
    missing = [n for n in found.derived.needles if fold(n) not in question]
    if missing:  # an attribute named by its own wording ("How old is ...?") is named
        worded = worded_labels(ctx, question, missing) | user_named(ctx, question)
        missing = [n for n in missing if n not in worded]
    if not missing:
        return []
    stats.counts["questions missing a term"] += 1
    return [finding("question_names_terms", "error", item, f"the question does not say {missing}")]


__all__ = ["Derivation", "derivation", "deriver"]
