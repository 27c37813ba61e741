"""No word said twice in a row where one was meant ("The market day is on on May 3",
"the the"): a seam between a phrasing or a question template and the value it is
filled with. Latin words only (a Chinese text has no spaces to find a word by, and its
reduplications, 天天, are words of their own). Each message, question and option is
read once; a doubled word is a warning, since English has a few doubles that are right
("had had", "that that"), which the message names so a reader can judge.
"""

from __future__ import annotations

import re

from memsim.audit._context import AuditContext
from memsim.audit._framework import item_check
from memsim.audit._types import AuditItem, CheckStats, Finding, finding

NAME = "doubled_words"
_DOUBLED = re.compile(r"(?<![\w'-])([A-Za-z]+)\s+\1(?![\w'-])", re.IGNORECASE)


def doubled(text: str) -> str | None:
    """The first word ``text`` says twice in a row, or None."""
    found = _DOUBLED.search(text)
    return None if found is None else found.group(0)


@item_check(
    NAME,
    'no message, question or option says a word twice in a row ("is on on May 3"): '
    "counted per text",
    "structure",
)
def doubled_words(item: AuditItem, ctx: AuditContext, stats: CheckStats) -> list[Finding]:
    texts = [(f"message {m.get('mid')}", str(m.get("message", ""))) for m in item.messages]
    texts.append(("the question", str(item.qa.get("question") or "")))
    choices = item.qa.get("choices") or {}
    texts += [(f"option {k}", str(v)) for k, v in choices.items()]
    out = []
    for where, text in texts:
        stats.counts["texts read"] += 1
        found = doubled(text)
        if found is None:
            continue
        stats.counts["texts with a doubled word"] += 1
        out.append(finding(NAME, "warning", item, f'{where} says "{found}": {text[:120]}'))
    return out


__all__ = ["doubled", "doubled_words"]
