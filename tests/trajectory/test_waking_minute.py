"""``waking_minute`` measures only the two ends of a window: it draws the same number
and returns the same minute as measuring the waking minutes of every day (the
definition, written out here day by day)."""

from __future__ import annotations

import datetime as dt

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from memsim.trajectory import WAKING, waking_minute


def every_day(start: dt.datetime, end: dt.datetime, rng: np.random.Generator) -> dt.datetime:
    """The definition: each day's waking minutes inside [start, end), one draw among all."""
    spans = []
    day = start.date()
    while day <= end.date():
        lo = max(start, dt.datetime.combine(day, dt.time(WAKING[0])))
        hi = min(end, dt.datetime.combine(day, dt.time(WAKING[1] - 1, 59)))
        if hi > lo:
            spans.append((lo, int((hi - lo).total_seconds() // 60)))
        day += dt.timedelta(days=1)
    total = sum(n for _, n in spans)
    if total == 0:
        return start.replace(second=0, microsecond=0)
    pick = int(rng.integers(total))
    for lo, n in spans:
        if pick < n:
            return (lo + dt.timedelta(minutes=pick)).replace(second=0, microsecond=0)
        pick -= n
    raise AssertionError("unreachable")


times = st.datetimes(min_value=dt.datetime(2024, 1, 1), max_value=dt.datetime(2024, 12, 31))


@settings(max_examples=2000, deadline=None)
@given(start=times, length=st.one_of(times, st.timedeltas(dt.timedelta(0), dt.timedelta(days=2))))
def test_same_minute_and_draw_as_every_day(start: dt.datetime, length: object) -> None:
    end = start + length if isinstance(length, dt.timedelta) else length
    assert isinstance(end, dt.datetime)
    mine, theirs = np.random.default_rng(7), np.random.default_rng(7)
    assert waking_minute(start, end, mine) == every_day(start, end, theirs)
    assert mine.random() == theirs.random()  # as many draws


def test_edges() -> None:
    day = dt.datetime(2024, 3, 4)
    for start, end in [
        (day.replace(hour=23), day + dt.timedelta(days=1, hours=6)),  # a night: none
        (day.replace(hour=22, minute=59), day + dt.timedelta(days=3)),  # the last minute
        (day.replace(hour=7), day.replace(hour=7, second=59)),  # under a minute
        (day + dt.timedelta(days=2), day),  # inverted
        (day.replace(hour=12, second=30), day + dt.timedelta(days=40, hours=9, seconds=5)),
    ]:
        for seed in range(50):
            a, b = np.random.default_rng(seed), np.random.default_rng(seed)
            assert waking_minute(start, end, a) == every_day(start, end, b)
