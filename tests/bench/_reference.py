"""Straightforward versions of what the noise infusion draws and renders fast, kept
here for the tests that check the fast path against them (memsim no longer calls
them): a noise message rendered one at a time (:func:`render_minute`), a run of them
with the phrasings drawn at once (:func:`render_run`), the same by codes
(:func:`render_codes`), and a gap's minutes picked with ``rng.choice``
(:func:`pick_minutes`). Each makes the draws the fast path makes, in the same order,
so a test compares texts and the generator's state after."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from memsim.bench import NoisePool
from memsim.bench._draws import draw_bounded
from memsim.bench._pool import BY_DATE, DAY, STATIC, Spec

EPOCH = dt.datetime(1970, 1, 1)


def _time(minute: int) -> dt.datetime:
    return EPOCH + dt.timedelta(minutes=minute)


def _shape_of(pool: NoisePool, entity_index: int, fact_index: int) -> tuple[int, int]:
    known = pool._shapes.get((entity_index, fact_index))
    if known is None:
        known = pool._shapes[entity_index, fact_index] = pool._shape(entity_index, fact_index)
    return known


def render_minute(
    pool: NoisePool,
    spec: Spec,
    minute: int,
    rng: np.random.Generator,
    when: dt.datetime | None = None,
) -> str:
    """The message of ``spec`` said ``minute`` minutes after 1970-01-01 00:00 (``when``,
    if given, is that time): what the template verbalizer makes of it, with the same
    draw from ``rng``; a text is remembered by what it depends on, and only a new one
    is rendered."""
    if isinstance(spec, str):
        return spec
    entity_index, fact_indices = spec
    if len(fact_indices) != 1:
        e = pool.entities[entity_index]
        facts = [(e.entity, e.facts[i]) for i in fact_indices]
        return pool.verbalizer.message(facts, when or _time(minute), rng)
    fact_index = fact_indices[0]
    phrasings, depends = _shape_of(pool, entity_index, fact_index)
    choice = int(rng.integers(phrasings))  # the draw TemplateVerbalizer.sentence makes
    moment = None if depends == STATIC else minute // DAY if depends == BY_DATE else minute
    key = (entity_index, fact_index, choice, moment)
    text = pool._texts.get(key)
    if text is None:
        text = pool._render_new(key, when or _time(minute))
    return text


def render_run(
    pool: NoisePool, specs: Sequence[Spec], minutes: Sequence[int], rng: np.random.Generator
) -> list[str]:
    """``[render_minute(pool, s, m, rng) for s, m in zip(specs, minutes)]``, with the
    phrasings drawn at once (:func:`draw_bounded`: the same draws)."""
    refs: list[tuple[int, int, int, int] | str] = []
    for spec in specs:
        if isinstance(spec, str):
            refs.append(spec)
            continue
        entity_index, fact_indices = spec
        if len(fact_indices) != 1:  # not made by draw(): one by one
            return [render_minute(pool, s, m, rng) for s, m in zip(specs, minutes, strict=True)]
        refs.append(
            (entity_index, fact_indices[0], *_shape_of(pool, entity_index, fact_indices[0]))
        )
    bounds = [ref[2] for ref in refs if not isinstance(ref, str)]
    choices = iter(draw_bounded(rng, bounds))
    out: list[str] = []
    for ref, minute in zip(refs, minutes, strict=True):
        if isinstance(ref, str):
            out.append(ref)
            continue
        entity_index, fact_index, _, depends = ref
        moment = None if depends == STATIC else minute // DAY if depends == BY_DATE else minute
        key = (entity_index, fact_index, next(choices), moment)
        text = pool._texts.get(key)
        if text is None:
            text = pool._render_new(key, _time(minute))
        out.append(text)
    return out


def render_codes(
    pool: NoisePool, codes: NDArray[np.int64], minutes: Sequence[int], rng: np.random.Generator
) -> list[str]:
    """``render_run(pool, [pool.spec(c) for c in codes], minutes, rng)``: the same draws
    and texts, with the keys of the remembered texts made as arrays
    (:meth:`NoisePool.texts_at`, as the infusion makes them)."""
    bounds = pool.phrasing_bounds(codes)
    facts = codes >= 0
    choices = np.zeros(len(codes), dtype=np.int64)
    choices[facts] = draw_bounded(rng, bounds[facts].tolist())
    return pool.texts_at(codes, np.asarray(minutes, dtype=np.int64), choices)


def pick_minutes(
    segments: list[tuple[int, int]], count: int, rng: np.random.Generator
) -> list[int]:
    """``count`` distinct free minutes, uniform among the segments', ascending."""
    if count == 0:
        return []
    lengths = np.array([n for _, n in segments], dtype=np.int64)
    ends = np.cumsum(lengths)
    picks = np.sort(rng.choice(int(ends[-1]), size=count, replace=False))
    seg = np.searchsorted(ends, picks, side="right")
    starts = np.array([s for s, _ in segments], dtype=np.int64)
    minutes: list[int] = (starts[seg] + picks - (ends[seg] - lengths[seg])).tolist()
    return minutes
