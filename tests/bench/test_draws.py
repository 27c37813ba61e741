"""``draw_bounded`` draws exactly what ``int(rng.integers(n))`` one by one draws."""

from __future__ import annotations

import numpy as np

from memsim.bench._draws import AT_ONCE, draw_bounded, floyd_bounds, floyd_sample


def _state(rng: np.random.Generator) -> tuple[object, ...]:
    s = rng.bit_generator.state
    return (s["state"], s["has_uint32"], s["uinteger"] if s["has_uint32"] else None)


def test_same_draws_and_same_state_as_the_calls_one_by_one() -> None:
    plan = np.random.default_rng(11)
    for _ in range(400):
        seed = int(plan.integers(1 << 30))
        one, many = np.random.default_rng(seed), np.random.default_rng(seed)
        for _ in range(int(plan.integers(1, 5))):
            top = int(plan.choice([2, 5, 12, 1000, 2**31]))  # 2**31: Lemire retries happen
            bounds = [int(x) for x in plan.integers(1, top, size=int(plan.integers(0, 80)))]
            assert draw_bounded(many, bounds) == [int(one.integers(n)) for n in bounds]
            assert _state(many) == _state(one)
            # other draws in between, as the noise infusion makes them
            assert list(many.permutation(7)) == list(one.permutation(7))
            assert int(many.integers(9)) == int(one.integers(9))
        assert many.random() == one.random()


def test_bounds_of_one_draw_nothing() -> None:
    rng = np.random.default_rng(0)
    before = _state(rng)
    assert draw_bounded(rng, [1] * (2 * AT_ONCE)) == [0] * (2 * AT_ONCE)
    assert _state(rng) == before


def test_floyd_draws_are_rng_choice_without_replacement() -> None:
    """rng.choice(n, k, replace=False) is Floyd's draws and a shuffle, all bounded
    32-bit draws: drawn with draw_bounded they give the same set, and leave the
    generator where choice leaves it (k = n, k = 1, n = 1, a held half before)."""
    plan = np.random.default_rng(12)
    cases = [(1, 1), (5, 5), (7, 1), (10_000, 9_000), (20_000, 400)]
    cases += [(int(n), int(plan.integers(1, n + 1))) for n in plan.integers(1, 3000, size=200)]
    for seed, (n, k) in enumerate(cases):
        one, many = np.random.default_rng(seed), np.random.default_rng(seed)
        if seed % 2:  # a half held from an earlier 32-bit draw
            assert int(one.integers(9)) == int(many.integers(9))
        bounds = floyd_bounds(n, k)
        assert bounds is not None
        values = draw_bounded(many, bounds)
        assert floyd_sample(n, k, values) == set(one.choice(n, size=k, replace=False).tolist())
        assert _state(many) == _state(one)
        assert many.random() == one.random()
    assert floyd_bounds(20_000, 401) is None  # choice shuffles the tail of range(n)
