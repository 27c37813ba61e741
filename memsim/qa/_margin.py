"""A stated margin for comparing values that almost never tie.

A comparative question offers "they are the same" and each outcome must be the answer a
quarter of the time. Two gift budgets drawn from 20-200 dollars, two order totals or
two delivery times are equal far too rarely for a profile (every trajectory reads its
own) to hold a tie when "the same" is the outcome wanted, so first, second and "never
told" took a third each. For such an attribute (an exact tie in under ``TIE_SHARE`` of
two pool entities' values) the question says a margin: "A difference of 50 dollars or
less counts as the same." The margin is the round number (``STEPS``, in the unit or in
days) that brings the least of P(first), P(second) and P(within the margin) closest to
a third over the pool, a function of the schema and the pool alone, so it is the same
in every question about that attribute; it is stored in the question's parameters
(``margin``) and the audit re-derives the outcome with it.
"""

from __future__ import annotations

from typing import Any

from memsim.profile import Entity
from memsim.qa._pool import ValuePool
from memsim.schema import MARGIN_TYPES, value_distance

TIE_SHARE = 0.1
"""An attribute whose values tie exactly at least this often is compared exactly."""
STEPS = {
    "integer": (1, 2, 3, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000, 10000),
    "days": (1, 2, 3, 7, 14, 30, 60, 90, 180, 365),
}
"""The margins a question may state (integers in the attribute's unit; dates, days)."""


def _best(kind: str, pairs: list[tuple[object, ...]], key: Any) -> int:
    """The step of STEPS whose least outcome share is largest (the first on a tie)."""
    gaps = [(value_distance(kind, x, y), key(x) > key(y)) for x, y in pairs]
    best, score = 0, -1.0
    for step in STEPS["integer" if kind == "integer" else "days"]:
        same = sum(g <= step for g, _ in gaps) / len(gaps)
        first = sum(g > step and up for g, up in gaps) / len(gaps)
        least = min(same, first, 1 - same - first)
        if least > score + 1e-12:
            best, score = step, least
    return best


def comparison_margin(pool: ValuePool, a: Entity, b: Entity, attr: str, kind: str, key: Any) -> int:
    """The margin comparisons of ``attr`` between entities of a's and b's kinds state
    (0 when their values tie often enough to compare them exactly, or are categorical);
    ``key`` sorts a value."""

    def compute() -> int:
        if kind not in MARGIN_TYPES:
            return 0
        pairs = pool.joint([(a.kind, (), attr), (b.kind, (), attr)])
        if not pairs:
            return 0
        ties = sum(str(x) == str(y) for x, y in pairs) / len(pairs)
        return _best(kind, pairs, key) if ties < TIE_SHARE else 0

    return pool.remember(("margin", a.kind, b.kind, attr), compute)


__all__ = ["STEPS", "TIE_SHARE", "comparison_margin"]
