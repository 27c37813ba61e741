"""memsim._streams: the same generators as numpy's SeedSequence gives, built faster."""

from __future__ import annotations

import random

import numpy as np
import pytest

from memsim._streams import seed_words, stream, weighted_sample


def _numpy(seed: int, key: tuple[int, ...]) -> np.random.Generator:
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=key))


def _cases() -> list[tuple[int, tuple[int, ...]]]:
    # as generation uses them, then seeds and keys of every width: one 32-bit word,
    # several (a seed past 2**128 has more words than the pool), keys past the table
    fixed = [
        (0, (1, 0)),
        (0, (1, 4499)),
        (0, (1, 4499, 399)),
        (0, (16, 7, 2**31, 1234)),
        (3, ()),
        (2**63 - 1, ()),
        (2**200 + 5, (1, 2)),
        (7, tuple(range(40))),
        (0, (2**70,)),
    ]
    r = random.Random(17)
    drawn = []
    for _ in range(600):
        seed = r.choice([0, 1, r.randrange(2**32), r.randrange(2**64), r.randrange(2**140)])
        widths = [2**8, 2**31, 2**33, 2**70]
        key = tuple(r.randrange(r.choice(widths)) for _ in range(r.randrange(6)))
        drawn.append((seed, key))
    return fixed + drawn


def test_same_state_and_draws_as_numpy() -> None:
    for seed, key in _cases():
        ours, theirs = stream(seed, key), _numpy(seed, key)
        assert ours.bit_generator.state == theirs.bit_generator.state, (seed, key)
        assert ours.integers(1000, size=5).tolist() == theirs.integers(1000, size=5).tolist()
        assert ours.random() == theirs.random()


def test_words_are_the_seed_sequence_state() -> None:
    for seed, key in _cases()[:200]:
        if len(key) and max(key) >= 2**64:
            continue
        expected = np.random.SeedSequence(seed, spawn_key=key).generate_state(4, np.uint64)
        assert seed_words(seed, key) == expected.tolist()


def test_streams_of_one_prefix_do_not_share_state() -> None:
    a, b = stream(0, (1, 5)), stream(0, (1, 5))
    a.random()
    assert b.bit_generator.state == _numpy(0, (1, 5)).bit_generator.state


def test_negative_numbers_are_refused_as_numpy_refuses_them() -> None:
    with pytest.raises(ValueError):
        stream(-1, (1,))
    with pytest.raises(ValueError):
        stream(0, (1, -2))


def test_weighted_sample_is_numpys_weighted_choice() -> None:
    r = random.Random(5)
    for _ in range(3000):
        n = r.choice([1, 2, 3, 8, 20, 150])
        size = r.randrange(n + 1)
        # few distinct weights (ties, draws landing on found indices: more rounds) or
        # weights over nine orders of magnitude
        weights = np.array(
            [r.choice([1e-4, 0.3, 1.0, 6.0]) if n % 2 else 10 ** r.uniform(-6, 3) for _ in range(n)]
        )
        seed = r.randrange(2**32)
        ours, theirs = np.random.default_rng(seed), np.random.default_rng(seed)
        picked = weighted_sample(ours, weights, size)
        expected = theirs.choice(n, size=size, replace=False, p=weights / weights.sum())
        assert picked == expected.tolist()
        assert ours.bit_generator.state == theirs.bit_generator.state


def test_weighted_sample_leaves_zero_weights_and_errors_to_numpy() -> None:
    weights = np.array([0.0, 1.0, 2.0, 0.0])
    picked = weighted_sample(np.random.default_rng(1), weights, 2)
    assert picked == np.random.default_rng(1).choice(4, 2, replace=False, p=weights / 3).tolist()
    with pytest.raises(ValueError):
        weighted_sample(np.random.default_rng(1), weights, 3)  # two non-zero weights
    with pytest.raises(ValueError):
        weighted_sample(np.random.default_rng(1), np.array([1.0, -1.0, 2.0]), 1)
