"""Can a text classifier tell a history's evidence sessions from its filler sessions?

Filler sessions are made as evidence sessions are (other lives of the same schema,
the same session builder), so it must not: the AUC of a logistic regression on the
sessions' text features, cross-validated with the sessions of one history in one fold
and computed over (evidence session, filler session) pairs of the same history, must
stay at most :data:`MAX_AUC` (an error when it is above by more than twice its
standard error, a warning when the sample cannot tell). The standard error is the
spread of the pairs across histories widened by
:data:`~memsim.audit._logistic.CV_SE_FACTOR` (1.5), since the fold models are fitted
on samples too: over eight seeds of a 5-per-kind history dataset (50 histories, about
360 pairs, 8,000 tokens each) the AUC spread with a standard deviation of 0.072 where
the across-history error said 0.037 to 0.047. Features: the format
features of the session's user turns and of its assistant turns, the number of turns
and whether it opens with a user turn that states a fact. At most :data:`HISTORIES`
histories, :data:`FILLER` filler sessions each (picked by a stream seeded with the
question's tid).
"""

from __future__ import annotations

import numpy as np

from memsim.audit._context import AuditContext
from memsim.audit._framework import dataset_check
from memsim.audit._history import histories, history_folder
from memsim.audit._logistic import CV_SE_FACTOR, cross_validated, features, within_auc
from memsim.audit._types import AuditItem, CheckStats, Finding, Severity
from memsim.records import USER, Record, Session

MAX_AUC = 0.60
HISTORIES = 400
FILLER = 4
MIN_HISTORIES = 20


def session_features(session: Session) -> list[float]:
    user = " ".join(t.text for t in session.turns if t.speaker == USER)
    assistant = " ".join(t.text for t in session.turns if t.speaker != USER)
    opens_with_fact = float(bool(session.turns) and bool(session.turns[0].facts))
    return [*features(user), *features(assistant), float(len(session.turns)), opens_with_fact]


@dataset_check(
    "history_session_classifier",
    f"a text classifier tells evidence sessions from filler sessions with AUC at most {MAX_AUC}",
    "shortcut",
    needs=("provenance",),
)
class SessionClassifier:
    def __init__(self, ctx: AuditContext, stats: CheckStats) -> None:
        self.ctx, self.stats = ctx, stats
        self.folder = history_folder(ctx)

    def visit(self, item: AuditItem) -> None:
        return None

    def finish(self) -> list[Finding]:
        if self.folder is None:
            self.stats.notes.append("not a history dataset (no sessions.jsonl): nothing to check")
            return []
        rows: list[list[float]] = []
        labels: list[float] = []
        groups: list[int] = []
        for k, (record, own) in enumerate(histories(self.folder)):
            if k == HISTORIES:
                break
            for features_of, label in _rows(record, own):
                rows.append(features_of)
                labels.append(label)
                groups.append(k)
        self.stats.items = len(set(groups))
        if self.stats.items < MIN_HISTORIES:
            self.stats.notes.append(
                f"{self.stats.items} histories: too few to measure (at least {MIN_HISTORIES})"
            )
            return []
        x = np.array(rows, dtype=np.float64)
        y = np.array(labels, dtype=np.float64)
        g = np.array(groups, dtype=np.int64)
        auc, se, pairs = within_auc(cross_validated(x, y, g), y, g)
        se *= CV_SE_FACTOR
        self.stats.scores["evidence vs filler sessions"] = {
            "auc": round(auc, 4),
            "se": round(se, 4),
            "pairs": pairs,
        }
        self.stats.notes.append(
            f"logistic regression on {x.shape[1]} text features of each session, 5-fold "
            f"cross-validated by history; AUC over {pairs} within-history pairs of an "
            f"evidence session and a filler session ({self.stats.items} histories)"
        )
        if auc <= MAX_AUC:
            return []
        # above the bar by more than twice its standard error: an error; else the
        # sample cannot tell, and the report says so
        severity: Severity = "error" if auc - 2 * se > MAX_AUC else "warning"
        return [
            Finding(
                "history_session_classifier",
                severity,
                f"evidence sessions are told from filler sessions with AUC {auc:.3f} "
                f"(± {se:.3f}), above {MAX_AUC}",
            )
        ]


def _rows(record: Record, own: set[str]) -> list[tuple[list[float], float]]:
    evidence = set(record.extra["history"].get("evidence_sessions", ()))
    filler = [s for s in record.sessions if s.id not in own]
    rng = np.random.default_rng(record.tid)
    picked = [filler[int(i)] for i in rng.permutation(len(filler))[:FILLER]]
    out = [(session_features(s), 1.0) for s in record.sessions if s.id in evidence]
    return out + [(session_features(s), 0.0) for s in picked]
