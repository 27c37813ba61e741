"""Outcome weights fitted so that a comparison scenario's outcomes are even over the
profiles, where a share of them can realise only some outcomes."""

from __future__ import annotations

import numpy as np

from memsim.qa._even import chances, fit_weights

SLACK = 1.5


def _profiles(n_all: int, n_two: int) -> tuple[np.ndarray, np.ndarray]:
    """``n_all`` profiles that can realise every outcome (K 0.3 each) and ``n_two`` that
    can realise only the second and the fourth (K 0.3 each), all expected to keep 1.2."""
    every = [[0.3, 0.3, 0.3, 0.3]] * n_all
    two = [[0.0, 0.3, 0.0, 0.3]] * n_two
    return np.array(every + two), np.full(n_all + n_two, 1.2)


def test_even_shares_keep_weights_of_one() -> None:
    kept, expected = _profiles(200, 0)
    assert fit_weights(kept, expected, SLACK) == (1.0, 1.0, 1.0, 1.0)


def test_profiles_that_realise_two_outcomes_are_evened_by_the_others() -> None:
    kept, expected = _profiles(120, 80)  # 40%: feasible
    before = chances(kept, expected, np.ones(4), SLACK).mean(axis=0)
    assert before[1] > 0.33, before  # the two outcomes they can realise take more
    weights = fit_weights(kept, expected, SLACK)
    after = chances(kept, expected, np.array(weights), SLACK).mean(axis=0)
    assert np.allclose(after, 0.25, atol=1e-3), (weights, after)
    assert max(weights) == 1.0 and weights[1] < 1.0 and weights[3] < 1.0


def test_weights_are_not_fitted_to_noise_or_to_too_few_profiles() -> None:
    rng = np.random.default_rng(0)
    kept = rng.uniform(0.2, 0.4, size=(400, 4))  # even in expectation
    assert fit_weights(kept, np.full(400, 1.2), SLACK) == (1.0, 1.0, 1.0, 1.0)
    few, expected = _profiles(10, 10)
    assert fit_weights(few, expected, SLACK) == (1.0, 1.0, 1.0, 1.0)


def test_infeasible_shares_end_as_even_as_the_profiles_allow() -> None:
    kept, expected = _profiles(40, 160)  # 80% can give only two outcomes: 0.4 each at least
    before = chances(kept, expected, np.ones(4), SLACK).mean(axis=0)
    weights = fit_weights(kept, expected, SLACK)
    after = chances(kept, expected, np.array(weights), SLACK).mean(axis=0)
    # 0.45 before; the rest of the way to 0.4 is the even share a profile with every
    # outcome deals (a third of its chance here), which no weight moves
    assert before[1] > 0.449 and after[1] < 0.42 and after[3] < 0.42, (weights, after)
