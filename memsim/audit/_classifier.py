"""The format shortcut: can a simple classifier pick the evidence out of a trajectory
by the surface form of its messages alone (length, digits, case, punctuation, script),
with no regard to what they say?

Logistic regression (L2, fitted by iteratively reweighted least squares in numpy) on
standardised format features, 5-fold cross-validated with the messages of one
trajectory kept in one fold. The score is the AUC over pairs of an evidence message
and another message *of the same trajectory* (0.5 = chance), with the standard error of
that ratio across trajectories: pooling all messages would mostly measure that QA
kinds differ. Our records have roles: evidence is compared with hard negatives, noise,
filler and all the rest (chit-chat included); MemDaily has no roles: evidence
(``target_step_id``) is compared with the rest. A seeded reservoir keeps at most
``classifier_items`` trajectories, so memory is bounded whatever the dataset's size.
"""

from __future__ import annotations

import math
import re
from dataclasses import replace

import numpy as np
from numpy.typing import NDArray

from memsim.audit._context import AuditContext
from memsim.audit._framework import dataset_check
from memsim.audit._shortcuts import report_excess
from memsim.audit._text import CJK, TERMINAL
from memsim.audit._types import AuditItem, CheckStats, Finding

FOLDS = 5
MIN_CLASS = 20
RIDGE = 1.0
FEATURES = (
    "log length",
    "log words",
    "digit share",
    "latin letter share",
    "uppercase share of Latin letters",
    "CJK share",
    "log punctuation",
    "terminal punctuation",
    "question mark",
    "exclamation",
    "sentences",
    "commas",
    "log inner capitals",
    "digit run of 4+",
    "at sign",
)


_DIGIT = re.compile(r"\d")
_LATIN = re.compile(r"[A-Za-z]")
_UPPER = re.compile(r"[A-Z]")
_PUNCT = re.compile(r"[^\w\s]")
_INNER_CAP = re.compile(r"(?<=\s)[A-Z]")
_SENTENCE = re.compile(r"[.。!！?？]+")
_COMMA = re.compile(r"[,，、]")
_RUN4 = re.compile(r"\d{4}")


def features(text: str) -> list[float]:
    n = max(len(text), 1)
    latin = len(_LATIN.findall(text))
    letters = latin + len(CJK.findall(text))
    return [
        math.log1p(len(text)),
        math.log1p(len(text.split())),
        len(_DIGIT.findall(text)) / n,
        latin / n,
        len(_UPPER.findall(text)) / max(latin, 1),
        (letters - latin) / n,
        math.log1p(len(_PUNCT.findall(text))),
        float(text.rstrip()[-1:] in TERMINAL),
        float("?" in text or "？" in text),
        float("!" in text or "！" in text),
        float(len(_SENTENCE.findall(text))),
        float(len(_COMMA.findall(text))),
        math.log1p(len(_INNER_CAP.findall(text))),
        float(_RUN4.search(text) is not None),
        float("@" in text),
    ]


Row = tuple[list[float], str]
"""(format features, class) of one message."""


class Reservoir:
    """A uniform sample of at most ``size`` trajectories (Algorithm R, seeded); each
    keeps its messages' rows, so pairs within a trajectory survive sampling."""

    def __init__(self, size: int, rng: np.random.Generator):
        self.size, self.rng, self.seen = size, rng, 0
        self.items: list[tuple[int, str, list[Row]]] = []

    def add(self, item: tuple[int, str, list[Row]]) -> None:
        self.seen += 1
        if len(self.items) < self.size:
            self.items.append(item)
            return
        j = int(self.rng.integers(self.seen))
        if j < self.size:
            self.items[j] = item


def fit(x: NDArray[np.float64], y: NDArray[np.float64]) -> NDArray[np.float64]:
    """L2-regularised logistic regression by IRLS; x has a leading column of ones."""
    w = np.zeros(x.shape[1])
    penalty = RIDGE * np.eye(x.shape[1])
    penalty[0, 0] = 0.0
    for _ in range(30):
        p = 1 / (1 + np.exp(-np.clip(x @ w, -30, 30)))
        s = p * (1 - p) + 1e-9
        step = np.linalg.solve(x.T @ (x * s[:, None]) + penalty, x.T @ (y - p) - penalty @ w)
        w += step
        if np.abs(step).max() < 1e-6:
            break
    return w


def within_auc(
    scores: NDArray[np.float64], y: NDArray[np.float64], groups: NDArray[np.int64]
) -> tuple[float, float, int]:
    """AUC over the (positive, negative) pairs of the same group, with the standard
    error of that ratio estimator across groups, and the number of pairs."""
    concordant, pairs = [], []
    for g in np.unique(groups):
        idx = groups == g
        pos, neg = scores[idx & (y == 1)], scores[idx & (y == 0)]
        if len(pos) and len(neg):
            diff = pos[:, None] - neg[None, :]
            concordant.append(float((diff > 0).sum() + 0.5 * (diff == 0).sum()))
            pairs.append(float(diff.size))
    if len(pairs) < 2:
        return 0.5, 1.0, int(sum(pairs))
    c, p = np.array(concordant), np.array(pairs)
    a = float(c.sum() / p.sum())
    g = len(p)
    var = float(((c - a * p) ** 2).sum()) / (g * (g - 1)) / float(p.mean()) ** 2
    return a, math.sqrt(max(var, 1e-12)), int(p.sum())


def cross_validated(
    x: NDArray[np.float64], y: NDArray[np.float64], groups: NDArray[np.int64]
) -> NDArray[np.float64]:
    """Out-of-fold scores, the messages of one trajectory in one fold."""
    x = (x - x.mean(axis=0)) / (x.std(axis=0) + 1e-9)
    x = np.hstack([np.ones((len(x), 1)), x])
    folds = groups % FOLDS
    out = np.zeros(len(y))
    for k in range(FOLDS):
        test = folds == k
        train = ~test
        if test.any() and 0 < y[train].sum() < train.sum():
            out[test] = x[test] @ fit(x[train], y[train])
    return out


PAIRS = {
    ("evidence", "negative"): "error",
    ("evidence", "noise"): "error",
    ("evidence", "filler"): "warning",
    ("evidence", "rest"): "warning",
}
"""Pairs of message classes, and the worst severity on our own data. Hard negatives and
noise are what a reader who knows the question must tell apart from the evidence, so a
format that separates them is a leak. Filler states other attributes than the question
asks (which the question's own words already tell apart), so separating it by format
is reported, as a warning at most."""


@dataset_check(
    "shortcut_format_classifier",
    "a classifier of message format alone does not pick the evidence out of a trajectory: "
    "within-trajectory AUC near 0.5 against hard negatives and noise",
    "shortcut",
)
class FormatClassifier:
    def __init__(self, ctx: AuditContext, stats: CheckStats):
        self.ctx, self.stats = ctx, stats
        rng = np.random.default_rng(ctx.options.seed)
        self.sample = Reservoir(ctx.options.classifier_items, rng)
        stats.notes.append(
            f"logistic regression on {len(FEATURES)} format features "
            f"({', '.join(FEATURES)}), {FOLDS}-fold cross-validation grouped by trajectory; "
            "AUC over pairs of an evidence message and another message of the same "
            "trajectory (pooling trajectories would confound QA kind with class); "
            f"at most {ctx.options.classifier_items} trajectories sampled; our records: "
            "evidence vs hard negatives, noise, filler and all the rest (chit-chat "
            "included); MemDaily (no roles): evidence (target_step_id) vs the rest"
        )

    def visit(self, item: AuditItem) -> list[Finding] | None:
        steps = item.qa.get("target_step_id")
        evidence = set(steps) if isinstance(steps, list) else set()
        rows: list[Row] = []
        for m in item.messages:
            text = m.get("message")
            if not isinstance(text, str):
                continue
            role = m.get("role")
            if m.get("mid") in evidence:
                cls = "evidence"
            elif role is None:
                cls = "rest"
            else:
                cls = str(role)
            rows.append((features(text), cls))
        if not rows:
            return None
        self.sample.add((item.index, item.type, rows))
        return []

    def finish(self) -> list[Finding]:
        out: list[Finding] = []
        for (pos, neg), worst in PAIRS.items():
            table = self._pair(pos, neg)
            if not table:
                continue
            name = f"{pos} vs {neg}"
            self.stats.scores[name] = table
            found = report_excess(
                self.ctx,
                "shortcut_format_classifier",
                {f"{name}, {k}": v for k, v in table.items()},
                "auc",
                "chance",
            )
            if worst == "warning":
                found = [
                    replace(f, severity="warning") if f.severity == "error" else f for f in found
                ]
            out += found
        return out

    def _pair(self, pos: str, neg: str) -> dict[str, dict[str, float]]:
        want = {pos: 1.0, neg: 0.0} if neg != "rest" else None
        feats, labels, groups, kinds = [], [], [], []
        for index, kind, rows in self.sample.items:
            for row, cls in rows:
                label = (1.0 if cls == pos else 0.0) if want is None else want.get(cls)
                if label is None:
                    continue
                feats.append(row)
                labels.append(label)
                groups.append(index)
                kinds.append(kind)
        y = np.array(labels)
        if y.sum() < MIN_CLASS or (1 - y).sum() < MIN_CLASS:
            return {}
        g = np.array(groups, dtype=np.int64)
        scores = cross_validated(np.array(feats, dtype=np.float64), y, g)
        k = np.array(kinds)
        table = {}
        for kind in [*sorted(set(kinds)), "all"]:
            mask = np.ones(len(y), bool) if kind == "all" else k == kind
            value, se, pairs = within_auc(scores[mask], y[mask], g[mask])
            if pairs:
                table[kind] = {
                    "auc": round(value, 4),
                    "chance": 0.5,
                    "z": round((value - 0.5) / se, 2),
                    "n": pairs,
                }
        return table
