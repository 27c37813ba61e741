"""Values of each attribute across many sampled profiles: where distractors come from,
and the distributions answers are flattened against.

The option-prior shortcut (pick the option most probable given what the question
reveals) is closed by making the answer and its distractors exchangeable. For the
attribute asked and what the question reveals about the entity (its naming values:
"my mother" -> relation = mother; the event a name is made from; a condition):
- the *support* is the attribute's values among pool entities that match what is
  revealed, less those under ``TRIM`` x the most common one (too rare to estimate);
- a question is kept with probability p_min / p(answer) over the support, so answers
  are uniform over it (exactly, up to the pool's sampling error), and
- distractors are drawn uniformly from the rest of the support.
Then no function of the options, a prior included, tells the answer from the others.
Counts are flattened the same way against the pool's count distribution of the
question's predicate (:meth:`ValuePool.count_distribution`).
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, TypeVar

import numpy as np
from numpy.typing import NDArray

from memsim.graph import BRNet
from memsim.sampling import ProfileSampler, to_python

POOL_START = 10**9
"""Pool profiles are drawn from stream indices far above any dataset's, so they are
never the profiles questions are asked about."""
POOL_PROFILES = 6000
"""Enough that a value given a rare revealed value (a product 2% of people own) still
has MIN_ROWS pool entities to be estimated from."""
MIN_ROWS = 30
"""Fewer matching pool entities than this: the distribution is not estimated, and the
question is not asked."""
TRIM = 0.1
"""Values rarer than this share of the most common one are left out of the support."""
MIN_COUNT_SHARE = 0.03
"""Counts rarer than this under a predicate (in the pool) are impossible for it: never
an answer, never an option."""

BULKY = frozenset({"joint", "array", "codes", "aggregative-candidates"})
"""Memo results (:meth:`ValuePool.remember`, by the first item of their key) that are
pool rows or columns: megabytes to send to another process, milliseconds to compute
there again (daily life: the rest of the memo, 0.2 MB, took its drafts 1.2 s)."""

Given = tuple[tuple[str, Any], ...]
"""(attribute, value) pairs the question reveals about the entity."""

T = TypeVar("T")


@dataclass(frozen=True)
class ValuePool:
    """Values of each (entity kind, attribute) across many sampled profiles."""

    values: dict[tuple[str, str], tuple[object, ...]]
    rows: dict[str, dict[str, tuple[object, ...]]] = field(default_factory=dict)
    """kind -> attribute -> values, slot-major (row = slot * profiles + profile), so the
    attributes of one pool entity share a row."""
    profiles: int = 0

    @classmethod
    def sample(cls, net: BRNet, seed: int, n: int = POOL_PROFILES) -> ValuePool:
        batch = ProfileSampler(net).sample_batch(seed, POOL_START, POOL_START + n)
        values: dict[tuple[str, str], list[object]] = {}
        slots: dict[tuple[str, str], dict[int, list[object]]] = {}
        for nid, column in batch.columns.items():
            node = net[nid]
            python = to_python(node, column)
            values.setdefault((node.key.kind, node.key.attr), []).extend(python)
            slots.setdefault((node.key.kind, node.key.attr), {})[node.key.index] = python
        rows: dict[str, dict[str, tuple[object, ...]]] = {}
        for (kind, attr), by_slot in slots.items():
            rows.setdefault(kind, {})[attr] = tuple(v for i in sorted(by_slot) for v in by_slot[i])
        return cls({k: tuple(v) for k, v in values.items()}, rows, n)

    # --- marginal values ----------------------------------------------------------------
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

    # --- given what the question reveals ------------------------------------------------
    def support(self, kind: str, attr: str, given: Given = ()) -> dict[object, float] | None:
        """P(value | given) over the trimmed support, or None when too few pool entities
        match ``given``."""
        key = (kind, attr, given)
        cache = self._support_cache
        if key not in cache:
            cache[key] = self._support(kind, attr, given)
        return cache[key]

    @cached_property
    def memo(self) -> dict[Any, Any]:
        """Per-pool results that callers compute once (count predicates per group); read
        and filled through :meth:`remember`."""
        return {}

    def remember(self, key: Hashable, compute: Callable[[], T]) -> T:
        """``compute()``'s result for ``key``, computed the first time the pool is asked
        (None and other falsy results included) and returned as is after that. A key
        names everything the result depends on beyond the pool itself."""
        memo = self.memo
        if key in memo:
            return memo[key]  # type: ignore[no-any-return]
        found = memo[key] = compute()
        return found

    def shared(self) -> dict[Hashable, Any]:
        """The memo's results worth handing to another process that holds the same pool
        (a sibling worker): all but those bulkier to send than to compute again
        (:data:`BULKY`). Every result is plain data (strings, numbers, tuples, arrays),
        a function of its key and the pool alone."""
        return {
            k: v for k, v in self.memo.items() if not (isinstance(k, tuple) and k and k[0] in BULKY)
        }

    def adopt(self, results: dict[Hashable, Any]) -> None:
        """Take results another process computed on the same pool (:meth:`shared`), as
        if :meth:`remember` had computed them here; a key held already keeps its value
        (the same value, computed from the same key and pool)."""
        memo = self.memo
        for k, v in results.items():
            memo.setdefault(k, v)

    @cached_property
    def _support_cache(self) -> dict[tuple[str, str, Given], dict[object, float] | None]:
        return {}

    def _support(self, kind: str, attr: str, given: Given) -> dict[object, float] | None:
        columns = self.rows.get(kind, {})
        if attr not in columns or any(a not in columns for a, _ in given):
            return None
        target: Sequence[object] = columns[attr]
        if given:
            rows = np.flatnonzero(self._where(kind, given, len(target)))
            if len(rows) < MIN_ROWS:
                return None
            target = self._array(kind, attr)[rows].tolist()  # in row order, as before
        elif len(target) < MIN_ROWS:
            return None
        counts = Counter(target)
        top = max(counts.values())
        total = sum(counts.values())
        return {v: c / total for v, c in counts.items() if c >= TRIM * top}

    def accept(
        self,
        kind: str,
        attr: str,
        value: object,
        rng: np.random.Generator,
        given: Given = (),
        *,
        unknown: bool = False,
        least: int = 4,
    ) -> bool:
        """Keep a question about ``value`` with probability p_min / p(value) over the
        support given what the question reveals: answers come out uniform over it.
        A value outside the support (or no support) gives ``unknown``, never kept by
        default; a support of fewer than ``least`` values is never kept."""
        support = self.support(kind, attr, given)
        if support is None or value not in support:
            return unknown
        if len(support) < least:
            return False
        return bool(rng.random() < self.floor(kind, attr, given) / support[value])

    def floor(self, kind: str, attr: str, given: Given = ()) -> float:
        """The least P(value | given) over the support (:meth:`support`, not None): the
        p_min answers are flattened with, found once per support rather than per draw."""
        key = (kind, attr, given)
        found = self._floors.get(key)
        if found is None:
            found = self._floors[key] = min(self.support(kind, attr, given).values())  # type: ignore[union-attr]
        return found

    def sample_support(
        self, kind: str, attr: str, k: int, rng: np.random.Generator, given: Given = ()
    ) -> list[object]:
        """Up to k distinct values, uniformly from the support given ``given``."""
        key = (kind, attr, given)
        values = self._listed.get(key)
        if values is None:
            values = self._listed[key] = list(self.support(kind, attr, given) or {})
        return [values[i] for i in rng.choice(len(values), size=min(k, len(values)), replace=False)]

    @cached_property
    def _floors(self) -> dict[tuple[str, str, Given], float]:
        return {}

    @cached_property
    def _listed(self) -> dict[tuple[str, str, Given], list[object]]:
        """Each support's values in its order, for :meth:`sample_support`."""
        return {}

    # --- several entities at once -----------------------------------------------------
    def joint(self, members: Sequence[tuple[str, Given, str]]) -> list[tuple[object, ...]] | None:
        """For each pool profile that has distinct entities like every member (kind, what
        the question reveals about it, attribute), their values of those attributes;
        None when fewer than MIN_ROWS pool profiles have them all."""
        return self.remember(("joint", tuple(members)), lambda: self._joint(members))

    def _joint(self, members: Sequence[tuple[str, Given, str]]) -> list[tuple[object, ...]] | None:
        n = self.profiles
        alive = np.ones(n, dtype=bool)
        # (slot, profile) arrays, each slot a contiguous run of profiles: reductions over
        # the slots are then a few vector operations, not one small one per profile
        taken: dict[str, NDArray[np.bool_]] = {}
        picked = []
        for kind, given, attr in members:
            columns = self.rows.get(kind, {})
            if attr not in columns or any(a not in columns for a, _ in given):
                return None
            slots = len(columns[attr]) // n
            match = self._where(kind, given, slots * n).reshape(slots, n)
            free = match & ~taken.setdefault(kind, np.zeros((slots, n), dtype=bool))
            slot, some = _first_true(free)  # each profile's first free matching slot (or 0)
            alive &= some
            taken[kind][slot, np.arange(n)] = True
            picked.append(self._array(kind, attr)[slot * n + np.arange(n)])
        rows = np.flatnonzero(alive)
        # a row's values as a tuple, the columns zipped (the same objects, one pass)
        out: list[tuple[object, ...]] = (
            list(zip(*(column[rows].tolist() for column in picked), strict=True))
            if picked
            else [() for _ in rows]
        )
        return out if len(out) >= MIN_ROWS else None

    def _where(self, kind: str, given: Given, size: int) -> NDArray[np.bool_]:
        """Which of the first ``size`` rows (slot-major) hold every (attribute, value) of
        ``given``: a row matches where ``==`` says so, found by comparing
        :meth:`_codes` when the value and the column allow it."""
        found = np.ones(size, dtype=bool)
        for a, v in given:
            codes, index = self._codes(kind, a)
            if codes is not None and _codable(v):
                code = index.get(v)
                found &= codes[:size] == code if code is not None else False
            else:
                column = self.rows[kind][a]
                found &= np.fromiter((column[r] == v for r in range(size)), bool, size)
        return found

    def _codes(self, kind: str, attr: str) -> tuple[NDArray[np.int64] | None, dict[object, int]]:
        """A column as integer codes, one per distinct value (first met first), so rows
        are matched by comparing integers: the values are all strings or integers, for
        which equal codes are exactly ``==`` (hash and equality agree); else (None, {})
        and the objects are compared."""

        def compute() -> tuple[NDArray[np.int64] | None, dict[object, int]]:
            column = self.rows[kind][attr]
            if not all(_codable(v) for v in column):
                return None, {}
            index: dict[object, int] = {}
            codes = np.fromiter((index.setdefault(v, len(index)) for v in column), np.int64)
            return codes, index

        return self.remember(("codes", kind, attr), compute)

    def _array(self, kind: str, attr: str) -> NDArray[Any]:

        def compute() -> NDArray[Any]:
            column = np.empty(len(self.rows[kind][attr]), dtype=object)
            column[:] = self.rows[kind][attr]
            return column

        return self.remember(("array", kind, attr), compute)

    # --- counts ---------------------------------------------------------------------------
    def group_column(
        self, slots: Sequence[tuple[str, int]], attr: str, key: Any
    ) -> NDArray[np.float64] | None:
        """Sort keys of ``attr`` for the given (kind, slot) members, one row per pool
        profile (None when a member lacks the attribute)."""
        out = np.empty((self.profiles, len(slots)))
        for j, (kind, slot) in enumerate(slots):
            column = self.rows.get(kind, {}).get(attr)
            if column is None:
                return None
            part = column[slot * self.profiles : (slot + 1) * self.profiles]
            keyed = {v: key(v) for v in dict.fromkeys(part)}  # once per distinct value
            out[:, j] = [keyed[v] for v in part]
        return out

    def count_distribution(
        self, keys: NDArray[np.float64], op: str, threshold: float
    ) -> NDArray[np.float64]:
        """P(count) of ``keys op threshold`` over the pool's groups (index = count)."""
        # one row per member, each a contiguous run over the pool's groups: the count per
        # group is the sum of k rows (along the short axis of (groups, k) it is a slow
        # reduction per group)
        hit = COMPARISONS[op](np.ascontiguousarray(keys.T), threshold).sum(axis=0)
        return np.bincount(hit, minlength=keys.shape[1] + 1) / len(hit)


def _first_true(rows: NDArray[np.bool_]) -> tuple[NDArray[np.intp], NDArray[np.bool_]]:
    """Per column of ``rows`` (slots x profiles): the first row that is True (0 when
    none, as ``argmax(axis=0)``) and whether any is; a pass per row (slots are few),
    not a strided scan per column."""
    first = np.zeros(rows.shape[1], dtype=np.intp)
    seen = np.zeros(rows.shape[1], dtype=bool)
    for i, row in enumerate(rows):
        first[row & ~seen] = i
        seen |= row
    return first, seen


def _codable(value: object) -> bool:
    """Strings and integers (bools among them): values whose equality is their hash's."""
    return type(value) in (str, int, bool)


COMPARISONS = {
    "eq": np.equal,
    "gt": np.greater,
    "ge": np.greater_equal,
    "lt": np.less,
    "le": np.less_equal,
    "after": np.greater,
    "before": np.less,
}


def day_key(text: object) -> float:
    """A date, date-time or month-day (ISO text) as a number that sorts like it."""
    s = str(text)
    if len(s) == 5:  # MM-DD
        return float(int(s[:2]) * 100 + int(s[3:]))
    return dt.datetime.fromisoformat(s).timestamp()


__all__ = [
    "COMPARISONS",
    "MIN_COUNT_SHARE",
    "MIN_ROWS",
    "POOL_START",
    "TRIM",
    "Given",
    "ValuePool",
    "day_key",
]
