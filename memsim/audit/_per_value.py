"""The option prior's transforms of one or two facts' values over its sample in columns:
each fact's value at the question's time as a code (:meth:`Columns.at`), the answer
derived once per distinct value instead of once per profile, and the history transforms
asked only of the facts that change (a fact that never changes refuses them all).

Guarantee: :func:`per_value` returns the same Counter, in the same order, as
:data:`memsim.audit._lean.LEAN` on each (profile, mapping) pair, skipping the pairs it
refuses (DerivationError, KeyError, TypeError, IndexError); whenever a value would raise
anything else, or the columns cannot tell the values apart (a value that is not
hashable, values of several Python types), it returns None and the caller derives
profile by profile, which raises as before.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from memsim.audit._derive import DerivationError, entity_ids
from memsim.audit._lean import LEAN, OF_VALUE

if TYPE_CHECKING:
    from memsim.audit._columns import Columns, Pairs

Codes = npt.NDArray[np.int64]
SKIPPED = (DerivationError, KeyError, TypeError, IndexError)
"""What the per-profile path skips a profile on (anything else it raises)."""
HISTORY = ("current_value", "value_before", "elapsed")
"""Transforms that refuse a fact that never changes (no change k >= 1 in its history)."""
TWO_NUMBERS = ("difference", "age_difference", "days_between")
PER_VALUE = (*OF_VALUE, *TWO_NUMBERS, *HISTORY)
WIDEST = 2**62
"""Numbers held in int64 columns, their differences too."""


class _Raised(Exception):
    """A value the per-profile path would raise on: the item is left to it."""


def per_value(
    columns: Columns, transform: str, params: dict[str, Any], pairs: Pairs, when: dt.datetime
) -> Counter[Any] | None:
    """The raw answer's counts over ``pairs``, or None (see the module docstring)."""
    try:
        if transform in OF_VALUE:
            return _of_value(columns, transform, params, pairs, when)
        if transform in TWO_NUMBERS:
            return _two_numbers(columns, transform, params, pairs, when)
        if transform in HISTORY:
            return _changing_only(columns, transform, params, pairs, when)
    except (_Raised, KeyError, TypeError, ValueError):  # parameters it cannot read
        return None
    return None


def _answer(derive: Callable[[Any], Any], value: Any) -> tuple[bool, Any]:
    """(derived, the answer) of one value; _Raised where the per-profile path raises."""
    try:
        return True, derive(value)
    except SKIPPED:
        return False, None
    except Exception:
        raise _Raised from None


def _of_value(
    columns: Columns, transform: str, params: dict[str, Any], pairs: Pairs, when: dt.datetime
) -> Counter[Any] | None:
    attr = str(params["attribute"])
    rows, slots = columns.pick(pairs, str(params["entity"]))
    # date_of reads the fact's first value (its day), the others the one in force
    found = columns.at(attr, slots, rows, None if transform == "date_of" else when)
    if found is None:
        return None
    codes, labels = found
    of_value = OF_VALUE[transform]
    present = codes[codes >= 0]
    # each distinct value's answer, numbered as distinct answers (several values may
    # give one: the months of a season), -1 where the value is refused
    answers: dict[Any, int] = {}
    number = np.full(len(labels), -1, dtype=np.int64)
    for c in np.unique(present).tolist():
        ok, answer = _answer(lambda v: of_value(columns.d, v, params), labels[c])
        if ok:
            number[c] = answers.setdefault(answer, len(answers))
    found_answers = number[present]
    named = list(answers)
    return _ordered(found_answers[found_answers >= 0], lambda i: named[i])


def _two_numbers(
    columns: Columns, transform: str, params: dict[str, Any], pairs: Pairs, when: dt.datetime
) -> Counter[Any] | None:
    """|x - y| of two facts' values in force at ``when``: as integers (difference), or
    as days (days_between, of each value's first ten characters)."""
    entities = [str(e) for e in params["entities"]]
    if transform == "days_between":
        attrs = [str(a) for a in params["attributes"]]
    else:
        attrs = [str(params["attribute"])] * len(entities)
    if len(entities) != 2 or len(attrs) != 2:
        return None  # unpacking refuses or raises: the per-profile path says which
    read = _days if transform == "days_between" else int
    numbers = []
    for eid, attr in zip(entities, attrs, strict=True):
        rows, slots = columns.pick(pairs, eid)
        found = columns.at(attr, slots, rows, when)
        if found is None:
            return None
        codes, labels = found
        table = np.zeros(len(labels) + 1, dtype=np.int64)  # the last: no fact
        ok = np.zeros(len(labels) + 1, dtype=bool)
        for c in np.unique(codes[codes >= 0]).tolist():
            ok[c], value = _answer(read, labels[c])
            if ok[c]:
                if not -WIDEST < value < WIDEST:
                    raise _Raised
                table[c] = value
        numbers.append((table[codes], ok[codes]))
    (a, a_ok), (b, b_ok) = numbers
    # a pair is skipped where either value is (a value that raises left it all above)
    both = a_ok & b_ok
    return _ordered(np.abs(a[both] - b[both]), int)


def _days(value: Any) -> int:
    return dt.date.fromisoformat(str(value)[:10]).toordinal()


def _changing_only(
    columns: Columns, transform: str, params: dict[str, Any], pairs: Pairs, when: dt.datetime
) -> Counter[Any] | None:
    """The history transform on the pairs whose fact changes, in their order; the
    others have no change to ask about and are refused."""
    attr, eid = str(params["attribute"]), str(params["entity"])
    if entity_ids(params) != [eid]:
        return None  # another entity to map: the per-profile path remaps them all
    if transform != "current_value":
        int(params["change"])  # read before the history: raised as the path raises it
    if columns.codes(attr) is None:
        return None
    rows, slots = columns.pick(pairs, eid)
    lean = LEAN[transform]
    counts: Counter[Any] = Counter()
    for i in np.flatnonzero(columns.changing(attr)[slots, rows]).tolist():
        these = {**params, "entity": columns.slot_names[int(slots[i])]}
        try:
            counts[lean(columns.d, columns.profiles[int(rows[i])], these, when)] += 1
        except SKIPPED:
            continue
    return counts


def _ordered(codes: npt.NDArray[Any], label: Any) -> Counter[Any]:
    # imported here: _columns imports this module, for its dispatch
    from memsim.audit._columns import _ordered as ordered

    return ordered(codes, label)


__all__ = ["PER_VALUE", "per_value"]
