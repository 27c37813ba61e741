"""Fewer garbage collections in the long loops that make a dataset.

Generation builds a few hundred thousand objects that live for the whole run (the
schema, the value pool, the noise profiles, the memos) and then makes records, whose
objects mostly die young, while memos keep the last few hundred profiles alive. With
the interpreter's defaults (a young collection every 700 allocations) the survivors
kept reaching the oldest generation, and each of its collections walked every object
of the run: 17 full collections took 2.7 of 15.4 s CPU on 4,500 questions.

Nothing made depends on when collections run (memos keyed by ``id`` keep the object
they are keyed by alive and check it), so the output is the same bytes.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

YOUNG = 50_000
"""Allocations (less deallocations) between collections of the youngest generation."""


def collect_rarely(young: int = YOUNG) -> tuple[int, int, int]:
    """Freeze what exists now out of the collector's walks (``gc.freeze``; worker
    processes forked later inherit that, and their pages of it stay shared) and collect
    the youngest generation every ``young`` allocations; return the thresholds before.
    Cyclic garbage is still collected, so memory stays flat on long runs."""
    before = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(young, before[1], before[2])
    return before


@contextmanager
def few_collections(young: int = YOUNG) -> Iterator[None]:
    """:func:`collect_rarely` inside; on exit the thresholds are restored and the frozen
    objects are collected as usual again."""
    before = collect_rarely(young)
    try:
        yield
    finally:
        gc.set_threshold(*before)
        gc.unfreeze()
