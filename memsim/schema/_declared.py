"""Checks of what a schema declares about meaning (``role``, ``questions``,
``transforms``, ``persona``, ``words``): each declaration must name something memsim
knows and suit the attribute's type, so a mistake is reported at its line rather than
turning into a question kind that silently never asks the attribute."""

from __future__ import annotations

from memsim.schema._checks import Problem
from memsim.schema._meaning import QUESTION_KINDS, TRANSFORM_NAMES, is_ordered, is_user
from memsim.schema._models import Attribute, Schema

_TRANSFORM_TYPES = {
    "digit_sum": ("text",),
    "email_domain": ("text",),
    "age_difference": ("integer",),
    "difference": ("integer",),
    "season": ("month_day",),
    "days_between": ("date", "datetime"),
    "weekday": ("date", "datetime"),
}
_ROLE_TYPES = {
    "time": ("datetime",),
    "location": ("categorical", "text"),
    "workplace": ("categorical", "text"),
    "name": ("categorical", "text"),
}
_ORDER_WORDS = ("higher", "later")
_PREDICATES = ("eq", "gt", "ge", "lt", "le", "before", "after")


def check_declarations(schema: Schema) -> list[Problem]:
    problems: list[Problem] = []
    users = [k for k, e in schema.entities.items() if e.scenario == "user"]
    for extra in users[1:]:
        problems.append(
            Problem(
                ("entities", extra, "scenario"),
                f"only one kind can be the user (scenario: user); {users[0]!r} already is",
            )
        )
    for kind in schema.entities:
        roles: dict[str, str] = {}
        for name, (attr, path) in schema.attribute_sources(kind).items():
            problems += _check_attribute(schema, kind, attr, path)
            if attr.role is not None and attr.role in roles:
                problems.append(
                    Problem(
                        (*path, "role"),
                        f"{kind} has two attributes of role {attr.role!r}: "
                        f"{roles[attr.role]!r} and {name!r}",
                    )
                )
            elif attr.role is not None:
                roles[attr.role] = name
    return problems


def _check_attribute(
    schema: Schema, kind: str, attr: Attribute, path: tuple[str | int, ...]
) -> list[Problem]:
    out: list[Problem] = []
    for i, name in enumerate(attr.transforms or []):
        types = _TRANSFORM_TYPES.get(name)
        if types is None:
            out.append(
                Problem(
                    (*path, "transforms", i),
                    f"unknown transform {name!r} (known: {', '.join(TRANSFORM_NAMES)})",
                )
            )
        elif attr.type not in types:
            out.append(
                Problem(
                    (*path, "transforms", i),
                    f"transform {name!r} needs a {' or '.join(types)} attribute, not {attr.type}",
                )
            )
    for i, name in enumerate(attr.questions or []):
        if name not in QUESTION_KINDS:
            out.append(
                Problem(
                    (*path, "questions", i),
                    f"unknown question kind {name!r} (known: {', '.join(QUESTION_KINDS)}; "
                    "noisy questions ask what simple ones may)",
                )
            )
    if attr.role is not None and attr.type not in _ROLE_TYPES[attr.role]:
        out.append(
            Problem(
                (*path, "role"),
                f"role {attr.role!r} needs a {' or '.join(_ROLE_TYPES[attr.role])} attribute, "
                f"not {attr.type}",
            )
        )
    if attr.persona and not is_user(schema, kind):
        out.append(
            Problem((*path, "persona"), f"only the user's attributes set the persona, not {kind}'s")
        )
    for code, words in attr.words.items():
        for key, text in words.items():
            where = (*path, "words", code, key)
            if key not in (*_ORDER_WORDS, *_PREDICATES):
                known = ", ".join((*_ORDER_WORDS, *_PREDICATES))
                out.append(Problem(where, f"unknown comparison word {key!r} (known: {known})"))
            elif key in _PREDICATES and "{value}" not in text:
                out.append(Problem(where, f"the predicate {key!r} must hold {{value}}"))
            elif key in _ORDER_WORDS and not is_ordered(attr):
                out.append(
                    Problem(where, f"{key!r} compares values, but the attribute is not ordered")
                )
    return out


__all__ = ["check_declarations"]
