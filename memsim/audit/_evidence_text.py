"""Evidence by text alone: can a bag-of-words model tell the evidence messages from
the rest of the conversation without seeing the question?

Every message of a seeded sample of trajectories becomes a row of hashed TF-IDF
features (:mod:`memsim.audit._textmodel`); a logistic regression separates evidence
(``target_step_id``) from the other messages, 5-fold cross-validated with a
trajectory's messages in one fold. Reported per kind and per kind and scenario: the
AUC over all (evidence, other message) pairs, and top-1, how often the message it
scores highest in a trajectory is evidence, beside a random message's chance of it.
When whole kinds of message are never evidence (names, relations, chit-chat) or
always are, this separates them; when every kind of fact is evidence in proportion, it
is near 0.5.

A clean result: over the whole dataset (the reader does not know the question's kind),
the AUC is at most 0.5 + ``AUC_MARGIN`` and top-1 within ``shortcut_margin`` of its
chance (errors); the same per kind and scenario is reported as warnings, since within a
kind the design picks the topic (an aggregative question's evidence is every entity's
value of one ordered attribute: which attribute is the question's to say).

The standard errors (AUC by Hanley and McNeil, top-1 across trajectories) treat the
cross-validated model as fixed; the reported ones, which decide a finding, are widened
by :data:`~memsim.audit._logistic.CV_SE_FACTOR` (1.5), since the fold models are
fitted on samples too. Measured: over eight seeds of a 10-per-kind
daily-life dataset (90 trajectories, about 190 evidence messages) the overall AUC spread
with a standard deviation of 0.034 where Hanley and McNeil's error said 0.023 to 0.024.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import replace
from functools import cached_property

import numpy as np

from memsim.audit._context import AuditContext
from memsim.audit._framework import dataset_check
from memsim.audit._logistic import CV_SE_FACTOR, Reservoir
from memsim.audit._textmodel import auc, level, out_of_fold, tfidf, tokens
from memsim.audit._types import AuditItem, CheckStats, Finding, finding

NAME = "shortcut_evidence_text"
AUC_MARGIN = 0.15
TRAJECTORIES = 1500
MIN_EVIDENCE = 30
FIT_STEPS = 200
"""Nesterov steps of each fit (see :mod:`memsim.audit._textmodel`): 300 before; the
AUCs per kind moved by at most 0.005 on make dataset en (as far as 1,200 steps move
them), 0.008 on zh."""


@dataset_check(
    NAME,
    "a bag-of-words classifier (cross-validated) does not tell evidence messages from the "
    "rest of the conversation by their text: AUC and top-1 near chance",
    "shortcut",
)
class EvidenceText:
    def __init__(self, ctx: AuditContext, stats: CheckStats):
        self.ctx, self.stats = ctx, stats
        # texts are kept and tokenised in finish(): only those of the trajectories the
        # reservoir keeps (1,500 of 4,500 at MemDaily scale), into the same rows
        self.sample: Reservoir[tuple[str, bool]] = Reservoir(
            TRAJECTORIES, np.random.default_rng(ctx.options.seed + 15)
        )
        stats.notes.append(
            "logistic regression (L2) on hashed TF-IDF words (CJK: character bigrams) of "
            "each message, evidence (target_step_id) against every other message, 5-fold "
            "cross-validation grouped by trajectory, one model for the whole sample of "
            f"at most {TRAJECTORIES} trajectories; AUC over all (evidence, other) pairs "
            "with its Hanley-McNeil standard error; top-1: the top-scored message of a "
            "trajectory is evidence, against #evidence / #messages"
        )

    def visit(self, item: AuditItem) -> list[Finding] | None:
        steps = item.qa.get("target_step_id")
        evidence = set(steps) if isinstance(steps, list) else set()
        framing = self._framing
        rows = [
            (str(m.get("message", "")), m.get("mid") in evidence)
            for m in item.messages
            # a message that states a fact is never framing: framing_turn() is asked
            # only of the others (51,000 messages on make dataset's data)
            if framing is None or _states_facts(m.get("facts")) or not framing(m)
        ]
        if not any(e for _, e in rows) or all(e for _, e in rows):
            return None
        key = f"{item.type}/{item.scenario}"
        self.sample.add((item.index, key, rows))
        return []

    @cached_property
    def _framing(self) -> Callable[[dict[str, object]], bool] | None:
        """Whether a message is a multi-session history's framing turn (the assistant's
        replies, a task's opening and thanks): in every session alike, evidence or
        filler (the history_session_classifier check compares those), so it is left out
        here, where the MemDaily-shaped messages are compared: the user's facts and
        chit-chat, and assistant turns that state facts. None: the locale has no
        conversation, so no message is framing."""
        loc = self.ctx.locale
        if loc is None or loc.conversation is None:
            return None
        from memsim.history._assistant import framing_turn

        def framing(m: dict[str, object]) -> bool:
            facts = m.get("facts")
            stated = [str(f) for f in facts] if isinstance(facts, list | tuple) else []
            speaker = str(m.get("speaker", "user"))
            return framing_turn(speaker, str(m.get("message", "")), stated, loc)

        return framing

    def finish(self) -> list[Finding]:
        items = sorted(self.sample.items)
        if not items:
            return []
        seen: dict[str, list[str]] = {}  # a recurring text is tokenised once

        def document(text: str) -> list[str]:
            hit = seen.get(text)
            if hit is None:
                hit = seen[text] = [str(t) for t in tokens(text)]
            return hit

        docs = [document(text) for _, _, rows in items for text, _ in rows]
        y = np.array([float(e) for _, _, rows in items for _, e in rows])
        sizes = [len(rows) for _, _, rows in items]
        groups = np.repeat(np.arange(len(items)), sizes).astype(np.int64)
        scores = out_of_fold(tfidf(docs), y, groups, FIT_STEPS)
        keys = np.repeat(np.array([k for _, k, _ in items]), sizes)
        kinds = np.array([k.split("/")[0] for k in keys])
        top: dict[str, list[tuple[float, float]]] = defaultdict(list)
        start = 0
        for (_, key, _), size in zip(items, sizes, strict=True):
            s, t = scores[start : start + size], y[start : start + size]
            start += size
            best = np.flatnonzero(s >= s.max() - 1e-12)
            hit, chance = float(t[best].mean()), float(t.mean())
            for k in (key, key.split("/")[0], "all"):
                top[k].append((hit, chance))
        out: list[Finding] = []
        for k in sorted(top, key=lambda k: (k == "all", k)):
            mask = np.ones(len(y), bool) if k == "all" else (keys == k) if "/" in k else kinds == k
            a, se = auc(scores[mask], y[mask])
            hits = np.array(top[k])
            t1, c1 = float(hits[:, 0].mean()), float(hits[:, 1].mean())
            t_se = float(hits[:, 0].std(ddof=1) / np.sqrt(len(hits))) if len(hits) > 1 else 1.0
            n_ev = int(y[mask].sum())
            se, t_se = se * CV_SE_FACTOR, t_se * CV_SE_FACTOR
            self.stats.scores[k] = {
                "auc": round(a, 4),
                "auc_se": round(se, 4),
                "top1": round(t1, 4),
                "top1_chance": round(c1, 4),
                "n_evidence": n_ev,
                "n": len(hits),
            }
            found = []
            if severity := level(self.ctx, a - 0.5, se, n_ev, AUC_MARGIN):
                found.append(
                    finding(NAME, severity, None, f"{k}: AUC {a:.3f} (se {se:.3f}, {n_ev} ev.)")
                )
            if severity := level(
                self.ctx, t1 - c1, t_se, len(hits), self.ctx.options.shortcut_margin
            ):
                found.append(
                    finding(
                        NAME,
                        severity,
                        None,
                        f"{k}: top-1 {t1:.3f} vs chance {c1:.3f} (n {len(hits)})",
                    )
                )
            # within a kind the question's design picks the topic (an aggregative
            # question's evidence is every entity's value of one ordered attribute)
            out += found if k == "all" else [replace(f, severity="warning") for f in found]
        return out


def _states_facts(facts: object) -> bool:
    """Whether a message's ``facts`` name one (framing_turn() says False of it then)."""
    return isinstance(facts, list | tuple) and len(facts) > 0


__all__ = ["EvidenceText"]
