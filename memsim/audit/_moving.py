"""The value histories of one attribute's changing facts in the option prior's sample, as
arrays, so that the value each holds at a time is found for all of them at once.

Guarantee: :meth:`Moving.at` gives, per fact, the code of ``Fact.value_at(when)`` (the
last step, in history order, whose ``since`` is at or before ``when``; else the initial
value), codes numbering values as a dict does (equal values, equal codes), so two codes
are equal exactly when the two values are.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from memsim.profile import Fact

Codes = npt.NDArray[np.int64]


class Moving:
    """Per changing fact: its initial value's code and its later steps (since, code).

    ``labels`` starts as the given labels (the attribute's column codes) and gains the
    values only a later step holds; a value that is not hashable raises TypeError."""

    def __init__(self, facts: list[Fact], labels: list[Any], cell_of: Codes):
        self.labels = list(labels)
        self.cell_of = cell_of
        """(slot x profile): the fact's number here, -1 for a fact that never changes."""
        index = {v: i for i, v in enumerate(self.labels)}
        first, cell, since, code = [], [], [], []
        for c, fact in enumerate(facts):
            first.append(self._code(fact.value, index))
            for step in fact.history[1:]:
                if step.since is None:
                    continue  # never holds (Fact.value_at skips it)
                cell.append(c)
                since.append(step.since)
                code.append(self._code(step.value, index))
        self.first = np.array(first, dtype=np.int64)
        self.cell = np.array(cell, dtype=np.int64)
        self.since = np.array(since, dtype=str)
        self.code = np.array(code, dtype=np.int64)

    def _code(self, value: Any, index: dict[Any, int]) -> int:
        value = tuple(value) if isinstance(value, list) else value
        code = index.setdefault(value, len(self.labels))
        if code == len(self.labels):
            self.labels.append(value)
        return code

    def at(self, when: str) -> Codes:
        """Each fact's value code at ISO date-time ``when``."""
        if not len(self.code):
            return self.first.copy()
        holds = self.since <= when
        last = np.full(len(self.first), -1, dtype=np.int64)
        np.maximum.at(last, self.cell[holds], np.flatnonzero(holds))
        return np.where(last >= 0, self.code[np.maximum(last, 0)], self.first)


__all__ = ["Moving"]
