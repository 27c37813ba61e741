"""Format features of a message, a seeded reservoir of trajectories, and logistic
regression with cross-validation and a within-group AUC, in numpy only."""

from __future__ import annotations

import math
import re
from typing import Generic, TypeVar

import numpy as np
from numpy.typing import NDArray

from memsim.audit._text import CJK, TERMINAL

FOLDS = 5
CV_SE_FACTOR = math.sqrt(1 + FOLDS / (FOLDS - 1))
"""How much wider the standard error of an out-of-fold AUC is than the spread of its
pairs across trajectories says (1.5 for 5 folds): that spread takes the fitted models as
fixed, but each fold's model is fitted on a sample too, and their errors correlate.
Nadeau and Bengio's corrected resampled variance (2003) multiplies the naive one by
1 + k * n_test / n_train = 1 + k / (k - 1) for k folds. Measured here: the format
classifier's evidence-vs-negative AUC over 10 questions per kind (about 38 trajectories)
spread with a standard deviation of about 0.08 across seeds (0.43-0.67 over seven runs),
where the across-trajectory error said about 0.05."""
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


T = TypeVar("T")


class Reservoir(Generic[T]):
    """A uniform sample of at most ``size`` trajectories (Algorithm R, seeded); each
    keeps its messages' rows, so pairs within a trajectory survive sampling."""

    def __init__(self, size: int, rng: np.random.Generator):
        self.size, self.rng, self.seen = size, rng, 0
        self.items: list[tuple[int, str, list[T]]] = []

    def add(self, item: tuple[int, str, list[T]]) -> None:
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
    error of that ratio estimator across groups, and the number of pairs.

    Counted for every group at once (no per-group pair matrix): the scores become
    integer ranks, each positive a (group, rank) key in one sorted array, and each
    negative finds the positives of its group above it and level with it by binary
    search. The counts are integers, so each group's concordance is the same float as
    a pair-by-pair count gives, in the same (group) order."""
    ids, at = np.unique(groups, return_inverse=True)
    at = at.astype(np.int64)
    pos, neg = y == 1, y == 0
    n_pos = np.bincount(at[pos], minlength=len(ids))
    n_neg = np.bincount(at[neg], minlength=len(ids))
    _, rank = np.unique(scores, return_inverse=True)
    width = int(rank.max()) + 2 if len(rank) else 1
    key = at * width + rank.astype(np.int64)
    ranked = np.sort(key[pos])
    below = np.searchsorted(ranked, key[neg], side="left")
    upto = np.searchsorted(ranked, key[neg], side="right")
    end = np.searchsorted(ranked, (at[neg] + 1) * width, side="left")
    greater = np.bincount(at[neg], weights=end - upto, minlength=len(ids))
    level = np.bincount(at[neg], weights=upto - below, minlength=len(ids))
    both = (n_pos > 0) & (n_neg > 0)
    # whole numbers (and halves) in float64: exact, as a pair-by-pair count's
    c = greater[both] + 0.5 * level[both]
    p = (n_pos[both] * n_neg[both]).astype(np.float64)
    if len(p) < 2:
        return 0.5, 1.0, int(p.sum())
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


__all__ = [
    "CV_SE_FACTOR",
    "FEATURES",
    "FOLDS",
    "Reservoir",
    "Row",
    "cross_validated",
    "features",
    "fit",
    "within_auc",
]
