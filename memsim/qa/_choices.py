"""Distractors and options that give nothing away.

The memory-free shortcuts the audit measures are closed here, by construction:
- *option prior*: answers are accepted with probability inversely proportional to how
  common their value is (:meth:`ValuePool.accept`), and distractors are drawn uniformly
  from the distinct values of the same attribute, so an option's prior probability
  says nothing about whether it is the answer;
- *length* and *centroid*: distractors come from the same distribution as the answer
  (other profiles' values of the same attribute), never by perturbing the answer;
- *numbers*: the answer's rank among the four numeric options is drawn uniformly, so
  "pick the middle one" is at chance;
- *letter*: the correct letter is uniform.
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache

import numpy as np

from memsim.graph import BRNet
from memsim.qa._types import LETTERS
from memsim.sampling import ProfileSampler, to_python

POOL_START = 10**9
"""Pool profiles are drawn from stream indices far above any dataset's, so they are
never the profiles questions are asked about."""


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


@dataclass(frozen=True)
class ValuePool:
    """Values of each (entity kind, attribute) across many sampled profiles."""

    values: dict[tuple[str, str], tuple[object, ...]]

    @classmethod
    def sample(cls, net: BRNet, seed: int, n: int = 2000) -> ValuePool:
        batch = ProfileSampler(net).sample_batch(seed, POOL_START, POOL_START + n)
        values: dict[tuple[str, str], list[object]] = {}
        for nid, column in batch.columns.items():
            node = net[nid]
            values.setdefault((node.key.kind, node.key.attr), []).extend(to_python(node, column))
        return cls({k: tuple(v) for k, v in values.items()})

    def distinct(self, kind: str, attr: str) -> list[object]:
        return list(self._counts[(kind, attr)])

    @cached_property
    def _counts(self) -> dict[tuple[str, str], Counter[object]]:
        return {key: Counter(values) for key, values in self.values.items()}

    def sample_distinct(
        self, kind: str, attr: str, k: int, rng: np.random.Generator
    ) -> list[object]:
        """Up to k distinct values, uniformly among the distinct values."""
        values = self.distinct(kind, attr)
        return [values[i] for i in rng.choice(len(values), size=min(k, len(values)), replace=False)]

    def accept(self, kind: str, attr: str, value: object, rng: np.random.Generator) -> bool:
        """Keep a question about ``value`` with probability min(1, (1/k) / p(value)),
        which flattens the distribution of answers towards uniform over the k values."""
        counts = self._counts[(kind, attr)]
        share = counts.get(value, 0) / max(1, len(self.values[(kind, attr)]))
        uniform = 1.0 / max(1, len(counts))
        return share <= uniform or rng.random() < uniform / share


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
) -> list[int] | None:
    """The answer and three other integers within [low, high], or None.

    The answer's rank among the four is drawn uniformly from 0..3 *before* the bounds
    are looked at; when the bounds leave no room for that rank, None is returned and
    the caller draws another question. So the rank stays uniform over the questions
    that are kept (drawing only among the feasible ranks would favour the extremes
    near a bound). The other options are drawn without replacement from the
    ``spread * count`` integers on each side."""
    room_below = answer - low if low is not None else 10**9
    room_above = high - answer if high is not None else 10**9
    rank = int(rng.integers(4))
    if rank > room_below or 3 - rank > room_above:
        return None
    options = [answer]
    for sign, count, room in ((-1, rank, room_below), (1, 3 - rank, room_above)):
        if count:
            width = min(room, spread * count)
            offsets = rng.choice(np.arange(1, width + 1), size=count, replace=False)
            options += [answer + sign * int(o) for o in sorted(offsets)]
    return options


def assign_letters(options: Sequence[str], rng: np.random.Generator) -> tuple[dict[str, str], str]:
    """Shuffle the options (correct one first on input); return choices and the letter."""
    order = rng.permutation(len(options))
    choices = {LETTERS[i]: options[j] for i, j in enumerate(order)}
    letter = LETTERS[int(np.flatnonzero(order == 0)[0])]
    return choices, letter
