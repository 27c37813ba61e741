"""Checks of what a schema declares about meaning (``role``, ``questions``,
``transforms``, ``persona``, ``words``): each declaration must name something memsim
knows and suit the attribute's type, so a mistake is reported at its line rather than
turning into a question kind that silently never asks the attribute. Also the faults
that generation or the audit would otherwise find late: a phrasing that does not say
whose fact it is, a kind none of whose attributes can be asked with 4 options, a group
too small to count over, a weekday question on a range that misses weekdays."""

from __future__ import annotations

import re
import string

from memsim.schema._checks import Problem
from memsim.schema._meaning import (
    QUESTION_KINDS,
    TRANSFORM_NAMES,
    is_asked,
    is_ordered,
    is_user,
    pool_of,
    transforms_of,
)
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
    problems: list[Problem] = _check_refer(schema)
    for kind, entity in schema.entities.items():
        if entity.person and entity.scenario not in ("roles", "user"):
            problems.append(
                Problem(
                    ("entities", kind, "person"),
                    f"{kind} is of scenario {entity.scenario!r}: only the user and roles "
                    "kinds can be people (person: true)",
                )
            )
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


def _check_refer(schema: Schema) -> list[Problem]:
    """Format 2: every kind with entities says how the user names it in the schema's
    locale. Without one, an entity was named by its id ("Coach turned 54", "wrestler[0]'s
    age") and a comparison with the user answered "Coach", which the audit could not
    read back (format 1 keeps its inferred meaning: tests' tiny schemas have none)."""
    if schema.format_version < 2:
        return []
    problems = []
    for kind, entity in schema.entities.items():
        if entity.count and schema.locale not in entity.refer:
            said = (
                'the user names themself: "I" in en, "我" in zh'
                if is_user(schema, kind)
                else 'e.g. "my {...}" with an attribute that tells the entities apart'
            )
            problems.append(
                Problem(
                    ("entities", kind),
                    f"{kind} has no refer for its locale {schema.locale!r}: "
                    f"say how the user names it ({said})",
                )
            )
    return problems


def question_warnings(schema: Schema) -> list[Problem]:
    """Faults that do not stop a schema from loading but that generation or the audit
    would meet: a phrasing that does not say whose fact it is, a kind that cannot be
    asked with 4 options, a group too small to count over, a weekday-blind date range
    (``memsim schema validate`` prints them as warnings)."""
    problems: list[Problem] = []
    users = [k for k, e in schema.entities.items() if e.scenario == "user"]
    for extra in users[1:]:
        problems.append(
            Problem(
                ("entities", extra, "scenario"),
                f'only {users[0]!r} is the user ("I"): the first kind of scenario user; '
                f"{extra!r} is said like any other kind",
            )
        )
    for kind, entity in schema.entities.items():
        if not entity.count:
            continue
        for name, (attr, path) in schema.attribute_sources(kind).items():
            problems += _check_phrasings(schema, kind, name, attr, path)
            problems += _check_units(kind, name, attr, path)
            problems += _check_weekdays(schema, kind, name, attr, path)
        problems += _check_options(schema, kind)
        problems += _check_give_away(schema, kind)
        problems += _check_number_names(schema, kind)
    return problems + _check_pools(schema)


def _fields(text: str) -> set[str]:
    try:
        return {f for _, f, _, _ in string.Formatter().parse(text) if f}
    except ValueError:
        return set()  # a malformed template is reported by the token check


def _check_phrasings(
    schema: Schema, kind: str, name: str, attr: Attribute, path: tuple[str | int, ...]
) -> list[Problem]:
    """Every phrasing says whose fact it is: ``{who}``/``{whose}``, or every attribute
    the kind's ``refer`` names it by (the attribute itself standing in for its own);
    and there is one in the schema's language at all (``memsim generate`` stops at the
    first fact it cannot say; a schema only sampled from needs none: a warning)."""
    out = []
    if not attr.phrasings.get(schema.locale):
        out.append(
            Problem(
                path,
                f"{kind}.{name} has no {schema.locale!r} phrasings: `memsim generate` "
                f"cannot tell it (phrasings: {{{schema.locale}: [...]}})",
            )
        )
    for code, phrasings in attr.phrasings.items():
        refer = _fields(schema.entities[kind].refer.get(code, ""))
        naming = refer - {name}
        # a value made from the naming attributes (a template using them) names them too
        made_from = set(getattr(attr.dist, "uses", []))
        for i, text in enumerate(phrasings):
            found = _fields(text) | (made_from if "value" in _fields(text) else set())
            if found & {"who", "whose"} or (refer and naming <= found):
                continue
            need = " and ".join(f"{{{n}}}" for n in sorted(naming))
            alternative = f", or {need}" if naming else ""
            out.append(
                Problem(
                    (*path, "phrasings", code, i),
                    f"{kind}.{name}: the phrasing does not say whose fact it is: it needs "
                    f"{{who}} or {{whose}}{alternative}",
                )
            )
    return out


def _check_units(
    kind: str, name: str, attr: Attribute, path: tuple[str | int, ...]
) -> list[Problem]:
    """An attribute with a ``unit`` says it in at least one phrasing per locale:
    ``{unit}``, or the unit's own words. ``{value}`` is the bare number (options and
    answers add the unit), so a schema whose phrasings never said it read "I am 44 old"
    and "My travel budget is 1313" (one phrasing without it, "my age is 44", is fine)."""
    if not attr.unit:
        return []
    words = {attr.unit, attr.unit.removesuffix("s")}
    out = []
    for code, phrasings in attr.phrasings.items():
        if not phrasings or any(
            "unit" in _fields(text) or any(w and w in text for w in words) for text in phrasings
        ):
            continue
        out.append(
            Problem(
                (*path, "phrasings", code, 0),
                f"{kind}.{name}: no phrasing says its unit {attr.unit!r}: {{value}} is the "
                "bare number; write {unit} after it in one phrasing at least",
            )
        )
    return out


def _check_weekdays(
    schema: Schema, kind: str, name: str, attr: Attribute, path: tuple[str | int, ...]
) -> list[Problem]:
    if "weekday" not in transforms_of(schema, kind, name) or attr.start is None or attr.end is None:
        return []
    days = (attr.end - attr.start).days + 1
    if days >= 7:
        return []
    return [
        Problem(
            (*path, "start"),
            f"{kind}.{name}: {attr.start} to {attr.end} covers {max(days, 0)} weekdays, so a "
            "weekday question would offer days it cannot fall on; widen the range to a week "
            "or leave weekday out of transforms",
        )
    ]


def _check_options(schema: Schema, kind: str) -> list[Problem]:
    """A kind with entities needs an attribute a question can offer 4 options for."""
    entity = schema.entities[kind]
    if not entity.count or is_user(schema, kind):
        return []
    attrs = schema.attributes_of(kind)
    naming = set().union(*(_fields(t) for t in entity.refer.values())) if entity.refer else set()
    usable = [
        n
        for n, a in attrs.items()
        if n not in naming
        and is_asked(schema, kind, n)
        and (a.type != "categorical" or len(schema.values_of(a)) >= 4)
    ]
    if usable:
        return []
    return [
        Problem(
            ("entities", kind),
            f"no question can be asked about a {kind}: every attribute it is not named by "
            "is never asked or has fewer than 4 values (an answer and 3 distractors)",
        )
    ]


_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")
"""A script written without spaces: a value of it is found inside another as characters."""


def _words(text: str) -> str:
    return " " + " ".join(re.findall(r"\w+", text.casefold())) + " "


def _check_give_away(schema: Schema, kind: str) -> list[Problem]:
    """A categorical value that holds a value of another attribute of the same kind
    ("Fisher Library" holds the type "library") says that value wherever it is said: a
    question that names the entity by it, or a trajectory that withholds the other
    attribute (an abstention), gives it away, so generation draws such questions again
    and again (and fails when nothing else is left). One warning per pair of attributes."""
    sources = schema.attribute_sources(kind)
    values = {n: schema.values_of(a) for n, (a, _) in sources.items() if a.type == "categorical"}
    # each value's words once (was once per pair of values: 30% of a validate)
    words = {v: _words(v) for own in values.values() for v in own}
    cjk = {v for v in words if _CJK.search(v)}
    out = []
    for name, own in values.items():
        for other, theirs in values.items():
            if other == name:
                continue
            # whole words (CJK: characters; the word pattern keeps a run of them whole)
            pairs = [
                (v, w)
                for v in own
                for w in theirs
                if len(w) >= 2 and v != w and (words[w] in words[v] or (w in cjk and w in v))
            ]
            if pairs:
                v, w = pairs[0]
                more = f" (and {len(pairs) - 1} more)" if len(pairs) > 1 else ""
                out.append(
                    Problem(
                        (*sources[name][1], "values"),
                        f"{kind}.{name}: the value {v!r} holds {w!r}, a value of {kind}."
                        f"{other}{more}: saying one says the other, so a question that "
                        f"withholds {other} or names the {kind} by {name} gives it away",
                    )
                )
    return out


def _check_number_names(schema: Schema, kind: str) -> list[Problem]:
    """A value that names an entity (a field of ``refer``) and is or holds a number an
    integer attribute of the same kind can take ("my neighbour on plot 12" beside 12
    years on the site) says that number wherever the entity is named: an abstention's
    "never told" option and the messages that name the entity read, to the audit, as
    saying a withheld or asked 12 (seed 1 of such a schema: 2 errors). One warning per
    pair of attributes."""
    entity = schema.entities[kind]
    naming = set().union(*(_fields(t) for t in entity.refer.values())) if entity.refer else set()
    sources = schema.attribute_sources(kind)
    out = []
    for name in sorted(naming & set(sources)):
        attr, path = sources[name]
        if attr.type != "categorical":
            continue
        numbers = sorted(
            {int(n) for v in schema.values_of(attr) for n in re.findall(r"(?<!\d)\d+(?!\d)", v)}
        )
        for other, (theirs, _) in sources.items():
            if other == name or theirs.type != "integer":
                continue
            low = theirs.min if theirs.min is not None else -(10**18)
            high = theirs.max if theirs.max is not None else 10**18
            hit = [n for n in numbers if low <= n <= high]
            if hit:
                shown = ", ".join(str(n) for n in hit[:4]) + (", ..." if len(hit) > 4 else "")
                out.append(
                    Problem(
                        (*path, "values"),
                        f"{kind}.{name}: its values name the {kind} by numbers ({shown}) "
                        f"that {kind}.{other} can take: wherever the {kind} is named, a "
                        f"withheld or asked {other} of that number reads as said; use "
                        "values that are not such numbers",
                    )
                )
    return out


def _check_pools(schema: Schema) -> list[Problem]:
    """Counting questions (aggregative) range over a pool of a scenario: it needs 3
    entities or more, so that 4 counts (0..3) can be offered."""
    sizes: dict[tuple[str, str | None], int] = {}
    for kind, entity in schema.entities.items():
        if entity.scenario in ("roles", "events") and entity.count:
            key = (entity.scenario, pool_of(schema, kind))
            sizes[key] = sizes.get(key, 0) + entity.count
    out = []
    for (scenario, pool), size in sizes.items():
        if size < 3:
            kinds = [
                k
                for k, e in schema.entities.items()
                if e.scenario == scenario and pool_of(schema, k) == pool and e.count
            ]
            where = f"pool {pool!r}" if pool else f"the {scenario}"
            out.append(
                Problem(
                    ("entities", kinds[0], "pool" if pool else "count"),
                    f"{where} ({', '.join(kinds)}) has {size} entities: counting questions "
                    "need 3 or more to offer 4 possible counts",
                )
            )
    return out


def _squeeze(text: str) -> str:
    return re.sub(r"\s+", "", text)


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
            elif key in _PREDICATES and attr.unit and f"{{value}}{attr.unit}" in _squeeze(text):
                out.append(
                    Problem(
                        where,
                        f"{{value}} is said with its unit ({attr.unit!r}): the predicate "
                        f"{key!r} says it twice ({text!r})",
                    )
                )
            elif key in _ORDER_WORDS and not is_ordered(attr):
                out.append(
                    Problem(where, f"{key!r} compares values, but the attribute is not ordered")
                )
    return out


__all__ = ["check_declarations", "question_warnings"]
