"""The option prior's sample in columns: per attribute, a (slot x profile) matrix of value
codes and of sort-key ranks, so that the raw answers of the transforms (identity, compare
with or without a margin, count, value_at; count_between and first_of in
:mod:`memsim.audit._events`; the transforms of one or two values and of a history in
:mod:`memsim.audit._per_value`) are computed for every sampled profile at once with
numpy, instead of once per profile and question in Python.

Guarantees: :meth:`Columns.counts` returns the same Counter, in the same order (first
occurrence in sample order), as running :data:`memsim.audit._sample.FAST` (for value_at,
count_between and first_of, :data:`memsim.audit._lean.LEAN`) on each (profile, mapping)
pair and skipping those raising DerivationError or KeyError; whenever that cannot be
shown from the columns (a value that is not hashable, keys that do not sort, a key
raising anything else, several entity kinds in one slot) it returns None and
the caller runs the per-profile path, so the result never differs.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from typing import Any

import numpy as np
import numpy.typing as npt

from memsim.audit import _events as dated
from memsim.audit._derive import DerivationError, Deriver
from memsim.audit._lean import day_bounds
from memsim.audit._moving import Moving
from memsim.audit._per_value import PER_VALUE, per_value
from memsim.audit._spread import Spread
from memsim.audit._transforms import COMPARE
from memsim.profile import Entity, Profile

Codes = npt.NDArray[np.int64]
Pairs = list[tuple[Profile, dict[str, str]]]
COMPARED = ("first", "second", "same")
VECTORISED = ("identity", "compare", "count", "value_at", "count_between", "first_of", *PER_VALUE)


class Columns:
    """The sample's facts by (slot, profile); the last slot row is "no such entity"."""

    def __init__(self, d: Deriver, profiles: list[Profile]):
        self.d, self.profiles = d, profiles
        self.row = {id(p): i for i, p in enumerate(profiles)}
        self.slots = {
            sid: i
            for i, sid in enumerate(dict.fromkeys(e.id for p in profiles for e in p.entities))
        }
        self.entities: list[list[Entity | None]] = [
            [None] * len(profiles) for _ in range(len(self.slots) + 1)
        ]
        for r, p in enumerate(profiles):
            for e in p.entities:  # the first of a repeated id wins, as in Profile.entity
                cell = self.entities[self.slots[e.id]]
                if cell[r] is None:
                    cell[r] = e
        self._codes: dict[str, tuple[Codes, list[Any]] | None] = {}
        self._ranks: dict[str, tuple[Codes, list[Any]] | None] = {}
        self._picks: dict[tuple[int, str | None], tuple[Codes, Codes]] = {}
        self._changing: dict[str, npt.NDArray[np.bool_]] = {}
        self._moving: dict[str, Moving | None] = {}
        self._kinds: dict[str, tuple[Codes, list[str]]] = {}
        self._spread: dict[str, Spread | None] = {}
        self._events: dict[str, dated.Events | None] = {}
        self._plain: dict[str, bool] = {}
        self._having: dict[str, tuple[Codes, Codes, list[Entity]]] = {}
        self.slot_names = list(self.slots)
        # a repeated entity id: which one a question means, the per-profile path says
        self.repeated_ids = any(len({e.id for e in p.entities}) < len(p.entities) for p in profiles)

    def counts(
        self,
        transform: str,
        params: dict[str, Any],
        pairs: Pairs,
        when: dt.datetime | None = None,
    ) -> Counter[Any] | None:
        """The raw answer's counts over ``pairs`` (from Sample.mappings), or None."""
        if transform == "identity":
            return self._identity(params, pairs)
        if transform == "value_at":
            return None if when is None else self._value_at(params, pairs, when)
        if transform == "compare":
            return self._compare(params, pairs)
        if transform == "count":
            return self._count(params, pairs)
        if transform == "count_between":
            return dated.count_between(self, params, pairs)
        if transform == "first_of":
            return dated.first_of(self, params, pairs)
        if transform in PER_VALUE:
            return None if when is None else per_value(self, transform, params, pairs, when)
        return None

    # --- the transforms ---------------------------------------------------------------
    def _identity(self, params: dict[str, Any], pairs: Pairs) -> Counter[Any] | None:
        found = self.codes(str(params["attribute"]))
        if found is None:
            return None
        matrix, values = found
        rows, slots = self.pick(pairs, str(params["entity"]))
        codes = matrix[slots, rows]
        return _ordered(codes[codes >= 0], lambda c: values[c])

    def _value_at(
        self, params: dict[str, Any], pairs: Pairs, when: dt.datetime
    ) -> Counter[Any] | None:
        """:func:`memsim.audit._lean.value_at` over the pairs: a fact that never changes
        holds its value all day (its code, at once); the few that change are read from
        their histories' arrays (:class:`memsim.audit._moving.Moving`) at the day's start
        and end, and a day on which one changes is skipped, as the lean path does."""
        attr = str(params["attribute"])
        found = self.codes(attr)
        if found is None:
            return None
        try:
            day, start, end = day_bounds(str(params["day"]))
        except Exception:  # let the per-profile path raise it as it would
            return None
        matrix, values = found
        rows, slots = self.pick(pairs, str(params["entity"]))
        codes = matrix[slots, rows]
        if day >= when.date():
            return Counter()  # every pair refused: the day is not before the question
        moving = np.flatnonzero(self.changing(attr)[slots, rows] & (codes >= 0))
        labels = values
        if moving.size:
            # the few facts that change: each one's value at the day's start and end, a
            # day on which it changes refused (-1), all at once
            history = self.moving(attr)
            if history is None:
                return None  # a value that is not hashable: the per-profile path says
            cells = history.cell_of[slots[moving], rows[moving]]
            at_start, at_end = history.at(start)[cells], history.at(end)[cells]
            codes = codes.copy()
            codes[moving] = np.where(at_start == at_end, at_end, -1)
            labels = history.labels
        return _ordered(codes[codes >= 0], lambda c: labels[c])

    def _compare(self, params: dict[str, Any], pairs: Pairs) -> Counter[Any] | None:
        attr = str(params["attribute"])
        found = self.ranks(attr)
        if found is None:
            return None
        ranks = found[0]
        rows, first = self.pick(pairs, str(params["first"]))
        second = self.pick(pairs, str(params["second"]))[1]
        x, y = ranks[first, rows], ranks[second, rows]
        outcome = np.where(x > y, 0, np.where(y > x, 1, 2))
        ok = (x >= 0) & (y >= 0)
        margin = float(params.get("margin") or 0)  # stated in the question
        if margin:
            # two values within the margin are "same" before their keys are asked: the
            # pairs where both facts exist, measured as value_distance measures them
            spread = self.spread(attr)
            codes = self.codes(attr)
            if spread is None or codes is None:
                return None
            a, b = codes[0][first, rows], codes[0][second, rows]
            both = (a >= 0) & (b >= 0)
            if (both & ~ok).any():
                return None  # a key that refuses: whether it is asked, the profile says
            near = both & (spread.distance(a, b) <= margin)
            outcome = np.where(near, 2, outcome)
        return _ordered(outcome[ok], lambda c: COMPARED[c])

    def _count(self, params: dict[str, Any], pairs: Pairs) -> Counter[Any] | None:
        attr, op, threshold = str(params["attribute"]), params["op"], params["threshold"]
        entities = [str(e) for e in params["entities"]]
        if not entities or (op != "eq" and op not in COMPARE):
            return None
        picked = [self.pick(pairs, e) for e in entities]
        rows = picked[0][0]
        tested: tuple[Codes, Codes] | None
        if op == "eq":
            found = self.codes(attr)
            hit = None if found is None else [str(v) == str(threshold) for v in found[1]]
            tested = None if hit is None else (_table([hit]), np.zeros(len(rows), np.int64))
        else:
            found = self.ranks(attr)
            tested = self._test(attr, picked[0][1], rows, op, threshold)
        if found is None or tested is None:
            return None
        table, which = tested
        cells = np.stack([found[0][slots, rows] for _, slots in picked])
        ok = (cells >= 0).all(axis=0) & (which >= 0)
        number = table[which[ok], cells[:, ok]].sum(axis=0)
        return _ordered(number, int)

    def _test(
        self, attr: str, slots: Codes, rows: Codes, op: str, threshold: Any
    ) -> tuple[Codes, Codes] | None:
        """Whether ``op`` holds against the threshold's key, per (table, key rank), and
        each row's table: the threshold's key is the first entity's kind's (-1 when that
        raises DerivationError: the per-profile path skips the profile)."""
        found = self.ranks(attr)
        if found is None:
            return None
        compare = COMPARE[op]
        kinds, names = self.kinds(attr)
        kind = kinds[slots, rows]
        present = np.flatnonzero(kind >= 0)
        # each kind's table once, in the order the kinds first occur among the pairs,
        # its threshold's key from the first entity of that kind
        codes, first = np.unique(kind[present], return_index=True)
        table_of = np.full(len(names) + 1, -1, dtype=np.int64)  # the last: no fact
        hits: list[list[bool]] = []
        for c, i in sorted(zip(codes.tolist(), present[first].tolist(), strict=True), key=_second):
            e = self.entities[int(slots[i])][int(rows[i])]
            assert e is not None
            try:
                limit = self.d.key(e, e.facts[attr], threshold)
                hits.append([bool(compare(k, limit)) for k in found[1]])
                table_of[c] = len(hits) - 1
            except DerivationError:
                pass
            except Exception:  # it would be raised per profile too: let that path say so
                return None
        return _table(hits), table_of[kind]

    def kinds(self, attr: str) -> tuple[Codes, list[str]]:
        """(slot x profile) codes of the entity's kind where it has a fact of ``attr``
        (-1: no entity, or no such fact), and the kinds by code."""
        hit = self._kinds.get(attr)
        if hit is None:
            matrix = np.full((len(self.entities), len(self.profiles)), -1, dtype=np.int64)
            index: dict[str, int] = {}
            slots, rows, cells = self.having(attr)
            matrix[slots, rows] = [index.setdefault(e.kind, len(index)) for e in cells]
            hit = self._kinds[attr] = (matrix, list(index))
        return hit

    # --- the columns ------------------------------------------------------------------
    def codes(self, attr: str) -> tuple[Codes, list[Any]] | None:
        """(slot x profile) codes of the attribute's value (-1: no such fact), the values."""
        if attr not in self._codes:
            self._codes[attr] = self._build(attr, lambda e: e.facts[attr].value)
        return self._codes[attr]

    def changing(self, attr: str) -> npt.NDArray[np.bool_]:
        """(slot x profile): the fact of ``attr`` has a value history (it changes)."""
        hit = self._changing.get(attr)
        if hit is None:
            hit = np.zeros((len(self.entities), len(self.profiles)), dtype=bool)
            slots, rows, cells = self.having(attr)
            hit[slots, rows] = [len(e.facts[attr].history) > 1 for e in cells]
            self._changing[attr] = hit
        return hit

    def spread(self, attr: str) -> Spread | None:
        """Where each of the attribute's values lies, to measure distances (None: the
        facts are of several types, or of one that has no distance)."""
        if attr not in self._spread:
            found = self.codes(attr)
            types = {e.facts[attr].type for e in self.having(attr)[2]}
            self._spread[attr] = (
                None if found is None or len(types) != 1 else Spread.of(types.pop(), found[1])
            )
        return self._spread[attr]

    def having(self, attr: str) -> tuple[Codes, Codes, list[Entity]]:
        """The cells whose entity has a fact of ``attr``: their slots, rows and
        entities, slot by slot and row by row (the order the codes are numbered in)."""
        hit = self._having.get(attr)
        if hit is None:
            slots, rows, cells = [], [], []
            for s, column in enumerate(self.entities):
                for r, e in enumerate(column):
                    if e is not None and attr in e.facts:
                        slots.append(s)
                        rows.append(r)
                        cells.append(e)
            hit = self._having[attr] = (np.array(slots, np.int64), np.array(rows, np.int64), cells)
        return hit

    def at(
        self, attr: str, slots: Codes, rows: Codes, when: dt.datetime | None
    ) -> tuple[Codes, list[Any]] | None:
        """Per (slot, row), the code of the attribute's value in force at ``when`` (its
        first value when None; -1: no such fact), and the values by code; None when the
        codes could merge values that read differently (1 and True, 1 and 1.0)."""
        found = self.codes(attr)
        if found is None or not self.plain(attr):
            return None
        matrix, labels = found
        codes = matrix[slots, rows]
        moving = np.flatnonzero(self.changing(attr)[slots, rows] & (codes >= 0))
        if when is not None and moving.size:
            history = self.moving(attr)
            if history is None:
                return None
            cells = history.cell_of[slots[moving], rows[moving]]
            codes = codes.copy()
            codes[moving] = history.at(when.isoformat(timespec="minutes"))[cells]
            labels = history.labels
        return codes, labels

    def plain(self, attr: str) -> bool:
        """Whether every value of the attribute (histories too) is a str, or every one
        an int (not a bool): equal values then read alike."""
        hit = self._plain.get(attr)
        if hit is None:
            types = {
                type(v)
                for e in self.having(attr)[2]
                for v in (e.facts[attr].value, *(s.value for s in e.facts[attr].history))
            }
            hit = self._plain[attr] = types in ({str}, {int})
        return hit

    def events(self, attr: str) -> dated.Events | None:
        """The attribute's event days and dated entities (None: not all dates)."""
        if attr not in self._events:
            self._events[attr] = dated.Events.of(self, attr)
        return self._events[attr]

    def moving(self, attr: str) -> Moving | None:
        """The value histories of the attribute's changing facts (None: a value is not
        hashable); the attribute's codes must exist."""
        if attr not in self._moving:
            found = self.codes(attr)
            assert found is not None
            changing = self.changing(attr)
            where = np.argwhere(changing)
            cell_of = np.full(changing.shape, -1, dtype=np.int64)
            cell_of[where[:, 0], where[:, 1]] = np.arange(len(where))
            facts = []
            for s, r in where.tolist():
                entity = self.entities[s][r]
                assert entity is not None
                facts.append(entity.facts[attr])
            try:
                self._moving[attr] = Moving(facts, found[1], cell_of)
            except TypeError:
                self._moving[attr] = None
        return self._moving[attr]

    def ranks(self, attr: str) -> tuple[Codes, list[Any]] | None:
        """(slot x profile) ranks of the value's sort key (-1: no fact, or no key), and
        the distinct keys in order; None when the keys do not sort."""
        if attr not in self._ranks:
            self._ranks[attr] = self._build(attr, lambda e: self._key(e, attr), ranked=True)
        return self._ranks[attr]

    def _key(self, e: Entity, attr: str) -> Any:
        fact = e.facts[attr]
        try:
            return self.d.key(e, fact, fact.value)
        except DerivationError:
            return _NO_KEY

    def _build(self, attr: str, value: Any, ranked: bool = False) -> tuple[Codes, list[Any]] | None:
        matrix = np.full((len(self.entities), len(self.profiles)), -1, dtype=np.int64)
        index: dict[Any, int] = {}
        slots, rows, cells = self.having(attr)
        try:
            codes = [
                -1 if (v := value(e)) is _NO_KEY else index.setdefault(v, len(index)) for e in cells
            ]
            matrix[slots, rows] = codes
            values = list(index)
            if ranked:
                order = sorted(range(len(values)), key=lambda i: values[i])
                rank = np.empty(len(values) + 1, dtype=np.int64)
                rank[order] = np.arange(len(values))
                rank[-1] = -1
                matrix = rank[matrix]
                values = [values[i] for i in order]
        except Exception:  # not hashable, no order, a key that fails otherwise: per profile
            return None
        return matrix, values

    def pick(self, pairs: Pairs, eid: str) -> tuple[Codes, Codes]:
        """Per pair, the profile's row and the slot the item's entity maps to."""
        key = (id(pairs), eid)
        hit = self._picks.get(key)
        if hit is None:
            missing, slot_of = len(self.slots), self.slots.get
            rows = self._picks.get((id(pairs), None), (None,))[0]  # the same for every entity
            if rows is None:
                rows = np.array([self.row[id(p)] for p, _ in pairs], dtype=np.int64)
                self._picks[id(pairs), None] = (rows, rows)
            slots = np.array([slot_of(m.get(eid, eid), missing) for _, m in pairs], np.int64)
            hit = self._picks[key] = (rows, slots)
        return hit


class _NoKey:
    """A value whose key raises DerivationError (the per-profile path skips it)."""


_NO_KEY = _NoKey()


def _second(pair: tuple[int, int]) -> int:
    return pair[1]


def _table(hits: list[list[bool]]) -> Codes:
    """Rows of 0/1 by code, with the "no fact" code (-1, the last column) 0."""
    return np.array([[*h, False] for h in hits] or [[False]], dtype=np.int64)


def _ordered(codes: Codes, label: Any) -> Counter[Any]:
    """Counts of the codes keyed by their labels, in first-occurrence order."""
    if not codes.size:
        return Counter()
    uniq, first, n = np.unique(codes, return_index=True, return_counts=True)
    order = np.argsort(first, kind="stable")
    return Counter({label(int(uniq[i])): int(n[i]) for i in order})


__all__ = ["VECTORISED", "Columns"]
