"""``draw_bounded`` draws exactly what ``int(rng.integers(n))`` one by one draws."""

from __future__ import annotations

import numpy as np

from memsim.bench._draws import AT_ONCE, draw_bounded


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
