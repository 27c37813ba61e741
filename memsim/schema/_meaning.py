"""What the code needs to know about a schema's kinds and attributes, read from the schema.

Code downstream (questions, trajectories, templates, rewrites) never tests a kind or an
attribute by its name: it asks these functions which kind is the user, which attribute
is an entity's time or place, which attributes questions may ask, which transforms and
comparison words apply. A format-2 schema declares all of it (``role``, ``asked``,
``questions``, ``transforms``, ``persona``, ``words``, ``pool``) or takes the defaults
inferred from types; a format-1 schema gets the meaning memsim gave its names before
format 2 (the only place in memsim where a daily-life name means something).
"""

from __future__ import annotations

from memsim.schema._distributions import PersonName
from memsim.schema._models import Attribute, Role, Schema

TRANSFORM_NAMES = (
    "digit_sum",
    "age_difference",
    "difference",
    "season",
    "email_domain",
    "days_between",
    "weekday",
)
"""Post-processing transforms an attribute may declare (``age_difference`` is
``difference`` under the name format-1 datasets record)."""
QUESTION_KINDS = ("simple", "conditional", "comparative", "aggregative", "post_processing")
ORDERED_TYPES = ("integer", "month_day", "date", "datetime")

# Format 1: the meaning that memsim's code gave these names before format 2.
_V1_ROLES: dict[str, Role] = {
    "name": "name",
    "time": "time",
    "location": "location",
    "work_city": "location",
    "employer": "workplace",
}
_V1_NEVER_ASKED = ("gender",)
_V1_PERSONA = ("age", "gender", "occupation", "personality")
_V1_DIFFERENCE = "age"


def user_kind(schema: Schema) -> str | None:
    """The kind whose entity is the user ("I"): the one of scenario ``user``."""
    key = ("user_kind",)
    if key not in schema.memo:
        schema.memo[key] = next(
            (k for k, e in schema.entities.items() if e.scenario == "user"), None
        )
    return schema.memo[key]  # type: ignore[return-value]


def is_user(schema: Schema, kind: str) -> bool:
    """Whether the kind's entity is the user, said "I" (the first kind of scenario user)."""
    return user_kind(schema) == kind


def is_person(schema: Schema, kind: str) -> bool:
    """Whether an entity of the kind is a person, to be worded as one (hearsay said of a
    friend, zh 谁 and 位): the user, or a ``roles`` kind named by a person's name (its
    ``role: name`` attribute a ``person_name``; with no such attribute declared, any
    ``person_name`` attribute). A client firm named by its company with a contact
    person, a pet or a rival team named by a mascot is not one: "my friend Grace's
    annual spend is 5000 dollars" would say a firm's figure of a person. A kind's
    ``person: true`` or ``false`` overrides the inference (people named by a nickname);
    only the user and ``roles`` kinds can be people."""
    key = ("is_person", kind)
    if key not in schema.memo:
        attrs = schema.attributes_of(kind)
        named = name_attribute(schema, kind)
        declared = schema.entities[kind].person
        if declared is not None:  # the author's word: testers named by a nickname
            person = declared
        elif named is not None:
            person = isinstance(attrs[named].dist, PersonName)
        else:
            person = any(isinstance(a.dist, PersonName) for a in attrs.values())
        schema.memo[key] = is_user(schema, kind) or (
            schema.entities[kind].scenario == "roles" and person
        )
    return schema.memo[key]  # type: ignore[return-value]


def role_of(schema: Schema, kind: str, attr: str) -> Role | None:
    a = schema.attributes_of(kind)[attr]
    if a.role is not None or schema.format_version >= 2:
        return a.role
    role = _V1_ROLES.get(attr)
    return None if role == "time" and a.type != "datetime" else role


def with_role(schema: Schema, kind: str, role: Role) -> str | None:
    """The kind's attribute that has ``role`` (the first one), or None."""
    key = ("with_role", kind, role)
    if key not in schema.memo:
        schema.memo[key] = next(
            (a for a in schema.attributes_of(kind) if role_of(schema, kind, a) == role), None
        )
    return schema.memo[key]  # type: ignore[return-value]


def time_attribute(schema: Schema, kind: str) -> str | None:
    """When an entity of the kind happens (``role: time``)."""
    return with_role(schema, kind, "time")


def location_attribute(schema: Schema, kind: str) -> str | None:
    """Where an entity of the kind is (``role: location``)."""
    return with_role(schema, kind, "location")


def workplace_attribute(schema: Schema, kind: str) -> str | None:
    """Where the user spends weekday working hours (``role: workplace``)."""
    return with_role(schema, kind, "workplace")


def name_attribute(schema: Schema, kind: str) -> str | None:
    """The attribute that names an entity of the kind (``role: name``)."""
    return with_role(schema, kind, "name")


def is_asked(schema: Schema, kind: str, attr: str) -> bool:
    a = schema.attributes_of(kind)[attr]
    if a.asked is not None or schema.format_version >= 2:
        return a.asked is not False
    return attr not in _V1_NEVER_ASKED


def asked_by(schema: Schema, kind: str, attr: str, question: str) -> bool:
    """Whether a question of kind ``question`` may ask the attribute (its ``questions``
    list, when declared; noisy questions are simple ones)."""
    key = ("asked_by", kind, attr, question)
    if key not in schema.memo:
        declared = schema.attributes_of(kind)[attr].questions
        schema.memo[key] = is_asked(schema, kind, attr) and (
            declared is None or question in declared
        )
    return schema.memo[key]  # type: ignore[return-value]


def is_persona(schema: Schema, kind: str, attr: str) -> bool:
    a = schema.attributes_of(kind)[attr]
    if a.persona is not None or schema.format_version >= 2:
        return bool(a.persona)
    return is_user(schema, kind) and attr in _V1_PERSONA


def persona_attributes(schema: Schema) -> list[str]:
    """The user's attributes that set the tone of LLM rewrites, in declaration order."""
    kind = user_kind(schema)
    if kind is None:
        return []
    return [a for a in schema.attributes_of(kind) if is_persona(schema, kind, a)]


def is_ordered(a: Attribute) -> bool:
    return a.type in ORDERED_TYPES or (a.type == "categorical" and a.ordered)


def transforms_of(schema: Schema, kind: str, attr: str) -> tuple[str, ...]:
    """The post-processing transforms that may use the attribute: declared, or inferred
    from its type and distribution (format 1: today's transforms of its scenario).
    Memoised on the schema (a function of it alone; the kinds ask it per candidate)."""
    key = ("transforms_of", kind, attr)
    found: tuple[str, ...] | None = schema.memo.get(key)  # type: ignore[assignment]
    if found is None:
        found = schema.memo[key] = _transforms_of(schema, kind, attr)
    return found


def _transforms_of(schema: Schema, kind: str, attr: str) -> tuple[str, ...]:
    a = schema.attributes_of(kind)[attr]
    if a.transforms is not None:
        return tuple(a.transforms)
    dist = a.dist.kind
    if schema.format_version < 2:
        scenario = schema.entities[kind].scenario
        if scenario in ("roles", "user"):  # the user's own numbers and dates too
            inferred = {
                "text": ("digit_sum", "email_domain"),
                "month_day": ("season",),
                "integer": ("age_difference",) if attr == _V1_DIFFERENCE else (),
            }
            return inferred.get(a.type, ())
        return (
            ("days_between", "weekday")
            if scenario == "events"
            and a.type
            in (
                "date",
                "datetime",
            )
            else ()
        )
    by_type: dict[str, tuple[str, ...]] = {
        "integer": ("difference",),
        "month_day": ("season",),
        "date": ("days_between", "weekday"),
        "datetime": ("days_between", "weekday"),
    }
    if a.type == "text":
        return (
            ("digit_sum",)
            if dist in ("phone", "digits")
            else (("email_domain",) if dist == "email" else ())
        )
    return by_type.get(a.type, ())


def word(schema: Schema, kind: str, attr: str, code: str, key: str) -> str | None:
    """The attribute's own comparison word or predicate for ``key`` in locale ``code``."""
    return schema.attributes_of(kind)[attr].words.get(code, {}).get(key)


def pool_of(schema: Schema, kind: str) -> str | None:
    return schema.entities[kind].pool


def question_kinds(schema: Schema, kind: str, attr: str) -> list[str]:
    """The QA kinds that can ask the attribute, as ``memsim graph info`` says them."""
    a = schema.attributes_of(kind)[attr]
    if not is_asked(schema, kind, attr):
        return []
    out = ["simple", "conditional"]
    if is_ordered(a):
        out.append("comparative")
    if a.type != "text":
        out.append("aggregative")
    if transforms_of(schema, kind, attr):
        out.append("post_processing")
    return [q for q in out if a.questions is None or q in a.questions]


def describe(schema: Schema) -> list[str]:
    """What each kind and attribute means to the code, one line each (``graph info``)."""
    lines = []
    for kind, entity in schema.entities.items():
        extra = ", the user" if is_user(schema, kind) else ""
        pool = f", pool {entity.pool}" if entity.pool else ""
        lines.append(f"{kind} ({entity.scenario}{extra}{pool})")
        for attr in schema.attributes_of(kind):
            parts = [f"questions: {', '.join(question_kinds(schema, kind, attr)) or '-'}"]
            if transforms := transforms_of(schema, kind, attr):
                parts.append(f"transforms: {', '.join(transforms)}")
            if role := role_of(schema, kind, attr):
                parts.append(f"role: {role}")
            if is_persona(schema, kind, attr):
                parts.append("persona")
            dist = schema.attributes_of(kind)[attr].dist
            if dist.kind == "derived":
                parts.append(f"derived from {', '.join(dist.references())}")
            lines.append(f"  {attr:22s} " + "; ".join(parts))
    return lines


__all__ = [
    "ORDERED_TYPES",
    "QUESTION_KINDS",
    "TRANSFORM_NAMES",
    "asked_by",
    "describe",
    "is_asked",
    "is_ordered",
    "is_persona",
    "is_user",
    "location_attribute",
    "name_attribute",
    "persona_attributes",
    "pool_of",
    "question_kinds",
    "role_of",
    "time_attribute",
    "transforms_of",
    "user_kind",
    "with_role",
    "word",
    "workplace_attribute",
]
