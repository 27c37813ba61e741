"""The format shortcut: can a simple classifier pick the evidence out of a trajectory
by the surface form of its messages alone (length, digits, case, punctuation, script),
with no regard to what they say?

Logistic regression (L2, fitted by iteratively reweighted least squares in numpy) on
standardised format features, 5-fold cross-validated with the messages of one
trajectory kept in one fold. The score is the AUC over pairs of an evidence message
and another message *of the same trajectory* (0.5 = chance), with the standard error of
that ratio across trajectories: pooling all messages would mostly measure that QA
kinds differ. Our records have roles (see :data:`PAIRS`); MemDaily has none: evidence
(``target_step_id``) is compared with the rest. A seeded reservoir keeps at most
``classifier_items`` trajectories, so memory is bounded whatever the dataset's size.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace

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


Row = tuple[list[float], str, str]
"""(format features, class, attribute) of one message; the attribute (of its first
fact, "" when unknown) pairs evidence with the hard negatives that look like it."""


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
    """L2-regularised logistic regression by IRLS; x has a leading column of ones.

    Products go through ``einsum`` rather than BLAS: multithreaded BLAS on a small,
    busy machine spins its threads and was measured 500x slower on these shapes."""
    w = np.zeros(x.shape[1])
    penalty = RIDGE * np.eye(x.shape[1])
    penalty[0, 0] = 0.0
    for _ in range(30):
        p = 1 / (1 + np.exp(-np.clip(np.einsum("ij,j->i", x, w), -30, 30)))
        s = p * (1 - p) + 1e-9
        hessian = np.einsum("ij,ik->jk", x, x * s[:, None]) + penalty
        step = np.linalg.solve(hessian, np.einsum("ij,i->j", x, y - p) - penalty @ w)
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
    order = np.argsort(groups, kind="stable")
    cuts = np.flatnonzero(np.diff(groups[order])) + 1
    for idx in np.split(order, cuts):
        pos, neg = scores[idx][y[idx] == 1], scores[idx][y[idx] == 0]
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
            out[test] = np.einsum("ij,j->i", x[test], fit(x[train], y[train]))
    return out


@dataclass(frozen=True)
class Pair:
    name: str
    positive: frozenset[str]
    negative: frozenset[str]
    same_attribute: bool
    worst: str
    """The severity on our own data when the classifier separates the two."""


FACTS = frozenset({"evidence", "negative", "filler"})
PAIRS = (
    Pair("evidence vs negative", frozenset({"evidence"}), frozenset({"negative"}), True, "error"),
    Pair("noise vs fact", frozenset({"noise"}), FACTS, True, "error"),
    Pair("evidence vs noise", frozenset({"evidence"}), frozenset({"noise"}), False, "warning"),
    Pair("evidence vs filler", frozenset({"evidence"}), frozenset({"filler"}), False, "warning"),
    Pair("evidence vs rest", frozenset({"evidence"}), frozenset({"*"}), False, "warning"),
)
"""What is compared, and how bad a separation is on our own data. Format alone must not
tell the evidence from the hard negatives (the same attribute of the other entities:
what a reader who knows the question must still reject), nor a noise message from the
profile's own messages about the same attribute (noise must look exactly like them):
those are errors, and pair only messages about the same attribute, so that the
classifier measures form, not topic. Evidence
differs from filler and noise in *which* attributes it states (the question picks them,
and names them), which a format classifier also picks up; that is reported as a
warning, with MemDaily's evidence-vs-rest for comparison."""


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
            "trajectory (for hard negatives and noise: only pairs about the same "
            f"attribute); at most {ctx.options.classifier_items} trajectories sampled. "
            "Errors on our data: evidence vs hard negatives, noise vs the profile's own "
            "fact messages; evidence vs noise, filler and the rest (which differ in the "
            "attributes the question picks) are reported as warnings. MemDaily (no "
            "roles): evidence (target_step_id) vs the rest"
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
            facts = m.get("facts") or [""]
            rows.append((features(text), cls, str(facts[0]).rsplit(".", 1)[-1]))
        if not rows:
            return None
        self.sample.add((item.index, item.type, rows))
        return []

    def finish(self) -> list[Finding]:
        out: list[Finding] = []
        for pair in PAIRS:
            table = self._pair(pair)
            if not table:
                continue
            name, worst = pair.name, pair.worst
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

    def _pair(self, pair: Pair) -> dict[str, dict[str, float]]:
        feats, labels, groups, kinds, trajectories = [], [], [], [], []
        by_attr = pair.same_attribute
        names: dict[tuple[int, str], int] = {}
        for index, kind, rows in self.sample.items:
            for row, cls, attr in rows:
                if cls in pair.positive:
                    label = 1.0
                elif cls in pair.negative or "*" in pair.negative:
                    label = 0.0
                else:
                    continue
                feats.append(row)
                labels.append(label)
                key = (index, attr if by_attr else "")
                groups.append(names.setdefault(key, len(names)) if by_attr else index)
                trajectories.append(index)
                kinds.append(kind)
        y = np.array(labels)
        if y.sum() < MIN_CLASS or (1 - y).sum() < MIN_CLASS:
            return {}
        g = np.array(groups, dtype=np.int64)
        folds = np.array(trajectories, dtype=np.int64)
        scores = cross_validated(np.array(feats, dtype=np.float64), y, folds)
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
