"""Per-profile random streams.

Profile k's stream is ``SeedSequence(seed).spawn(n)[k]`` (built directly as
``SeedSequence(seed, spawn_key=(k,))``, which is the same child), so profile k is the
same whether 10 or 10,000 profiles are drawn, and shard i of N needs no other shard.
The children's states are computed for a whole batch at once (:func:`profile_keys`
runs numpy's SeedSequence hash in vectorised uint32 arithmetic: the same words as
``generate_state(2, np.uint64)``, without a Python object per profile). Draws are
counter-based: draw (stream, index) of a profile is the SplitMix64 finaliser of the
profile's key plus a counter hashed from (node id, index). That makes sampling
vectorised across profiles, and a node's draws do not shift when another attribute is
added to the schema: common random numbers, so editing one prior changes only that
node and what depends on it.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache

import numpy as np
from numpy.typing import NDArray

U32 = NDArray[np.uint32]
U64 = NDArray[np.uint64]
_GAMMA = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)

# numpy's SeedSequence constants (bit_generator.pyx, after M.E. O'Neill's seed_seq_fe)
_POOL = 4
_INIT_A, _MULT_A = 0x43B0D7E5, 0x931E8875
_INIT_B, _MULT_B = 0x8B51F9DD, 0x58F38DED
_MIX_L, _MIX_R = np.uint32(0xCA01F9DD), np.uint32(0x4973F715)
_MASK = 0xFFFFFFFF


def _mix(x: U64) -> U64:
    with np.errstate(over="ignore"):
        x = (x ^ (x >> np.uint64(30))) * _M1
        x = (x ^ (x >> np.uint64(27))) * _M2
    return x ^ (x >> np.uint64(31))


def stable_hash(text: str) -> int:
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "little")


def _words(x: int) -> list[int]:
    """An int as SeedSequence reads it: little-endian 32-bit words, at least one."""
    out = [x & _MASK]
    while x > _MASK:
        x >>= 32
        out.append(x & _MASK)
    return out


class _Hash:
    """SeedSequence's ``hashmix``: the multiplier advances with every call."""

    def __init__(self, init: int, mult: int):
        self.const, self.mult = init, mult

    def __call__(self, value: U32) -> U32:
        value = value ^ np.uint32(self.const)
        self.const = (self.const * self.mult) & _MASK
        value = value * np.uint32(self.const)
        return value ^ (value >> np.uint32(16))


def _mix32(x: U32, y: U32) -> U32:
    result = _MIX_L * x - _MIX_R * y
    return result ^ (result >> np.uint32(16))  # type: ignore[no-any-return]


def _spawned_states(
    seed: int, children: NDArray[np.int64], prefix: tuple[int, ...], words: int
) -> U64:
    """``SeedSequence(seed, spawn_key=(*prefix, k)).generate_state(words, np.uint64)``
    for every k in ``children`` (k and the prefix's numbers below 2**32), vectorised
    over k."""
    n = len(children)
    seed_words = _words(seed)
    run = seed_words + [0] * max(0, _POOL - len(seed_words))
    entropy = [np.full(n, w, dtype=np.uint32) for w in [*run, *prefix]]
    entropy.append(children.astype(np.uint32))
    with np.errstate(over="ignore"):
        hashmix = _Hash(_INIT_A, _MULT_A)
        pool = [hashmix(entropy[i]) for i in range(_POOL)]
        for src in range(_POOL):
            for dst in range(_POOL):
                if src != dst:
                    pool[dst] = _mix32(pool[dst], hashmix(pool[src]))
        for src in range(_POOL, len(entropy)):
            for dst in range(_POOL):
                pool[dst] = _mix32(pool[dst], hashmix(entropy[src]))
        out = _Hash(_INIT_B, _MULT_B)
        state = np.stack([out(pool[i % _POOL]) for i in range(2 * words)], axis=1)
    return np.ascontiguousarray(state.astype("<u4")).view("<u8").astype(np.uint64)


def spawned_states(
    seed: int, start: int, stop: int, prefix: tuple[int, ...] = (), words: int = 2
) -> U64:
    """The ``words`` state words of ``SeedSequence(seed, spawn_key=(*prefix, k))`` for
    k in start..stop-1, as a (stop - start) x words array."""
    small = min(max(start, 0), stop)
    big = range(max(start, 2**32), stop)  # a spawn key of two words: rare, done one by one
    keys = np.empty((stop - start, words), dtype=np.uint64)
    split = min(stop, 2**32) - start
    if split > 0:
        children = np.arange(small, min(stop, 2**32), dtype=np.int64)
        keys[:split] = _spawned_states(seed, children, prefix, words)
    for row, k in enumerate(big, start=max(split, 0)):
        spawned = np.random.SeedSequence(seed, spawn_key=(*prefix, k))
        keys[row] = spawned.generate_state(words, np.uint64)
    return keys


def profile_keys(seed: int, start: int, stop: int) -> U64:
    """The (stop - start) x 2 state words of profiles start..stop-1."""
    return spawned_states(seed, start, stop)


def _mix_in_place(x: U64) -> U64:
    """The SplitMix64 finaliser, in place (no temporaries beyond one shift)."""
    tmp = x >> np.uint64(30)
    x ^= tmp
    x *= _M1
    np.right_shift(x, np.uint64(27), out=tmp)
    x ^= tmp
    x *= _M2
    np.right_shift(x, np.uint64(31), out=tmp)
    x ^= tmp
    return x


@lru_cache(maxsize=65536)
def stream_counter(stream: str, index: int) -> np.uint64:
    """The 64-bit offset of draw ``index`` of ``stream``, the same for every profile."""
    word = np.array([(stable_hash(stream) + index * int(_GAMMA)) % 2**64], np.uint64)
    return np.uint64(_mix(word)[0])


class Uniforms:
    """Random draws for a batch of profiles, addressed by (stream name, index).

    Draw (stream, index) of a profile is SplitMix64's finaliser of the profile's key
    (the first word of its SeedSequence state) plus the stream's counter: a
    counter-based generator, so any draw of any profile costs the same few integer
    operations, vectorised over the batch, and needs no other draw.
    """

    def __init__(self, keys: U64):
        self.keys = keys
        self._key = np.ascontiguousarray(keys[:, 0])

    def __len__(self) -> int:
        return int(self.keys.shape[0])

    def bits(self, stream: str, index: int = 0, rows: NDArray[np.intp] | None = None) -> U64:
        """53 random bits per profile (of ``rows`` only, when given)."""
        key = self._key if rows is None else self._key[rows]
        x = _mix_in_place(key + stream_counter(stream, index))
        x >>= np.uint64(11)
        return x

    def draw(
        self, stream: str, index: int = 0, rows: NDArray[np.intp] | None = None
    ) -> NDArray[np.float64]:
        """Uniforms in (0, 1): the 53 bits, centred in their interval."""
        u = self.bits(stream, index, rows).astype(np.float64)
        u += 0.5
        u *= 2.0**-53
        return u
