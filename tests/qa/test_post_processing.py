"""Numeric post-processing answers are flattened to uniform over their likely values."""

from __future__ import annotations

from collections import Counter

import numpy as np
from scipy.stats import chisquare

from memsim.qa._numeric import digit_sum_share, flat_options


def test_flat_numeric_answers_are_uniform_over_their_support() -> None:
    share = digit_sum_share(3)
    assert abs(sum(share.values()) - 1) < 1e-9
    rng = np.random.default_rng(4)
    kept: Counter[int] = Counter()
    for _ in range(60000):
        answer = int(rng.integers(0, 10, 3).sum())
        options = flat_options(answer, share, rng)
        if options is not None:
            assert answer in options and len(set(options)) == 4
            kept[answer] += 1
    top = max(share.values())
    assert set(kept) == {v for v, p in share.items() if p >= 0.1 * top}
    assert chisquare(list(kept.values())).pvalue > 1e-3, kept
