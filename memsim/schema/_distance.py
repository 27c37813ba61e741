"""How far apart two values of an ordered, non-categorical type are: what a comparison
with a stated margin ("a difference of 50 dollars or less counts as the same") measures,
the same in the QA kind that asks it and in the audit that re-derives it."""

from __future__ import annotations

import datetime as dt

_LEAP = 2000
"""A leap year, so that any month-day (02-29 too) has a day of the year."""
MARGIN_TYPES = ("integer", "month_day", "date", "datetime")
"""The types whose comparisons may state a margin."""


def value_distance(kind: str, x: object, y: object) -> float:
    """|x - y| of two values of an attribute of type ``kind``: integers in their unit,
    dates and month-days in days (month-days within one year), date-times in days with
    their fraction."""
    if kind == "integer":
        return float(abs(int(str(x)) - int(str(y))))
    if kind == "month_day":
        days = [dt.date.fromisoformat(f"{_LEAP}-{v}").toordinal() for v in (x, y)]
        return float(abs(days[0] - days[1]))
    if kind in ("date", "datetime"):
        a, b = (dt.datetime.fromisoformat(str(v)) for v in (x, y))
        return abs((a - b).total_seconds()) / 86400
    raise ValueError(f"no distance between values of type {kind}")


def within_margin(kind: str, x: object, y: object, margin: float) -> bool:
    """Whether x and y count as the same under a margin > 0."""
    return value_distance(kind, x, y) <= margin


__all__ = ["MARGIN_TYPES", "value_distance", "within_margin"]
