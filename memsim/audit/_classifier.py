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

from dataclasses import dataclass, replace

import numpy as np

from memsim.audit._context import AuditContext
from memsim.audit._framework import dataset_check
from memsim.audit._logistic import (
    CV_SE_FACTOR,
    FEATURES,
    FOLDS,
    Reservoir,
    cross_validated,
    features,
    within_auc,
)
from memsim.audit._shortcuts import report_excess
from memsim.audit._types import AuditItem, CheckStats, Finding

MIN_CLASS = 20


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
        # messages are kept as text and featurised in finish(): only the trajectories
        # the reservoir keeps are (3,000 of 4,500 at MemDaily scale), with the same rows
        self.sample: Reservoir[tuple[str, str, str]] = Reservoir(ctx.options.classifier_items, rng)
        self.table: _Rows | None = None
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
        rows: list[tuple[str, str, str]] = []
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
            rows.append((text, cls, str(facts[0]).rsplit(".", 1)[-1]))
        if not rows:
            return None
        self.sample.add((item.index, item.type, rows))
        return []

    def finish(self) -> list[Finding]:
        out: list[Finding] = []
        self.table = _Rows(self.sample.items)
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
        rows = self.table
        assert rows is not None  # made by finish()
        positive = np.isin(rows.cls, sorted(pair.positive))
        keep = positive | (
            True if "*" in pair.negative else np.isin(rows.cls, sorted(pair.negative))
        )
        y = positive[keep].astype(np.float64)
        if y.sum() < MIN_CLASS or (1 - y).sum() < MIN_CLASS:
            return {}
        folds = rows.index[keep]
        g = _first_seen(folds * rows.attrs + rows.attr[keep]) if pair.same_attribute else folds
        scores = cross_validated(rows.features[rows.text[keep]], y, folds)
        return kind_table(scores, y, g, folds, rows.kind[keep])


class _Rows:
    """The sampled messages as columns, in the reservoir's order: each distinct text's
    format features once (43% of `make dataset`'s messages repeat an earlier one), and
    per message its text's row, class, attribute code, trajectory index and kind. A
    pair's rows are picked out by masks, so its matrix holds the same floats, in the
    same order, as the rows listed one by one."""

    def __init__(self, items: list[tuple[int, str, list[tuple[str, str, str]]]]):
        texts: dict[str, int] = {}
        attrs: dict[str, int] = {}
        text, cls, attr, index, kind = [], [], [], [], []
        for i, k, rows in items:
            for t, c, a in rows:
                text.append(texts.setdefault(t, len(texts)))
                attr.append(attrs.setdefault(a, len(attrs)))
                cls.append(c)
                index.append(i)
                kind.append(k)
        self.features = np.array([features(t) for t in texts], dtype=np.float64).reshape(
            len(texts), len(FEATURES)
        )
        self.text = np.array(text, dtype=np.int64)
        self.cls = np.array(cls, dtype=object)
        self.attr = np.array(attr, dtype=np.int64)
        self.attrs = max(len(attrs), 1)
        self.index = np.array(index, dtype=np.int64)
        self.kind = np.array(kind, dtype=object)


def kind_table(
    scores: np.ndarray, y: np.ndarray, groups: np.ndarray, folds: np.ndarray, kinds: np.ndarray
) -> dict[str, dict[str, float]]:
    """A pair's table: the within-group AUC of the out-of-fold ``scores`` per QA kind
    and over all, with its z against 0.5 (its standard error widened by
    ``CV_SE_FACTOR`` for the fitted models' own sampling), its pairs and the
    trajectories they come from (kinds with no pair left out)."""
    table: dict[str, dict[str, float]] = {}
    # each kind's rows by an integer code (np.unique sorts the names as sorted() does),
    # not by comparing every row's name with each kind's
    names, codes = np.unique(kinds, return_inverse=True)
    for code, kind in [*enumerate(names), (-1, "all")]:
        mask = np.ones(len(y), bool) if kind == "all" else codes == code
        value, se, pairs = within_auc(scores[mask], y[mask], groups[mask])
        if pairs:
            table[kind] = {
                "auc": round(value, 4),
                "chance": 0.5,
                "z": round((value - 0.5) / (se * CV_SE_FACTOR), 2),
                "n": pairs,
                "trajectories": _paired(y[mask], groups[mask], folds[mask]),
            }
    return table


def _first_seen(keys: np.ndarray) -> np.ndarray:
    """Each key's number in the order keys first occur (0, 1, ...)."""
    _, first, at = np.unique(keys, return_index=True, return_inverse=True)
    number = np.empty(len(first), dtype=np.int64)
    number[np.argsort(first, kind="stable")] = np.arange(len(first))
    return number[at.reshape(-1)]


def _paired(y: np.ndarray, groups: np.ndarray, trajectories: np.ndarray) -> int:
    """How many trajectories hold a pair (a group with both labels): the independent
    units of an AUC over pairs, which an error needs ``shortcut_min_n`` of (the pairs
    of one trajectory share its messages: a test's 42 pairs from at most 18 trajectories
    read 0.71, an error by their count, while seeds of such small runs spread by
    +-0.15)."""
    both = np.intersect1d(groups[y == 1], groups[y == 0])
    return len(np.unique(trajectories[np.isin(groups, both)]))
