"""Per-profile random streams.

Profile k's stream is ``SeedSequence(seed).spawn(n)[k]`` (built directly as
``SeedSequence(seed, spawn_key=(k,))``, which is the same child), so profile k is the
same whether 10 or 10,000 profiles are drawn, and shard i of N needs no other shard.
From the child's 128-bit state, uniforms are addressed by (node id, draw index) with a
SplitMix64 finaliser. That makes sampling vectorised across profiles, and a node's
draws do not shift when another attribute is added to the schema: common random
numbers, so editing one prior changes only that node and what depends on it.
"""

from __future__ import annotations

import hashlib

import numpy as np
from numpy.typing import NDArray

U64 = NDArray[np.uint64]
_GAMMA = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)


def _mix(x: U64) -> U64:
    with np.errstate(over="ignore"):
        x = (x ^ (x >> np.uint64(30))) * _M1
        x = (x ^ (x >> np.uint64(27))) * _M2
    return x ^ (x >> np.uint64(31))


def stable_hash(text: str) -> int:
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "little")


def profile_keys(seed: int, start: int, stop: int) -> U64:
    """The (stop - start) x 2 state words of profiles start..stop-1."""
    keys = np.empty((stop - start, 2), dtype=np.uint64)
    for row, k in enumerate(range(start, stop)):
        keys[row] = np.random.SeedSequence(seed, spawn_key=(k,)).generate_state(2, np.uint64)
    return keys


class Uniforms:
    """Uniforms in (0, 1) for a batch of profiles, addressed by (stream name, index)."""

    def __init__(self, keys: U64):
        self.keys = keys

    def __len__(self) -> int:
        return int(self.keys.shape[0])

    def draw(self, stream: str, index: int = 0) -> NDArray[np.float64]:
        counter = _mix(
            np.array([(stable_hash(stream) + index * int(_GAMMA)) % 2**64], dtype=np.uint64)
        )
        with np.errstate(over="ignore"):
            x = _mix(self.keys[:, 0] ^ counter)
            x = _mix(x ^ self.keys[:, 1])
        return ((x >> np.uint64(11)).astype(np.float64) + 0.5) * 2.0**-53
