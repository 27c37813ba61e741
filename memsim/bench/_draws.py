"""``int(rng.integers(n))`` for many ``n`` at once, drawing exactly what the calls one by
one would draw, and leaving the generator where they would leave it.

The noise of a trajectory draws one phrasing per noise message (100 per real message
at 100x); a call of ``Generator.integers`` costs about a microsecond of Python, the
draw itself nanoseconds. For a small bound numpy draws a 32-bit number, from the
bit generator's ``next_uint32``: PCG64 hands out the low half of a 64-bit output and
keeps the high half for the next 32-bit draw (``has_uint32`` / ``uinteger`` in its
state), and a bound of 1 draws nothing. The bounded value is Lemire's: the top 32
bits of ``u * n``, unless the low 32 bits fall below ``n``, when it may draw again
(a chance of ``n`` in 2**32). Here the 64-bit outputs are taken at once
(``random_raw``), split into halves, mapped the same way, and the unused half put back
in the state; when a retry could happen, or the generator is not PCG64, the
generator is put back and the calls are made one by one. ``tests/bench/test_draws.py``
holds this against the calls.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

AT_ONCE = 16
"""Below this many bounded draws, the calls one by one are as fast."""
_LOW = np.uint64(0xFFFFFFFF)
_SHIFT = np.uint64(32)


def draw_bounded(rng: np.random.Generator, bounds: Sequence[int]) -> list[int]:
    """``[int(rng.integers(n)) for n in bounds]`` (each ``n`` from 1 to 2**32 - 1)."""
    moving = [n for n in bounds if n > 1]
    if len(moving) < AT_ONCE or not isinstance(rng.bit_generator, np.random.PCG64):
        return [int(rng.integers(n)) for n in bounds]
    values = _lemire(rng, np.asarray(moving, dtype=np.uint64))
    if values is None:
        return [int(rng.integers(n)) for n in bounds]
    out, drawn = [], iter(values.tolist())
    for n in bounds:
        out.append(next(drawn) if n > 1 else 0)
    return out


def _lemire(rng: np.random.Generator, bounds: NDArray[np.uint64]) -> NDArray[np.uint64] | None:
    generator = rng.bit_generator
    saved = generator.state
    held = bool(saved["has_uint32"])
    need = len(bounds) - held
    raw = generator.random_raw((need + 1) // 2)
    halves = np.empty(2 * len(raw), dtype=np.uint64)
    halves[0::2] = raw & _LOW
    halves[1::2] = raw >> _SHIFT
    if held:
        halves = np.concatenate(([np.uint64(saved["uinteger"])], halves))
    words = halves[: len(bounds)]
    scaled = words * bounds  # < 2**64: a 32-bit word times a 32-bit bound
    if bool(np.any((scaled & _LOW) < bounds)):  # Lemire might draw again: one by one
        generator.state = saved
        return None
    state = dict(generator.state)
    state["has_uint32"] = int(need % 2 == 1)
    state["uinteger"] = int(raw[-1] >> _SHIFT) if need % 2 == 1 else 0
    generator.state = state
    return scaled >> _SHIFT


FLOYD_UP_TO = 10_000
"""``Generator.choice(n, k, replace=False)`` takes Floyd's algorithm when ``n`` is at
most this, or ``k`` at most ``n // 50`` (else it shuffles the tail of ``range(n)``)."""


def floyd_bounds(population: int, size: int) -> list[int] | None:
    """The bounds of the draws ``rng.choice(population, size, replace=False)`` makes,
    in order, each as ``int(rng.integers(bound))`` would draw it (a bound of 1 draws
    nothing): Floyd's ``size`` draws below ``j + 1`` for ``j`` from
    ``population - size`` up, then the shuffle of its result, below ``i + 1`` for
    ``i`` from ``size - 1`` down to 1. None when choice would shuffle the tail."""
    if population > FLOYD_UP_TO and size > population // 50:
        return None
    return [*range(population - size + 1, population + 1), *range(size, 1, -1)]


def floyd_sample(population: int, size: int, draws: Sequence[int]) -> set[int]:
    """The values ``rng.choice(population, size, replace=False)`` returns (as a set:
    the shuffle only orders them), from its first ``size`` draws (:func:`floyd_bounds`):
    each draw is taken unless it was taken before, when ``j`` is taken instead."""
    chosen: set[int] = set()
    for j, t in zip(range(population - size, population), draws, strict=False):
        chosen.add(j if t in chosen else t)
    return chosen
