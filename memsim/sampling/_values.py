"""How sampled values are stored (numpy columns) and written (JSON-ready Python)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import numpy as np
from numpy.typing import NDArray

from memsim.graph import Node

EPOCH = dt.date(1970, 1, 1)
MONTH_DAY_YEAR = 2000
"""Month-days are drawn as days of this leap year, so 29 February is possible."""


def date_to_days(day: dt.date) -> int:
    return (day - EPOCH).days


def to_python(node: Node, column: NDArray[Any]) -> list[Any]:
    """A column as JSON-ready values: categorical codes become their values; dates
    become ISO strings (``YYYY-MM-DD``, ``MM-DD``, ``YYYY-MM-DDTHH:MM``)."""
    kind = node.attribute.type
    if kind == "categorical":
        values = node.values
        return [values[c] for c in column.tolist()]
    if kind == "integer":
        return [int(v) for v in column.tolist()]
    if kind == "date":
        return np.datetime_as_string(column.astype("datetime64[D]")).tolist()  # type: ignore[no-any-return]
    if kind == "month_day":
        days = column + date_to_days(dt.date(MONTH_DAY_YEAR, 1, 1))
        return [s[5:] for s in np.datetime_as_string(days.astype("datetime64[D]")).tolist()]
    if kind == "datetime":
        return np.datetime_as_string(column.astype("datetime64[m]")).tolist()  # type: ignore[no-any-return]
    return list(column.tolist())


def to_text(node: Node, column: NDArray[Any]) -> list[str]:
    return [str(v) for v in to_python(node, column)]
