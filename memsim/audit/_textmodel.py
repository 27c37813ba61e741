"""A small bag-of-words model for the content shortcuts: hashed TF-IDF features of a
text, an L2-regularised logistic regression run for a fixed ``STEPS`` of Nesterov's
method on sparse rows, out-of-fold scores grouped by trajectory, AUC with its standard
error, and the severity of an excess over chance with a confidence interval.

Cheap by construction: features are hashed into ``BUCKETS`` columns (crc32, so the
same text gives the same column in every process), rows are sparse, and a fit is
``STEPS`` sparse matrix-vector products. The fit stops at ``STEPS`` whether or not it
has converged: it is an early-stopped, so more strongly regularised, estimate of the L2
optimum, fixed so that the report's floats are the same on every machine.

How many steps a caller asks for is its figures' to say (they were 300 for both). The
blind classifier's matrices (about 2,000 option rows a kind) after 100 steps: accuracies
per kind within 0.004 of 300 steps' on make dataset en (seed 0), 0.006 on zh, 0.010 on
MemDaily. The evidence-text matrix (17,000 rows, worse conditioned: its bias alone has
curvature n / 4) after 200 steps: AUCs per kind within 0.005 of 300 steps' on en (and
of 1,200 steps', about converged), 0.008 on zh, 0.002 on MemDaily; 100 steps moved
them by up to 0.02. scipy's L-BFGS-B to a gradient tolerance of 1e-5 gives figures
within 0.002 of 300 steps' at 10-25x its CPU here.
"""

from __future__ import annotations

import math
import re
import zlib
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache

import numpy as np
from numpy.typing import NDArray
from scipy import sparse

from memsim.audit._context import AuditContext
from memsim.audit._text import CJK, fold
from memsim.audit._types import Severity

BUCKETS = 2**10
FOLDS = 5
RIDGE = 1.0
STEPS = 300
POWER_STEPS = 20
_WORD = re.compile(r"[^\W\d_]+|\d+")
_CJK_RUN = re.compile(f"(?:{CJK.pattern})+")


def tokens(text: str) -> list[str]:
    """Words (Latin and digits) and character bigrams of CJK runs, case-folded."""
    return list(_tokens(text))


@lru_cache(maxsize=1 << 16)
def _tokens(text: str) -> tuple[str, ...]:
    # remembered: the blind classifier tokenises the same options again and again
    # (18,000 options of about 2,000 texts on make dataset's data)
    folded = fold(text)
    out = [w for w in _WORD.findall(folded) if not CJK.match(w)]
    for run in _CJK_RUN.findall(folded):
        out += [run[i : i + 2] for i in range(max(len(run) - 1, 1))]
    return tuple(out)


def bucket(token: str) -> int:
    found = _BUCKET.get(token)
    if found is None:
        if len(_BUCKET) >= BUCKET_MEMO:
            _BUCKET.clear()
        found = _BUCKET[token] = zlib.crc32(token.encode()) % BUCKETS
    return found


BUCKET_MEMO = 200_000
"""Tokens whose bucket :func:`bucket` remembers before starting afresh: a word recurs
across the questions, options and messages of a dataset (about 250,000 hashed at
MemDaily scale, of far fewer distinct words)."""
_BUCKET: dict[str, int] = {}


def tfidf(docs: Sequence[Sequence[str]]) -> sparse.csr_matrix:
    """Rows of sublinear term frequency x smoothed inverse document frequency over the
    hashed tokens, each row scaled to unit length."""
    indptr, cols, vals = [0], [], []
    seen: dict[tuple[str, ...], tuple[list[int], list[float]]] = {}
    for doc in docs:
        key = tuple(doc)
        row = seen.get(key)  # a recurring document is counted once
        if row is None:
            counts = Counter(map(bucket, doc))
            row = seen[key] = (list(counts), [1.0 + math.log(c) for c in counts.values()])
        cols += row[0]
        vals += row[1]
        indptr.append(len(cols))
    m = sparse.csr_matrix(
        (np.array(vals), np.array(cols, dtype=np.int64), np.array(indptr)),
        shape=(len(docs), BUCKETS),
    )
    df = np.bincount(m.indices, minlength=BUCKETS)
    idf = np.log((1 + len(docs)) / (1 + df)) + 1
    m = m @ sparse.diags(idf)
    norms = np.sqrt(np.asarray(m.multiply(m).sum(axis=1)).ravel()) + 1e-12
    return sparse.csr_matrix(sparse.diags(1 / norms) @ m)


def fit(x: sparse.csr_matrix, y: NDArray[np.float64], steps: int = STEPS) -> NDArray[np.float64]:
    """Weights (bias last) of an L2 logistic regression of y on x after ``steps`` of
    Nesterov's accelerated gradient (not run to convergence: see the module docstring),
    with the step 1 / (the loss's smoothness bound, from a few power iterations). Only
    sparse matrix-vector products: no BLAS threads, which spin on a small busy machine
    (scipy's L-BFGS-B was measured 20x slower here)."""
    _n, d = x.shape

    def forward(w: NDArray[np.float64]) -> NDArray[np.float64]:
        return np.asarray(x @ w[:-1] + w[-1], dtype=np.float64)

    def backward(r: NDArray[np.float64]) -> NDArray[np.float64]:
        return np.append(x.T @ r, r.sum())

    v = np.full(d + 1, 1 / math.sqrt(d + 1))
    top = 1.0
    for _ in range(POWER_STEPS):
        u = backward(forward(v))
        top = float(np.linalg.norm(u))
        v = u / max(top, 1e-12)
    step = 1 / (top / 4 + RIDGE)
    w = np.zeros(d + 1)
    ahead = w.copy()
    for t in range(steps):
        z = forward(ahead)
        p = 1 / (1 + np.exp(-np.clip(z, -30, 30)))
        grad = backward(p - y)
        grad[:-1] += RIDGE * ahead[:-1]
        nxt = ahead - step * grad
        ahead = nxt + (t / (t + 3)) * (nxt - w)
        w = nxt
    return w


def fit_folds(
    x: sparse.csr_matrix,
    y: NDArray[np.float64],
    trains: list[NDArray[np.bool_]],
    steps: int = STEPS,
) -> list[NDArray[np.float64]]:
    """:func:`fit` of ``x[train], y[train]`` (``steps`` each) for each train mask, all
    at once: the same weights, bit for bit, in one sparse product with a column per fit
    where :func:`fit` made one product per fit (five times the calls, each reading the
    matrix again).

    Why the numbers are the same: a row's product sums its entries in the same order in
    both; the transposed product adds each row's terms in row order, and a row outside
    a fit adds an exact zero there; the bias term sums each fit's own rows, as a
    contiguous array, as :func:`fit` does; every other step is elementwise."""
    if not trains:
        return []
    _n, d = x.shape
    mask = np.stack(trains, axis=1)
    picked = [np.flatnonzero(train) for train in trains]
    xt = x.T

    def forward(w: NDArray[np.float64]) -> NDArray[np.float64]:
        return np.asarray(x @ w[:-1] + w[-1], dtype=np.float64)

    def backward(r: NDArray[np.float64]) -> NDArray[np.float64]:
        r = np.where(mask, r, 0.0)
        out = np.empty((d + 1, len(trains)))
        out[:-1] = xt @ r
        # each fit's rows as one contiguous array, as fit() sums them
        by_fit = np.ascontiguousarray(r.T)
        out[-1] = [by_fit[k].take(rows).sum() for k, rows in enumerate(picked)]
        return out

    v = np.full((d + 1, len(trains)), 1 / math.sqrt(d + 1))
    tops = np.ones(len(trains))
    for _ in range(POWER_STEPS):
        u = backward(forward(v))
        tops = np.array(
            [float(np.linalg.norm(np.ascontiguousarray(u[:, k]))) for k in range(len(trains))]
        )
        v = u / np.maximum(tops, 1e-12)
    step = 1 / (tops / 4 + RIDGE)
    w = np.zeros((d + 1, len(trains)))
    ahead = w.copy()
    for t in range(steps):
        z = forward(ahead)
        p = 1 / (1 + np.exp(-np.clip(z, -30, 30)))
        grad = backward(p - y[:, None])
        grad[:-1] += RIDGE * ahead[:-1]
        nxt = ahead - step * grad
        ahead = nxt + (t / (t + 3)) * (nxt - w)
        w = nxt
    return [np.ascontiguousarray(w[:, k]) for k in range(len(trains))]


def out_of_fold(
    x: sparse.csr_matrix,
    y: NDArray[np.float64],
    groups: NDArray[np.int64],
    steps: int = STEPS,
) -> NDArray[np.float64]:
    """Scores of every row by a model fitted (``steps``) on the other folds (a group in
    one fold)."""
    folds = groups % FOLDS
    out = np.zeros(len(y))
    fitted = []
    for k in range(FOLDS):
        test = folds == k
        train = ~test
        if test.any() and 0 < y[train].sum() < train.sum():
            fitted.append(k)
    weights = fit_folds(x, y, [folds != k for k in fitted], steps)
    for k, w in zip(fitted, weights, strict=True):
        test = folds == k
        out[test] = x[test] @ w[:-1] + w[-1]
    return out


def auc(scores: NDArray[np.float64], y: NDArray[np.float64]) -> tuple[float, float]:
    """The AUC (ties count half) and its Hanley-McNeil standard error."""
    pos, neg = int(y.sum()), int(len(y) - y.sum())
    if not pos or not neg:
        return 0.5, 1.0
    order = np.argsort(scores, kind="stable")
    ranks = np.empty(len(scores))
    sorted_scores = scores[order]
    # average ranks over ties
    _, first, counts = np.unique(sorted_scores, return_index=True, return_counts=True)
    mean_rank = first + (counts + 1) / 2
    ranks[order] = np.repeat(mean_rank, counts)
    a = float((ranks[y == 1].sum() - pos * (pos + 1) / 2) / (pos * neg))
    q1, q2 = a / (2 - a), 2 * a * a / (1 + a)
    var = (a * (1 - a) + (pos - 1) * (q1 - a * a) + (neg - 1) * (q2 - a * a)) / (pos * neg)
    return a, math.sqrt(max(var, 1e-12))


def level(ctx: AuditContext, excess: float, se: float, n: float, margin: float) -> Severity | None:
    """An excess over chance beyond ``margin`` is an error on our own data when the
    lower end of its confidence interval (``shortcut_z`` standard errors) is still above
    chance and it is measured on ``shortcut_min_n`` items or more; a warning otherwise."""
    if excess <= margin:
        return None
    z = excess / se if se > 0 else 999.0
    if ctx.own and z >= ctx.options.shortcut_z and n >= ctx.options.shortcut_min_n:
        return "error"
    return "warning"


__all__ = [
    "BUCKETS",
    "FOLDS",
    "auc",
    "bucket",
    "fit",
    "fit_folds",
    "level",
    "out_of_fold",
    "tfidf",
    "tokens",
]
