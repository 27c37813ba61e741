"""Per-outcome gold shares: is any kind of answer right more often than its share?

Two measures, per kind and per kind and scenario:
- *recurring options* (any data): an option text that recurs across a kind's questions
  ("they are the same", "you never told me both", a count) should be the answer as
  often as any other option it stands beside, 1 / #options; a reader that always picks
  it otherwise gains. Texts offered in at least ``MIN_SHARE`` of a kind's questions and
  ``shortcut_min_n`` of them are measured;
- *comparative outcomes* (our records): the share of each outcome (first, second, same,
  never told both) among comparison answers, each expected at 1 / 4.

A clean result: no recurring option and no outcome more than ``shortcut_margin`` above
its share.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict

from memsim.audit._context import AuditContext
from memsim.audit._framework import dataset_check
from memsim.audit._text import squash
from memsim.audit._textmodel import level
from memsim.audit._types import AuditItem, CheckStats, Finding, finding

NAME = "outcome_shares"
MIN_SHARE = 0.2
OUTCOMES = ("first", "second", "same", "unknown")


def comparison_outcomes(provenance: dict[str, object] | None) -> list[str]:
    """The outcome of each comparison in a record's provenance (two for a hybrid)."""
    if not provenance:
        return []
    params = provenance.get("params")
    if not isinstance(params, dict):
        return []
    parts = params.get("parts")
    found = (
        [p.get("params", {}) for p in parts if isinstance(p, dict)]
        if isinstance(parts, list)
        else [params]
    )
    return [
        str(p["outcome"]) for p in found if isinstance(p, dict) and p.get("outcome") in OUTCOMES
    ]


@dataset_check(
    NAME,
    'no recurring option ("the same", "never told", a count) and no comparison outcome '
    "is the answer more often than its share",
    "shortcut",
)
class OutcomeShares:
    def __init__(self, ctx: AuditContext, stats: CheckStats):
        self.ctx, self.stats = ctx, stats
        self.items: Counter[str] = Counter()
        self.offered: dict[str, Counter[str]] = defaultdict(Counter)
        self.gold: dict[str, Counter[str]] = defaultdict(Counter)
        self.outcomes: dict[str, Counter[str]] = defaultdict(Counter)
        stats.notes.append(
            f"recurring options: texts offered in at least {MIN_SHARE:.0%} of a kind's "
            "questions, answer rate when offered against 1 / #options; comparative "
            "outcomes (provenance): each outcome's share against 1 / 4"
        )

    def visit(self, item: AuditItem) -> list[Finding] | None:
        choices, truth = item.choices(), item.qa.get("ground_truth")
        if len(choices) < 2 or truth not in choices:
            return None
        keys = (item.type, f"{item.type}/{item.scenario}")
        for key in keys:
            self.items[key] += 1
            for letter, text in choices.items():
                self.offered[key][squash(text)] += 1
                if letter == truth:
                    self.gold[key][squash(text)] += 1
            for outcome in comparison_outcomes(item.provenance):
                self.outcomes[key][outcome] += 1
        return []

    def finish(self) -> list[Finding]:
        out: list[Finding] = []
        for key in sorted(self.items):
            row: dict[str, float | int] = {"n": self.items[key]}
            for text, n in self.offered[key].most_common(8):
                if n < max(self.ctx.options.shortcut_min_n, MIN_SHARE * self.items[key]):
                    break
                rate = self.gold[key][text] / n
                row[f"option {text[:24]}"] = round(rate, 4)
                out += self._judge(key, f"option '{text[:40]}'", rate, 0.25, n)
            total = sum(self.outcomes[key].values())
            for outcome in OUTCOMES if total else ():
                share = self.outcomes[key][outcome] / total
                row[f"outcome {outcome}"] = round(share, 4)
                out += self._judge(key, f"outcome {outcome}", share, 0.25, total)
            self.stats.scores[key] = row
        return out

    def _judge(self, key: str, what: str, rate: float, chance: float, n: int) -> list[Finding]:
        se = math.sqrt(chance * (1 - chance) / n)
        severity = level(self.ctx, rate - chance, se, n, self.ctx.options.shortcut_margin)
        if severity is None:
            return []
        return [
            finding(
                NAME,
                severity,
                None,
                f"{key}: {what} is the answer {rate:.3f} (vs {chance:.2f}, n {n})",
            )
        ]


__all__ = ["OutcomeShares", "comparison_outcomes"]
