"""Where the values of one attribute lie on a line, so that the distances a comparison
with a stated margin measures (:func:`memsim.schema.value_distance`) are taken for the
whole option-prior sample at once.

Guarantee: :meth:`Spread.distance` of two value codes is the float ``value_distance``
gives for the two values, bit for bit: integers and days are exact integers, and a
date-time's distance is the same two correctly rounded divisions (microseconds by 10**6,
then by 86,400) of an integer that a float holds exactly. :meth:`Spread.of` returns None
when that cannot be promised (a type without a distance, a value it cannot place,
positions too far apart for a float).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import numpy as np
import numpy.typing as npt

from memsim.schema._distance import _LEAP

Codes = npt.NDArray[np.int64]
EXACT = 2**53
"""Integers a float holds exactly: the widest spread of positions measured in floats."""
_ORIGIN = dt.datetime(1, 1, 1)
_MICROSECOND = dt.timedelta(microseconds=1)


class Spread:
    """Per value code, its position (an integer); the last entry stands for no value."""

    def __init__(self, kind: str, positions: list[int]):
        self.kind = kind
        self.at = np.array([*positions, 0], dtype=np.int64)

    @classmethod
    def of(cls, kind: str, values: list[Any]) -> Spread | None:
        try:
            positions = [_position(kind, v) for v in values]
        except Exception:  # the per-profile path raises or refuses it as it would
            return None
        if positions and max(positions) - min(positions) >= EXACT:
            return None
        return cls(kind, positions)

    def distance(self, a: Codes, b: Codes) -> npt.NDArray[np.float64]:
        """|a - b| per pair of codes (-1: no value, any distance), as value_distance says."""
        apart: npt.NDArray[np.float64] = np.abs(self.at[a] - self.at[b]).astype(np.float64)
        if self.kind in ("date", "datetime"):
            days: npt.NDArray[np.float64] = apart / 10**6 / 86400
            return days
        return apart


def _position(kind: str, value: Any) -> int:
    if kind == "integer":
        return int(str(value))
    if kind == "month_day":
        return dt.date.fromisoformat(f"{_LEAP}-{value}").toordinal()
    if kind in ("date", "datetime"):
        return (dt.datetime.fromisoformat(str(value)) - _ORIGIN) // _MICROSECOND
    raise ValueError(f"no distance between values of type {kind}")


__all__ = ["Spread"]
