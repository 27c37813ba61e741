"""memsim.audit._textmodel: the folds fitted together are the folds fitted one by one,
bit for bit (the audit's report must not change with how the fits are batched)."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import sparse

from memsim.audit._textmodel import FOLDS, fit, fit_folds, out_of_fold, tfidf


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_fit_folds_is_fit_of_each_fold(seed: int) -> None:
    rng = np.random.default_rng(seed)
    words = [f"w{i}" for i in range(60)]
    docs = [list(rng.choice(words, size=int(rng.integers(1, 12)))) for _ in range(400)]
    x = tfidf(docs)
    y = (rng.random(400) < 0.3).astype(np.float64)
    folds = rng.integers(0, 50, size=400) % FOLDS
    trains = [folds != k for k in range(FOLDS)]
    together = fit_folds(x, y, trains)
    assert len(together) == FOLDS
    for train, w in zip(trains, together, strict=True):
        alone = fit(x[train], y[train])
        assert np.array_equal(alone, w)  # the same floats, not merely close
    assert fit_folds(x, y, []) == []


def test_out_of_fold_scores_each_row_with_the_other_folds() -> None:
    rng = np.random.default_rng(5)
    x = sparse.csr_matrix(rng.random((200, 8)))
    y = (x.toarray()[:, 0] > 0.5).astype(np.float64)
    groups = np.arange(200, dtype=np.int64)
    scores = out_of_fold(x, y, groups)
    folds = groups % FOLDS
    for k in range(FOLDS):
        w = fit(x[folds != k], y[folds != k])
        test = folds == k
        assert np.array_equal(scores[test], x[test] @ w[:-1] + w[-1])
    # the first column decides y: held-out scores rank it
    assert scores[y == 1].mean() > scores[y == 0].mean()
