"""Distractors and options that give nothing away.

The memory-free shortcuts the audit measures are closed here, by construction:
- *option prior*: answers are flattened to uniform over the values the question leaves
  possible, and distractors drawn uniformly from them (:class:`ValuePool`, in
  ``_pool``), so an option's probability given what the question reveals says nothing
  about whether it is the answer;
- *length* and *centroid*: distractors come from the same distribution as the answer
  (other profiles' values of the same attribute), never by perturbing the answer;
- *numbers*: the answer's rank among the four numeric options is drawn uniformly, so
  "pick the middle one" is at chance;
- *letter*: the correct letter is uniform.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from functools import lru_cache

import numpy as np

from memsim.qa._pool import POOL_START, ValuePool
from memsim.qa._types import LETTERS

__all__ = [
    "POOL_START",
    "ValuePool",
    "assign_letters",
    "normalise",
    "numeric_options",
    "pick_distinct",
    "rank_fits",
    "rank_room",
]


@lru_cache(maxsize=65536)
def normalise(text: str) -> str:
    """The form in which two options count as the same: compatibility forms folded
    (full-width "１２" is "12"), case folded, and whitespace and punctuation of any
    script ("，" and "。" as much as "," and ".") read as one space."""
    folded = unicodedata.normalize("NFKC", str(text)).casefold()
    spaced = "".join(" " if c.isspace() or _is_punctuation(c) else c for c in folded)
    return " ".join(spaced.split())


def _is_punctuation(char: str) -> bool:
    return unicodedata.category(char).startswith("P")


def pick_distinct(
    candidates: Sequence[str], exclude: Sequence[str], k: int, rng: np.random.Generator
) -> list[str] | None:
    """k candidates, uniformly, distinct from each other and from ``exclude`` after
    normalisation; None when there are not enough."""
    taken = {normalise(x) for x in exclude}
    unique: dict[str, str] = {}
    for c in candidates:
        key = normalise(c)
        if key not in taken and key not in unique:
            unique[key] = c
    if len(unique) < k:
        return None
    pool = list(unique.values())
    return [pool[i] for i in rng.choice(len(pool), size=k, replace=False)]


def numeric_options(
    answer: int,
    rng: np.random.Generator,
    low: int | None = None,
    high: int | None = None,
    spread: int = 5,
    prefer: Sequence[int] = (),
    rank: int | None = None,
) -> list[int] | None:
    """The answer and three other integers within [low, high], or None.

    The answer's rank among the four is drawn uniformly from 0..3 *before* the bounds
    are looked at; when the bounds leave no room for that rank, None is returned and
    the caller draws another question. So the rank stays uniform over the questions
    that are kept (drawing only among the feasible ranks would favour the extremes
    near a bound). The other options are drawn without replacement from the
    ``spread * count`` integers on each side, those in ``prefer`` (numbers the
    conversation says of other people) first, so that distractors are mentioned as
    the answer is; the rank is drawn before, so it stays uniform. A ``rank`` given is
    used instead of a drawn one (dealt from a deck, :mod:`memsim.qa._deal`)."""
    room_below = answer - low if low is not None else 10**9
    room_above = high - answer if high is not None else 10**9
    rank = int(rng.integers(4)) if rank is None else rank
    if rank > room_below or 3 - rank > room_above:
        return None
    options = [answer]
    for sign, count, room in ((-1, rank, room_below), (1, 3 - rank, room_above)):
        if count:
            width = min(room, spread * count)
            near = sorted({sign * (v - answer) for v in prefer} & set(range(1, width + 1)))
            chosen = [near[i] for i in rng.permutation(len(near))[:count]]
            rest = [o for o in range(1, width + 1) if o not in chosen]
            chosen += [
                rest[i] for i in rng.choice(len(rest), size=count - len(chosen), replace=False)
            ]
            options += [answer + sign * int(o) for o in sorted(chosen)]
    return options


def rank_fits(answer: int, rank: int, low: int | None, high: int | None, count: int = 4) -> bool:
    """Whether :func:`numeric_options` can give ``answer`` the rank ``rank`` in [low, high]."""
    below = answer - low if low is not None else 10**9
    above = high - answer if high is not None else 10**9
    return rank <= below and count - 1 - rank <= above


def rank_room(answer: int, low: int, high: int, count: int = 4) -> float:
    """The share of ranks :func:`numeric_options` can give ``answer`` within [low, high]
    (near a bound only the extreme ones fit). Callers that flatten answers divide by it,
    so that answers stay uniform after infeasible ranks are drawn again."""
    fits = sum(1 for r in range(count) if r <= answer - low and count - 1 - r <= high - answer)
    return fits / count


def assign_letters(options: Sequence[str], rng: np.random.Generator) -> tuple[dict[str, str], str]:
    """Shuffle the options (correct one first on input); return choices and the letter."""
    order = rng.permutation(len(options))
    choices = {LETTERS[i]: options[j] for i, j in enumerate(order)}
    letter = LETTERS[int(np.flatnonzero(order == 0)[0])]
    return choices, letter
