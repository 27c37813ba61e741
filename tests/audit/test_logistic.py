"""memsim.audit._logistic.within_auc counts every group at once; it gives the same
floats as comparing every (positive, negative) pair of each group."""

from __future__ import annotations

import math

import numpy as np
import pytest
from numpy.typing import NDArray

from memsim.audit._logistic import within_auc


def pair_by_pair(
    scores: NDArray[np.float64], y: NDArray[np.float64], groups: NDArray[np.int64]
) -> tuple[float, float, int]:
    concordant, pairs = [], []
    for g in sorted(set(groups.tolist())):
        pos = scores[(groups == g) & (y == 1)]
        neg = scores[(groups == g) & (y == 0)]
        if len(pos) and len(neg):
            diff = pos[:, None] - neg[None, :]
            concordant.append(float((diff > 0).sum() + 0.5 * (diff == 0).sum()))
            pairs.append(float(diff.size))
    if len(pairs) < 2:
        return 0.5, 1.0, int(sum(pairs))
    c, p = np.array(concordant), np.array(pairs)
    a = float(c.sum() / p.sum())
    n = len(p)
    var = float(((c - a * p) ** 2).sum()) / (n * (n - 1)) / float(p.mean()) ** 2
    return a, math.sqrt(max(var, 1e-12)), int(p.sum())


@pytest.mark.parametrize("seed", range(40))
def test_within_auc_is_the_pair_by_pair_count(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 600))
    groups = rng.integers(0, max(1, n // 8), size=n).astype(np.int64)
    # rounded scores: ties within and across groups
    scores = np.round(rng.normal(size=n), int(rng.integers(0, 3)))
    y = (rng.random(n) < rng.uniform(0.05, 0.6)).astype(np.float64)
    assert within_auc(scores, y, groups) == pair_by_pair(scores, y, groups)


def test_within_auc_of_a_perfect_ranking() -> None:
    scores = np.array([0.9, 0.1, 0.8, 0.2, 0.7, 0.7])
    y = np.array([1.0, 0.0, 1.0, 0.0, 1.0, 0.0])
    groups = np.array([0, 0, 1, 1, 2, 2], dtype=np.int64)
    a, _, n = within_auc(scores, y, groups)
    assert (a, n) == (pytest.approx(5 / 6), 3)  # the tie in group 2 counts half
