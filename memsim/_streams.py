"""Random streams and weighted draws as numpy makes them, at less cost.

``stream(seed, key)`` is the generator ``np.random.default_rng(
np.random.SeedSequence(seed, spawn_key=key))``: the same PCG64 state, so the same
draws. Generation builds two or three such streams per question (the question's, its
messages', a held card's); numpy's SeedSequence hashes the seed and the key through
numpy arrays (31 us a stream with its generator, best of 7 x 3,000), here the hash
runs on Python ints (the scalar form of
:func:`memsim.sampling._random._spawned_states`), the seed's and the key prefix's part
once, and PCG64 is seeded from the words directly (:class:`_Words`): 15 us. (A seed
without a key, as a trajectory's shuffle has, is numpy's faster: no cached part.)
:func:`weighted_sample` is numpy's weighted draw without replacement on Python
floats. ``tests/test_seed_streams.py`` compares both with
numpy's over seeds, keys and weights of every shape.
"""

from __future__ import annotations

import bisect
import itertools
import math
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import numpy as np
from numpy.random.bit_generator import ISeedSequence
from numpy.typing import NDArray

from memsim.sampling._random import _INIT_A, _INIT_B, _MULT_A, _MULT_B, _POOL, _words

_MASK = 0xFFFFFFFF
Pool = tuple[int, int, int, int]
_MIX_L, _MIX_R = 0xCA01F9DD, 0x4973F715


_EXTRA = 32
"""Entropy words past the pool's four that :func:`stream` hashes itself (numpy does
the longer seeds and keys, which memsim never uses)."""
_A = [_INIT_A]
for _ in range(_POOL * (_POOL + _EXTRA)):
    _A.append((_A[-1] * _MULT_A) & _MASK)
_B = [_INIT_B]
for _ in range(2 * _POOL):
    _B.append((_B[-1] * _MULT_B) & _MASK)
"""The multipliers of SeedSequence's two hashes at each step (each step advances its
own): a function of the step alone, so tabled."""


def _hashmix(value: int, step: int) -> int:
    value = ((value ^ _A[step]) * _A[step + 1]) & _MASK
    return value ^ (value >> 16)


def _mix(x: int, y: int) -> int:
    result = (_MIX_L * x - _MIX_R * y) & _MASK
    return result ^ (result >> 16)


def _absorb(pool: Sequence[int], step: int, words: Sequence[int]) -> tuple[Pool, int]:
    """Mix entropy words past the pool's size into ``pool``: the pool then and the hash's
    step. Written out, as the hash is most of a stream's cost."""
    p0, p1, p2, p3 = pool
    a, m = _A, _MASK
    for word in words:
        h = ((word ^ a[step]) * a[step + 1]) & m
        r = (_MIX_L * p0 - _MIX_R * (h ^ (h >> 16))) & m
        p0 = r ^ (r >> 16)
        h = ((word ^ a[step + 1]) * a[step + 2]) & m
        r = (_MIX_L * p1 - _MIX_R * (h ^ (h >> 16))) & m
        p1 = r ^ (r >> 16)
        h = ((word ^ a[step + 2]) * a[step + 3]) & m
        r = (_MIX_L * p2 - _MIX_R * (h ^ (h >> 16))) & m
        p2 = r ^ (r >> 16)
        h = ((word ^ a[step + 3]) * a[step + 4]) & m
        r = (_MIX_L * p3 - _MIX_R * (h ^ (h >> 16))) & m
        p3 = r ^ (r >> 16)
        step += 4
    return (p0, p1, p2, p3), step


def _absorbed(seed: int) -> tuple[Pool, int]:
    """The pool and the hash's step once ``seed`` is mixed in."""
    # numpy pads the seed's words with zeros to the pool's size when a key follows: the
    # zeros a seed of fewer words is hashed with here anyway
    run = _words(seed)
    pool = [_hashmix(run[i] if i < len(run) else 0, i) for i in range(_POOL)]
    step = _POOL
    for src in range(_POOL):
        for dst in range(_POOL):
            if src != dst:
                pool[dst] = _mix(pool[dst], _hashmix(pool[src], step))
                step += 1
    return _absorb(pool, step, run[_POOL:])


@lru_cache(maxsize=1024)
def _prefixed(seed: int, prefix: tuple[int, ...]) -> tuple[Pool, int]:
    """The pool and the hash's step once a seed and a key's prefix (of numbers below
    2**32) are mixed in, from the prefix one shorter's (remembered in turn): streams
    share their seed's and their prefixes' part (a question's message stream ``(1,
    tid, attempt)`` shares ``(1, tid)`` with its other attempts and ``(1,)`` with every
    other question's). Only for streams with a key: the seeds of streams without one
    (a trajectory's shuffle) are drawn, and would only fill the cache."""
    if not prefix:
        return _absorbed(seed)
    return _absorb(*_prefixed(seed, prefix[:-1]), prefix[-1:])


def seed_words(seed: int, key: Sequence[int] = ()) -> list[int]:
    """``SeedSequence(seed, spawn_key=key).generate_state(4, np.uint64)``, as ints: hashed
    here for a seed of up to 16 words and a key of up to 16 numbers below 2**32 (what
    memsim uses), else by numpy (which refuses a negative number)."""
    if (
        seed < 0
        or seed.bit_length() > 16 * 32
        or len(key) > 16
        or not all(0 <= k <= _MASK for k in key)
    ):
        words = np.random.SeedSequence(seed, spawn_key=tuple(key)).generate_state(4, np.uint64)
        return [int(w) for w in words]
    return _hashed(seed, key)


def _hashed(seed: int, key: Sequence[int]) -> list[int]:
    """:func:`seed_words` of a seed and key of :data:`_EXTRA` words or fewer in all (the
    key's numbers below 2**32). The last entry of the key is mixed in here, the rest
    once per seed and prefix (:func:`_prefixed`)."""
    if key:
        (p0, p1, p2, p3), _ = _absorb(*_prefixed(seed, tuple(key[:-1])), key[-1:])
    else:
        (p0, p1, p2, p3), _ = _absorbed(seed)
    m = _MASK
    out = []
    b = _B
    for i, v in enumerate((p0, p1, p2, p3, p0, p1, p2, p3)):  # 8 words of 32 bits
        v = ((v ^ b[i]) * b[i + 1]) & m
        out.append(v ^ (v >> 16))
    # read little-endian as 4 words of 64
    return [
        out[0] | out[1] << 32,
        out[2] | out[3] << 32,
        out[4] | out[5] << 32,
        out[6] | out[7] << 32,
    ]


class _Words(ISeedSequence):
    """A seed sequence that is only its state words: what PCG64 reads of one."""

    __slots__ = ("words",)

    def __init__(self, words: list[int]) -> None:
        self.words = words

    def generate_state(self, n_words: int, dtype: Any = np.uint32) -> np.ndarray[Any, Any]:
        if n_words != len(self.words) or dtype is not np.uint64:  # as PCG64 asks
            raise ValueError("only the 4 words of 64 bits PCG64 is seeded with")
        return np.array(self.words, dtype=np.uint64)


def stream(seed: int, key: Sequence[int] = ()) -> np.random.Generator:
    """``np.random.default_rng(np.random.SeedSequence(seed, spawn_key=key))``: the same
    state and draws (its ``bit_generator.seed_seq`` is not a SeedSequence, and cannot
    spawn)."""
    # numpy takes any ISeedSequence (its stubs name only SeedSequence)
    words = _Words(seed_words(seed, key))
    return np.random.Generator(np.random.PCG64(words))  # type: ignore[arg-type]


def weighted_sample(rng: np.random.Generator, weights: NDArray[np.float64], size: int) -> list[int]:
    """``rng.choice(len(weights), size=size, replace=False, p=weights / weights.sum())``
    as ints: the same draws and the same indices.

    Numpy draws ``size`` uniforms, finds each in the cumulative sums of the
    probabilities, keeps the first of each index found, and draws again for the rest
    with the found ones' probabilities set to 0, through a dozen array calls per round
    (about 100 us a call); the lists of a trajectory's spare facts are short, and the
    same steps on Python floats (sums in the same order, the same divisions, a binary
    search for numpy's ``searchsorted(side="right")``) give the same numbers at a
    fraction of that. Weights that are not all positive and finite go to numpy (its
    errors, or its handling of zeros)."""
    p = weights / weights.sum()
    probs = p.tolist()
    if not 0 <= size <= len(probs) or not all(0.0 < x < math.inf for x in probs):
        return [int(i) for i in rng.choice(len(weights), size=size, replace=False, p=p)]
    found: list[int] = []
    while len(found) < size:
        drawn = rng.random(size - len(found)).tolist()
        for i in found:
            probs[i] = 0.0
        cdf = list(itertools.accumulate(probs))
        last = cdf[-1]
        cdf = [c / last for c in cdf]
        new = dict.fromkeys(bisect.bisect_right(cdf, x) for x in drawn)  # first of each
        found += new
    return found


__all__ = ["seed_words", "stream", "weighted_sample"]
