"""Checks on message text that need no profile: placeholders, API-error text, prompt
leakage, leftover template tokens; and whether the ``place`` field says anything.

The leakage markers are the locale's ``recognise.meta_markers`` (what the verification
of LLM rewrites rejects) for every bundled locale, plus the Chinese phrases MemDaily's
rewrites leaked ("重写后的用户消息", "输出：", "[无效输出]"), kept here until a Chinese
locale carries them.
"""

from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache

from memsim.audit._context import AuditContext
from memsim.audit._framework import dataset_check, item_check
from memsim.audit._text import fold
from memsim.audit._types import AuditItem, CheckStats, Finding, finding
from memsim.verbalize import LocaleData, load_locale
from memsim.verify import meta_text_in

TOKEN = re.compile(r"\{[A-Za-z_][A-Za-z0-9_]*(?::[^{}]*)?\}")
PLACEHOLDER = re.compile(r"^\s*[\[【(（<].{0,24}[\]】)）>]\s*$")
API_ERRORS = (
    "internal server error",
    "rate limit",
    "status code",
    "traceback (most recent call last)",
    "apierror",
    "request failed",
    "service unavailable",
    "请求失败",
    "无效输出",
    "服务不可用",
)
ZH_META = (
    "重写后",
    "改写后",
    "以下是",
    "以下为",
    "下述是",
    "输出：",
    "输出示例",
    "用户消息",
    "本例中",
    "无需重写",
    "作为一个ai",
    "作为ai",
)
BUNDLED_LOCALES = ("en", "zh")


@lru_cache(maxsize=1)
def bundled_locales() -> tuple[LocaleData, ...]:
    found = []
    for code in BUNDLED_LOCALES:
        try:
            found.append(load_locale(code))
        except ValueError:
            continue  # locale not bundled (yet)
    return tuple(found)


def meta_text(text: str) -> list[str]:
    """Leakage markers in ``text``: MemDaily's Chinese ones and every bundled locale's
    (matched as verification matches them)."""
    folded = fold(text)
    found = [m for m in ZH_META if m in folded]  # the more specific phrases first
    return found + [m for loc in bundled_locales() for m in meta_text_in(text, loc)]


def garbage(text: object) -> str | None:
    """Why a message is a placeholder or garbage, or None."""
    if not isinstance(text, str) or not text.strip():
        return "empty"
    return _garbage(text)


@lru_cache(maxsize=16384)
def _garbage(text: str) -> str | None:
    # remembered: chit-chat, filler and many fact messages recur across trajectories
    if m := TOKEN.search(text):
        return f"template token {m[0]!r}"
    folded = fold(text)
    if PLACEHOLDER.match(text):
        return f"placeholder {text.strip()!r}"
    for phrase in API_ERRORS:
        if phrase in folded:
            return f"API-error text {phrase!r}"
    markers = meta_text(text)
    return f"prompt leakage or meta text {markers[0]!r}" if markers else None


@item_check(
    "message_garbage",
    "no message is empty, a placeholder, API-error text, prompt leakage or a template "
    "with unfilled {tokens}; no question, answer or option holds a {token}",
    "structure",
)
def message_garbage(item: AuditItem, ctx: AuditContext, stats: CheckStats) -> list[Finding]:
    out = []
    for m in item.messages:
        why = garbage(m.get("message"))
        if why:
            stats.counts[why.split(" '")[0]] += 1
            stats.counts["messages"] += 1
            text = str(m.get("message"))[:80]
            out.append(
                finding("message_garbage", "error", item, f"message {m.get('mid')}: {why}: {text}")
            )
    qa_texts = [item.qa.get("question"), item.qa.get("answer"), *item.choices().values()]
    for qa_text in qa_texts:
        token = TOKEN.search(qa_text) if isinstance(qa_text, str) else None
        if token:
            stats.counts["template tokens in QA"] += 1
            out.append(finding("message_garbage", "error", item, f"QA holds {token[0]!r}"))
    return out


@dataset_check(
    "place_informative",
    "reports how often a trajectory's place field never changes (MemDaily: one place per "
    "user, so it carries no information)",
    "structure",
)
class PlaceInformative:
    def __init__(self, ctx: AuditContext, stats: CheckStats):
        self.stats = stats
        self.constant: Counter[str] = Counter()
        self.total: Counter[str] = Counter()

    def visit(self, item: AuditItem) -> list[Finding] | None:
        if len(item.messages) < 2:
            return None
        places = {m.get("place") for m in item.messages}
        self.total[item.type] += 1
        self.constant[item.type] += len(places) == 1
        return []

    def finish(self) -> list[Finding]:
        for kind in sorted(self.total):
            self.stats.scores[kind] = {
                "constant place": round(self.constant[kind] / self.total[kind], 4),
                "n": self.total[kind],
            }
        total = sum(self.total.values())
        if not total:
            return []
        share = sum(self.constant.values()) / total
        self.stats.scores["all"] = {"constant place": round(share, 4), "n": total}
        return [
            finding(
                "place_informative",
                "info",
                None,
                f"{share:.1%} of trajectories keep one place for every message",
            )
        ]
