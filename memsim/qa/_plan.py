"""Which scenarios a QA kind can ask about in a schema, read from the schema alone.

A question is planned as (kind, scenario) before any profile is read, and trajectory t
must then find that question in profile t. A scenario is planned only when the schema
guarantees every profile can support it: an entity kind of the scenario exists, and
(with the facts that never change, since only the history kinds ask about changing
ones) it has what the kind needs: an attribute to ask, two entities of one pool sharing
an ordered attribute, a pool sharing an attribute to count over, a transform, an
attribute that always changes (``changes: {at_least: 1}``). A domain whose user has
nothing to compare then asks no comparative question about the user, rather than
asking one about another scenario (which would break MemDaily's blocks of one type and
scenario); ``memsim schema validate`` says which scenario is left out and why.
"""

from __future__ import annotations

from collections.abc import Callable
from string import Formatter

from memsim.qa._registry import QA_KINDS
from memsim.schema import (
    Digits,
    Phone,
    Problem,
    Schema,
    asked_by,
    is_ordered,
    pool_of,
    time_attribute,
    transforms_of,
    user_kind,
)

USER_TRANSFORMS = ("age_difference", "digit_sum", "season")
"""The user's own post-processing transforms (see post_processing._about_user)."""


def _kinds(schema: Schema, scenario: str) -> list[str]:
    if scenario == "user":
        user = user_kind(schema)
        return [user] if user is not None and schema.entities[user].count else []
    return [k for k, e in schema.entities.items() if e.scenario == scenario and e.count]


def _naming(schema: Schema, kind: str) -> set[str]:
    refer = schema.entities[kind].refer.get(schema.locale, "")
    return {f for _, f, _, _ in Formatter().parse(refer) if f}


def _static(schema: Schema, kind: str, question: str | None) -> list[str]:
    """Attributes a question of kind ``question`` may ask in every profile: not a naming
    one, asked, and never changing (a changing fact is asked by the history kinds)."""
    naming = _naming(schema, kind)
    return [
        a
        for a, attr in schema.attributes_of(kind).items()
        if a not in naming
        and attr.changes is None
        and asked_by(schema, kind, a, question or "simple")
    ]


def _changing(schema: Schema, kind: str) -> list[str]:
    naming = _naming(schema, kind)
    return [
        a
        for a, attr in schema.attributes_of(kind).items()
        if a not in naming and attr.changes is not None and attr.changes.at_least >= 1
    ]


def _ordered(schema: Schema, kind: str, attr: str) -> bool:
    return is_ordered(schema.attributes_of(kind)[attr])


def _countable(schema: Schema, kinds: list[str]) -> bool:
    """Whether the entities of ``kinds`` (3 or more) share an attribute to count over."""
    if sum(schema.entities[k].count for k in kinds) < 3:
        return False
    shared = set.intersection(
        *(
            {
                a
                for a in _static(schema, k, "aggregative")
                if schema.attributes_of(k)[a].type != "text"
            }
            for k in kinds
        )
    )
    return bool(shared)


def _pools(schema: Schema, kinds: list[str]) -> list[list[str]]:
    out: dict[str | None, list[str]] = {}
    for k in kinds:
        out.setdefault(pool_of(schema, k), []).append(k)
    return list(out.values())


def _comparable(schema: Schema, kinds: list[str]) -> bool:
    """Whether two entities of one pool share an ordered attribute."""
    for pool in _pools(schema, kinds):
        for k in pool:
            for a in _static(schema, k, "comparative"):
                if not _ordered(schema, k, a):
                    continue
                having = [
                    o for o in pool if a in _static(schema, o, None) and _ordered(schema, o, a)
                ]
                if sum(schema.entities[o].count for o in having) >= 2:
                    return True
    return False


Check = Callable[[Schema, list[str]], str | None]


def _offers_four(schema: Schema, kind: str, attr: str) -> bool:
    """Whether a question about the value can offer 4 options (a categorical needs 4
    values; numbers, dates and texts have distractors near or like them)."""
    a = schema.attributes_of(kind)[attr]
    return a.type != "categorical" or len(schema.values_of(a)) >= 4


def _ask(question: str) -> Check:
    def check(schema: Schema, kinds: list[str]) -> str | None:
        if any(_offers_four(schema, k, a) for k in kinds for a in _static(schema, k, question)):
            return None
        if any(_static(schema, k, question) for k in kinds):
            return (
                "every attribute that never changes and can be asked has fewer than 4 "
                "values (an answer and 3 distractors)"
            )
        return "no attribute that never changes can be asked"

    return check


def _compare(schema: Schema, kinds: list[str]) -> str | None:
    if _comparable(schema, kinds):
        return None
    return "no two entities of one pool share an ordered attribute that never changes"


def _count(schema: Schema, kinds: list[str]) -> str | None:
    if any(_countable(schema, pool) for pool in _pools(schema, kinds)):
        return None
    return (
        "no pool of 3 or more entities shares an attribute (not text, never changing) to count over"
    )


PAIRED = {"difference": "same", "age_difference": "same", "days_between": "any"}
"""Transforms of two values: of one attribute of two entities (``same``) or of any two
dated values (``any``); the others need one value."""
DIGITS = 6
"""Digits a value needs for a digit-sum question (of its last 2-4 digits)."""


def _digits(schema: Schema, kind: str, attr: str) -> int:
    """The fewest digits a value of the attribute has, where its distribution says
    (a phone's length, a digits pattern's ``#`` and ``%``); 0 where it does not."""
    dist = schema.attributes_of(kind)[attr].dist
    if isinstance(dist, Phone):
        return dist.length
    if isinstance(dist, Digits):
        return min(sum(c in "#%" or c.isdigit() for c in p) for p in dist.patterns)
    return 0


def _transform(schema: Schema, kinds: list[str]) -> str | None:
    """Whether some transform can be asked in every profile: one value for a one-value
    transform, two entities with the attribute for a difference, two dated values for
    days between (one item's price alone has no difference to ask)."""
    values: dict[str, dict[str, int]] = {}  # transform -> attribute -> entities having it
    for k in kinds:
        for a in _static(schema, k, "post_processing"):
            for t in transforms_of(schema, k, a):
                if t == "digit_sum" and _digits(schema, k, a) < DIGITS:
                    continue  # a 4-digit door code has no digit sum to ask
                by = values.setdefault(t, {})
                by[a] = by.get(a, 0) + schema.entities[k].count
    for t, by in values.items():
        need = PAIRED.get(t)
        if need is None or (need == "same" and max(by.values()) >= 2):
            return None
        if need == "any" and sum(by.values()) >= 2:
            return None
    if values:
        return (
            "no post-processing transform has what it needs: a difference needs two "
            "entities with the attribute, days between two dates, a digit sum values "
            f"of {DIGITS} digits or more"
        )
    return "no attribute that never changes has a post-processing transform"


def _changes(schema: Schema, kinds: list[str]) -> str | None:
    if any(_changing(schema, k) for k in kinds):
        return None
    return "no attribute always changes: give one `changes:` with `at_least: 1`"


def _timed(schema: Schema, kinds: list[str]) -> str | None:
    if any(time_attribute(schema, k) for k in kinds):
        return None
    return "no kind has a `role: time` attribute"


def _user(kind: str, schema: Schema, user: str) -> str | None:
    """What the user scenario of a kind of ``_USER_GROUP`` needs."""
    roles = _kinds(schema, "roles")
    if kind == "comparative":
        pooled = [r for r in roles if pool_of(schema, r) == pool_of(schema, user)]
        for a in _static(schema, user, "comparative"):
            if _ordered(schema, user, a) and any(
                a in _static(schema, r, None) and _ordered(schema, r, a) for r in pooled
            ):
                return None
        return "the user shares no ordered attribute with people of the user's pool"
    if kind == "aggregative":
        pooled = [r for r in roles if pool_of(schema, r) == pool_of(schema, user)]
        if _countable(schema, [user, *pooled]):
            return None
        return (
            f"no countable attribute is had by the user and every roles kind of the "
            f"user's pool ({', '.join(pooled) or 'none'}): counting me among the others "
            "needs one"
        )
    if kind == "post_processing":
        # two of the user's numbers at least: a transform's answer is flattened, so one
        # number can be one that no draw keeps (a student ID ending in 100: every digit
        # sum of it is rare), and the question would be asked of no one
        usable = []
        for a in _static(schema, user, "post_processing"):
            found = set(transforms_of(schema, user, a)) & set(USER_TRANSFORMS)
            if found - {"age_difference"} or (
                found and any(a in schema.attributes_of(r) for r in roles)
            ):
                usable.append(a)
        if len(usable) >= 2:
            return None
        return (
            "fewer than 2 user attributes have a digit_sum or season transform (or "
            "age_difference, with people who have the attribute too)"
        )
    raise ValueError(kind)


_USER_GROUP = ("comparative", "aggregative", "post_processing")
_ASKED_AS = {"conditional": "conditional"}
"""The ``questions:`` name an attribute must allow for a kind asked by ``_ask`` (simple,
abstention: simple; noisy wraps simple)."""
_NEEDS: dict[str, dict[str, Check]] = {
    "comparative": {"*": _compare},
    "aggregative": {"*": _count},
    "post_processing": {"*": _transform},
    "knowledge_update": {"*": _changes},
    "temporal": {"*": _changes, "events": _timed},
}


def scenario_reasons(schema: Schema, kind: str) -> dict[str, str | None]:
    """Every scenario of ``kind`` with None when it is planned, else why it is not."""
    own = QA_KINDS.get(kind)
    base = own.base or kind  # noisy asks what simple asks
    out: dict[str, str | None] = {}
    for scenario in own.scenarios:
        kinds = _kinds(schema, scenario)
        if not kinds:
            out[scenario] = f"the schema has no kind of scenario {scenario!r}"
            continue
        needs = _NEEDS.get(base, {})
        check = needs.get(scenario, needs.get("*", _ask(_ASKED_AS.get(base, "simple"))))
        if scenario == "user" and base in _USER_GROUP:
            reason = _user(base, schema, kinds[0])  # the user beside the people of their life
        else:
            reason = check(schema, kinds)
        out[scenario] = reason
    if own.hybrid:
        planned = [s for s, r in out.items() if r is None]
        out["hybrid"] = None if len(planned) >= 2 else "it needs two scenarios with questions"
    return out


def planned_scenarios(schema: Schema, kind: str) -> tuple[str, ...]:
    """The scenarios of ``kind`` that every profile of ``schema`` can be asked about, in
    the kind's order."""
    return tuple(s for s, reason in scenario_reasons(schema, kind).items() if reason is None)


_SINCE_V2 = {
    "comparative": ("items", "places"),
    "aggregative": ("items", "places"),
    "knowledge_update": ("items", "places", "events"),
    "temporal": ("items", "places"),
    "post_processing": ("items", "places"),
}
"""Scenarios these kinds ask since the second version: left out of a schema that gives
them nothing to ask without a warning (see :func:`_expected`)."""


def _expected(schema: Schema, kind: str, scenario: str, kinds: list[str]) -> bool:
    """Whether a schema's author would expect ``kind`` about ``scenario``, so that its
    absence is worth a warning. Not so for the scenarios a kind asks since the second
    version when the schema gives nothing to ask there: comparing or counting a
    scenario of one entity (daily life's one item, one place), or the history of a
    scenario where nothing is declared to change."""
    if scenario not in _SINCE_V2.get(kind, ()):
        return True
    if kind in ("comparative", "aggregative"):
        return sum(schema.entities[k].count for k in kinds) >= 2
    if kind == "post_processing":  # a transform declared where none can be taken
        return any(a.transforms for k in kinds for a in schema.attributes_of(k).values())
    return any(a.changes is not None for k in kinds for a in schema.attributes_of(k).values())


def plan_problems(schema: Schema) -> list[Problem]:
    """Every (kind, scenario) the schema cannot be asked about, and why, placed at the
    scenario's first kind (``memsim schema validate`` prints them as warnings)."""
    out = []
    for kind in QA_KINDS.names():
        reasons = scenario_reasons(schema, kind)
        lost = not any(r is None for r in reasons.values())
        for scenario, reason in reasons.items():
            if reason is None or (scenario == "hybrid" and lost):
                continue
            kinds = _kinds(schema, scenario)
            if not _expected(schema, kind, scenario, kinds):
                continue
            where: tuple[str | int, ...] = ("entities", kinds[0]) if kinds else ("entities",)
            then = " (so no question of that kind at all)" if lost else ""
            out.append(Problem(where, f"no {kind} question about {scenario}{then}: {reason}"))
    return out


__all__ = ["plan_problems", "planned_scenarios", "scenario_reasons"]
