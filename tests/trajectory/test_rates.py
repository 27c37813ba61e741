"""memsim.trajectory._rates: the table's fast paths give the very bits of the
straightforward ones (the table decides every filler draw, so one bit moved changes
the dataset)."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from numpy.typing import NDArray

from memsim.trajectory._rates import NEWTON_STEPS, SAME_ATTRIBUTE, Key, _expected, _matrices

Drafted = list[tuple[float, Counter[Key], set[str]]]


def _drafted(seed: int, rows: int = 300) -> tuple[list[Key], Drafted]:
    rng = np.random.default_rng(seed)
    kinds, attributes = ["user", "relative", "colleague", "event"], [f"a{i}" for i in range(12)]
    keys = sorted({(k, a) for k in kinds for a in attributes if rng.random() < 0.7})
    drafted: Drafted = []
    for _ in range(rows):
        facts = Counter(
            {keys[int(i)]: int(rng.integers(1, 4)) for i in rng.permutation(len(keys))[:20]}
        )
        if rng.random() < 0.05:
            facts = Counter()  # a draft that leaves nothing spare
        asked = {attributes[int(i)] for i in rng.integers(0, 12, size=int(rng.integers(0, 3)))}
        if rng.random() < 0.1:
            asked.add("never-a-column")
        drafted.append((float(rng.uniform(1, 9)), facts, asked))
    return keys, drafted


def _matrices_by_loop(keys: list[Key], drafted: Drafted) -> tuple[NDArray, NDArray]:
    """The straightforward fill: every row, every key."""
    col = {k: i for i, k in enumerate(keys)}
    spare = np.zeros((len(drafted), len(keys)))
    boost = np.ones((len(drafted), len(keys)))
    for row, (_, facts, attributes) in enumerate(drafted):
        for k, c in facts.items():
            spare[row, col[k]] = c
        boost[row, [col[k] for k in keys if k[1] in attributes]] = SAME_ATTRIBUTE
    return spare, boost


def _expected_plain(rate: NDArray, drawn: NDArray, spare: NDArray) -> NDArray:
    """The Newton search as written first: ``spare * rate * fall`` at every step."""
    need = np.minimum(drawn, 0.999 * spare.sum(axis=1))
    t = np.zeros(len(drawn))
    for _ in range(NEWTON_STEPS):
        fall = np.exp(-t[:, None] * rate)
        gap = need - (spare * (1 - fall)).sum(axis=1)
        slope = (spare * rate * fall).sum(axis=1)
        t = t + np.where(slope > 0, gap / np.maximum(slope, 1e-300), 0.0)
    out: NDArray = (spare * -np.expm1(-t[:, None] * rate)).sum(axis=0)
    return out


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_matrices_are_the_row_by_row_fill(seed: int) -> None:
    keys, drafted = _drafted(seed)
    spare, boost = _matrices(keys, drafted)
    want_spare, want_boost = _matrices_by_loop(keys, drafted)
    assert np.array_equal(spare, want_spare) and np.array_equal(boost, want_boost)
    assert (boost == SAME_ATTRIBUTE).any() and (spare == 0).any() and (spare > 1).any()


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_expected_is_the_plain_newton_search_to_the_bit(seed: int) -> None:
    keys, drafted = _drafted(seed)
    spare, boost = _matrices(keys, drafted)
    rng = np.random.default_rng(seed + 10)
    rate = rng.uniform(0, 1, len(keys)) * (rng.random(len(keys)) < 0.9)  # some zero rates
    drawn = np.array([n for n, _, _ in drafted])
    got = _expected(rate * boost, drawn, spare)
    want = _expected_plain(rate * boost, drawn, spare)
    assert got.tobytes() == want.tobytes()
    assert (got > 0).any()
