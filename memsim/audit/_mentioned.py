"""The mentioned-option baseline: pick the option that the conversation mentions.

A reader that only spots which options occur anywhere in the messages (normalised
text; a two-part option counts by the share of its parts that occur) and guesses among
them does not need to remember who said what. When the answer is the only option
ever mentioned, this wins; when distractors are said as often (other entities' values,
values said about other people), it is at chance. Ties are credited fractionally.
Bare numbers are left out (a "3" occurs in any conversation).

This reader is not memory-free (it reads the conversation, if not who said what), so
its bound is the issue's: at most 0.50 (``MARGIN`` above chance, for four options).
A clean result: per kind and per kind and scenario, the baseline is at most that; the
share of questions whose answer is the only
mentioned option is reported beside it.
"""

from __future__ import annotations

import re
from collections import Counter

from memsim.audit._blind import report
from memsim.audit._context import AuditContext
from memsim.audit._framework import dataset_check
from memsim.audit._shortcuts import Accuracy, credit
from memsim.audit._text import CJK, fold, squash
from memsim.audit._types import AuditItem, CheckStats, Finding

NAME = "shortcut_mentioned_option"
MARGIN = 0.25
_WORDS = re.compile(r"\w+")
_PART = re.compile(r"\s*[;；]\s*")


def words(text: str) -> str:
    """The text as space-separated word characters, with a space at each end."""
    return " " + " ".join(_WORDS.findall(fold(text))) + " "


def mentioned(part: str, conversation: str) -> bool:
    """Whether ``part`` occurs in ``conversation`` (given by :func:`words`): as whole
    words ("5 years" is not in "35 years old"), or, for text with CJK characters (no
    spaces between words), as a substring of the squashed text."""
    if CJK.search(part):
        return squash(part) in conversation.replace(" ", "")
    return words(part) in conversation


def mention_scores(options: list[str], conversation: str) -> list[float]:
    """For each option, the share of its parts that occur in ``conversation`` (given by
    :func:`words`); bare numbers are never counted."""
    out = []
    for option in options:
        parts = [p for p in _PART.split(option) if len(squash(p)) >= 2 and not squash(p).isdigit()]
        out.append(sum(mentioned(p, conversation) for p in parts) / len(parts) if parts else 0.0)
    return out


@dataset_check(
    NAME,
    "picking the option the conversation mentions is near chance (distractors are said "
    "in the conversation as often as the answer)",
    "shortcut",
)
class MentionedOption:
    def __init__(self, ctx: AuditContext, stats: CheckStats):
        self.ctx, self.stats = ctx, stats
        self.acc = Accuracy()
        self.only: Counter[str] = Counter()
        stats.notes.append(
            "options (normalised; hybrid: the share of parts) that occur in any message "
            "win; a guess among the winners, or among all when none occurs; bare numbers "
            "never count as mentioned"
        )

    def visit(self, item: AuditItem) -> list[Finding] | None:
        choices, truth = item.choices(), item.qa.get("ground_truth")
        if len(choices) < 2 or truth not in choices or not item.messages:
            return None
        letters = sorted(choices)
        conversation = words(" ".join(str(m.get("message", "")) for m in item.messages))
        scores = mention_scores([choices[k] for k in letters], conversation)
        gold = letters.index(str(truth))
        hit = credit(scores, gold)
        for key in (item.type, f"{item.type}/{item.scenario}"):
            self.acc.add(key, hit, 1 / len(letters))
            if scores[gold] > 0 and sum(s > 0 for s in scores) == 1:
                self.only[key] += 1
        return []

    def finish(self) -> list[Finding]:
        scores = {k: v for k, v in self.acc.scores().items() if k != "all"}
        for key, row in scores.items():
            row["only_answer_mentioned"] = round(self.only[key] / row["n"], 4)
        self.stats.scores = scores
        return report(self.ctx, NAME, scores, MARGIN)


__all__ = ["MentionedOption", "mention_scores"]
