"""Noise infusion: a trajectory at noise level L holds L times as many messages as it
had, i.e. ``(L - 1) * n`` noise messages are added to its ``n`` real ones.

This is the MemSim paper's reading of its "1x, 10x, 50x, 100x" settings (its
``infuse_noise`` adds ``L - 1`` noise messages per real one, so 1x is the data as it
is and 100x is 99 noise messages per real message).

Guarantees:

- positions: every arrangement of the noise runs between the real messages (a
  composition of ``(L - 1) * n`` into the ``n + 1`` gaps: before the first message,
  between two, after the last) is equally likely among those the clock allows, so when
  every gap has room the noise positions are uniform, exactly as drawing the real
  messages' slots uniformly among ``L * n``. A gap has room for as many messages as it
  has free minutes in waking hours (07:00-22:59) strictly between its two neighbours;
  the gap after the last message ends strictly before the question; the gap before the
  first message spans one mean inter-message interval (more, whole days at a time,
  when the trajectory needs it);
- times: noise times are distinct minutes drawn uniformly from their gap's free
  minutes, so the trajectory stays strictly increasing wherever its real messages were
  (a gap whose neighbours are not increasing gets no noise), and the question stays
  after the last message; times are written in the input's own format;
- the evidence ids (``target_step_id``) are remapped to the new positions; message ids
  are the positions ``0..L*n-1``;
- a noise message's place is that of the real message nearest to it in time (the
  earlier one on a tie), in the input's own form.
"""

from __future__ import annotations

import datetime as dt
import math
from bisect import bisect_right
from functools import partial
from itertools import compress

import numpy as np
from numpy.typing import NDArray

from memsim.bench._draws import draw_bounded, floyd_bounds, floyd_sample
from memsim.bench._pool import NoisePool
from memsim.bench._times import TimeFormat
from memsim.bench._types import BenchItem, Labels, Message, Query
from memsim.records import Record, Turn

WAKING = (7 * 60, 23 * 60)
"""Noise is sent from 07:00 to 22:59 (minutes of the day), as memsim's real messages."""
_EPOCH = dt.datetime(1970, 1, 1)
DAY = 24 * 60
_MESSAGE = partial(tuple.__new__, Message)
"""``Message`` from a tuple of its fields, in C: the named tuple's own ``__new__`` is a
Python function, and a 100x run makes millions of noise messages (~40% less time each)."""


def minutes(when: dt.datetime) -> int:
    return int((when - _EPOCH).total_seconds() // 60)


def from_minutes(m: int) -> dt.datetime:
    return _EPOCH + dt.timedelta(minutes=int(m))


def free_segments(after: int, before: int) -> list[tuple[int, int]]:
    """Waking minutes strictly between two times, as (first minute, count) per day."""
    out = []
    lo, hi = after + 1, before - 1
    day = (lo // DAY) * DAY if lo <= hi else hi + 1
    while day <= hi:
        start, end = max(lo, day + WAKING[0]), min(hi, day + WAKING[1] - 1)
        if start <= end:
            out.append((start, end - start + 1))
        day += DAY
    return out


def sample_composition(total: int, caps: list[int], rng: np.random.Generator) -> list[int]:
    """How many of ``total`` items each gap gets: uniform over every split with
    ``0 <= x_i <= caps[i]`` and ``sum x_i == total`` (which must exist)."""
    caps = [min(c, total) for c in caps]
    if sum(caps) < total:
        raise ValueError(f"{total} noise messages do not fit in gaps of {caps} minutes")
    g = len(caps)
    # ways[i][s]: splits of s over gaps i..g-1 (each row scaled to max 1: only ratios matter)
    ways: list[NDArray[np.float64]] = [np.zeros(total + 1) for _ in range(g + 1)]
    ways[g][0] = 1.0
    s = np.arange(total + 1)
    for i in range(g - 1, -1, -1):
        cum = np.concatenate(([0.0], np.cumsum(ways[i + 1])))
        row = np.maximum(cum[s + 1] - cum[np.maximum(s - caps[i], 0)], 0.0)
        ways[i] = row / row.max()
    room_after = np.concatenate((np.cumsum(caps[::-1])[::-1][1:], [0])).tolist()
    # Each gap's count is drawn as rng.choice(len(xs), p=weights / weights.sum()) draws
    # it: one uniform double, placed in the normalised cumulative sum of p. The doubles
    # are drawn at once (the same ones, in the same order) and the search is made here:
    # rng.choice's checks of p cost more than the draw.
    uniforms = rng.random(g).tolist()
    out, left = [], total
    for i in range(g):
        lo, hi = max(0, left - int(room_after[i])), min(caps[i], left)
        if lo == hi:  # one choice: its draw is made, and picks it
            x = lo
        else:
            # ways[i + 1][left - xs] for xs = lo..hi, contiguous (so summed in that order)
            weights = ways[i + 1][left - hi : left - lo + 1][::-1].copy()
            weights = weights if weights.sum() > 0 else np.ones(len(weights))
            cdf = (weights / weights.sum()).cumsum()
            cdf /= cdf[-1]
            x = lo + int(cdf.searchsorted(uniforms[i], side="right"))
        out.append(x)
        left -= x
    return out


def gap_segments(times: list[int], asked: int, total: int) -> list[list[tuple[int, int]]]:
    """Free minutes of each gap: before the first message, between two, after the last."""
    n = len(times)
    gaps = [free_segments(a, b) for a, b in zip(times, [*times[1:], asked], strict=True)]
    mean = (asked - times[0]) // n if asked > times[0] else DAY
    reach = max(mean, 60)
    while True:
        first = free_segments(times[0] - reach - 1, times[0])
        room = sum(c for seg in [first, *gaps] for _, c in seg)
        if room >= total:
            return [first, *gaps]
        reach += DAY


def infuse(
    raw: Record,
    level: int,
    fmt: TimeFormat,
    pool: NoisePool | None,
    allowed: list[int],
    rng: np.random.Generator,
) -> BenchItem:
    """The trajectory at noise ``level`` (1 = as it is)."""
    key = f"{raw.type}/{raw.scenario}/{raw.tid}"
    real = raw.turns
    position = {t.id: i for i, t in enumerate(real)}
    if len(position) != len(real):
        raise ValueError(f"{key}: two messages have the same mid")
    missing = [t for t in raw.qa.evidence if t not in position]
    if missing:
        raise ValueError(f"{key}: target_step_id {missing} names no message")
    evidence = {position[t] for t in raw.qa.evidence}
    noise_count = (level - 1) * len(real)
    if noise_count == 0 or pool is None or not real:
        return _item(raw, key, [_real(i, m) for i, m in enumerate(real)], evidence, set())

    times = [minutes(_parse(fmt, t.time, key)) for t in real]
    asked = minutes(_parse(fmt, raw.qa.time, key))
    gaps = gap_segments(times, asked, noise_count)
    caps = [sum(c for _, c in seg) for seg in gaps]
    runs = sample_composition(noise_count, caps, rng)
    codes = pool.draw_codes(noise_count, allowed, rng)
    noise = _Noise(gaps, caps, runs, codes, pool, rng)
    texts = pool.texts_at(codes, noise.minutes, noise.choices)
    at = noise.minutes.tolist()
    stamps = noise.stamps(fmt, at)
    messages: list[Message] = []
    new_evidence: set[int] = set()
    used = 0
    for gap, run in enumerate(runs):
        if run:
            # the place of the real message nearest in time (the earlier one on a tie):
            # before the middle of the gap, the one before it, after it the one after
            before = real[max(gap - 1, 0)].place
            after = real[min(gap, len(real) - 1)].place
            middle = (times[gap - 1] + times[gap]) / 2 if 0 < gap < len(real) else math.inf
            start, stop = len(messages), used + run
            # the minutes ascend: those up to the middle take the earlier place
            early = bisect_right(at, middle, used, stop) - used
            places = [before] * early + [after] * (run - early)
            messages += map(
                _MESSAGE,
                zip(
                    range(start, start + run),
                    texts[used:stop],
                    stamps[used:stop],
                    places,
                    strict=True,
                ),
            )
            used = stop
        if gap < len(real):
            if gap in evidence:
                new_evidence.add(len(messages))
            messages.append(_real(len(messages), real[gap]))
    return _item(raw, key, messages, new_evidence, noise.ids(runs))


class _Noise:
    """A trajectory's noise minutes and phrasings, drawn gap by gap as picking each
    gap's minutes with ``rng.choice`` then drawing its phrasings would draw them (the
    same draws, in the same order: ``tests/bench/_reference.py`` makes them so, for
    the tests), with the rest made once for the whole trajectory: the
    minutes mapped from the gaps' free-minute numbers in one search, the texts looked
    up and the times rendered in one call each."""

    def __init__(
        self,
        gaps: list[list[tuple[int, int]]],
        caps: list[int],
        runs: list[int],
        codes: NDArray[np.int64],
        pool: NoisePool,
        rng: np.random.Generator,
    ) -> None:
        bounds = pool.phrasing_bounds(codes)
        plans = [floyd_bounds(cap, run) for cap, run in zip(caps, runs, strict=True) if run]
        if None in plans:
            picks, self.choices = self._gap_by_gap(caps, runs, codes, bounds, rng)
        else:
            picks, self.choices = self._at_once(caps, runs, plans, bounds.tolist(), rng)
        # every gap's free minutes numbered in one sequence: picks of a gap stay among
        # its own numbers, so one sort orders each gap's picks as its own sort did
        numbers = np.sort(picks)
        lengths = np.array([n for seg in gaps for _, n in seg], dtype=np.int64)
        starts = np.array([s for seg in gaps for s, _ in seg], dtype=np.int64)
        ends = np.cumsum(lengths)
        seg = np.searchsorted(ends, numbers, side="right")
        self.minutes: NDArray[np.int64] = starts[seg] + numbers - (ends[seg] - lengths[seg])

    @staticmethod
    def _gap_by_gap(
        caps: list[int],
        runs: list[int],
        codes: NDArray[np.int64],
        bounds: NDArray[np.int64],
        rng: np.random.Generator,
    ) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        """Each gap's picks among its free minutes (offset by the gaps before it) and
        its phrasings, drawn as the reference's pick_minutes and render_codes draw them
        (``tests/bench/_reference.py``)."""
        facts = (codes >= 0).tolist()
        choices = np.zeros(len(codes), dtype=np.int64)
        picks: list[NDArray[np.int64]] = []
        offset, used = 0, 0
        for cap, run in zip(caps, runs, strict=True):
            if run:
                picks.append(rng.choice(cap, size=run, replace=False) + offset)
                stop = used + run
                moving = list(compress(range(used, stop), facts[used:stop]))
                choices[moving] = draw_bounded(rng, bounds[moving].tolist())
                used = stop
            offset += cap
        return np.concatenate(picks), choices

    @staticmethod
    def _at_once(
        caps: list[int],
        runs: list[int],
        plans: list[list[int] | None],
        bounds: list[int],
        rng: np.random.Generator,
    ) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        """:meth:`_gap_by_gap` in one :func:`draw_bounded` call: every draw it makes is
        a bounded 32-bit draw (rng.choice's Floyd draws and shuffle, then the
        phrasings, gap after gap), so all are drawn at once, in that order, and each
        gap's picks are found from its Floyd draws (:func:`floyd_sample`)."""
        order: list[int] = []
        used = 0
        for plan, run in zip(plans, [r for r in runs if r], strict=True):
            order += plan or ()
            order += bounds[used : used + run]  # a chit-chat line's bound is 1
            used += run
        values = draw_bounded(rng, order)
        picks: list[int] = []
        choices: list[int] = []
        offset, at = 0, 0
        for cap, run in zip(caps, runs, strict=True):
            if run:
                picks += [offset + m for m in floyd_sample(cap, run, values[at : at + run])]
                at += 2 * run - 1  # Floyd's draws, then the shuffle's
                choices += values[at : at + run]
                at += run
            offset += cap
        return np.asarray(picks, dtype=np.int64), np.asarray(choices, dtype=np.int64)

    def stamps(self, fmt: TimeFormat, at: list[int]) -> list[str]:
        """The times as ``fmt`` writes them (gap by gap if the minutes do not ascend
        across gaps: a gap between real messages out of order gets no noise, but
        those around it may)."""
        if len(at) < 2 or bool(np.all(np.diff(self.minutes) > 0)):
            return fmt.render_minutes(at)
        out: list[str] = []
        start = 0
        for i in range(1, len(at) + 1):
            if i == len(at) or at[i] < at[i - 1]:
                out += fmt.render_minutes(at[start:i])
                start = i
        return out

    @staticmethod
    def ids(runs: list[int]) -> set[int]:
        """The positions of the noise messages among all (gap ``g``'s run follows ``g``
        real messages)."""
        out: set[int] = set()
        position = 0
        for run in runs:
            out.update(range(position, position + run))
            position += run + 1
        return out


def _parse(fmt: TimeFormat, text: str, key: str) -> dt.datetime:
    when = fmt.parse(text)
    if when is None:
        raise ValueError(f"{key}: time {text!r} is not in the {fmt.name} format")
    return when


def _real(mid: int, turn: Turn) -> Message:
    return Message(mid, turn.text, turn.time, turn.place)


def _item(
    raw: Record, key: str, messages: list[Message], evidence: set[int], noise: set[int]
) -> BenchItem:
    qa = raw.qa
    return BenchItem(
        key=key,
        qa_type=raw.type,
        scenario=raw.scenario,
        messages=tuple(messages),
        query=Query(qa.question, qa.time),
        choices=qa.choices,
        ground_truth=qa.gold or "",
        labels=Labels(frozenset(evidence), frozenset(noise)),
    )
