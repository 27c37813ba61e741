"""Check a profile against the schema it claims to be a sample of.

Every later stage trusts a profile's values (a question compares ages as integers, a
trajectory parses dates), so a profile is checked when it is read: a value of the wrong
type ("forty-two" for an age), outside its domain or range, a missing or unknown
attribute, or an entity kind the schema does not have is reported with the file and
the field, whether or not any question would read it.

Measured (4,500 daily_life.en profiles, collector off, CPU s): the read 0.13 (0.03 by
bare descriptors, :func:`read_bytes`), orjson 0.22 (compact or indented alike: it is
the 540,000 fact dicts and their strings), building 0.32, checking 0.28. Tried and
dropped: checking in columns (facts transposed, compared as tuples, values looked up
in a set of known-good (attribute, type, value)) took 0.34-0.37, the hashing of fresh
strings costing more than the per-value checkers; building and checking in one walk
saved about 10%; facts as JSON arrays parsed about 20% faster but change the format.
"""

from __future__ import annotations

import datetime as dt
import math
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson

from memsim.profile._types import Entity, Fact, Profile
from memsim.schema import Schema
from memsim.schema._models import Attribute

_DECODE_ERRORS = (orjson.JSONDecodeError, KeyError, TypeError, ValueError, AttributeError)


class ProfileError(ValueError):
    """A profile file that cannot be read or does not match its schema (exit 2)."""


def _is_date(value: Any, parse: Any) -> bool:
    if not isinstance(value, str):
        return False
    try:
        parse(value)
    except ValueError:
        return False
    return True


def _month_day(value: str) -> dt.date:
    month, day = value.split("-")
    if len(month) != 2 or len(day) != 2:
        raise ValueError(value)
    return dt.date(2000, int(month), int(day))  # a leap year: 02-29 is a birthday


def value_problem(value: Any, attr: Attribute, domain: frozenset[str]) -> str | None:
    """Why ``value`` cannot be a value of ``attr`` (None: it can)."""
    kind = attr.type
    if kind == "integer":
        if not isinstance(value, int) or isinstance(value, bool):
            return f"{value!r} is not an integer"
        if (attr.min is not None and value < attr.min) or (
            attr.max is not None and value > attr.max
        ):
            return f"{value} is outside {attr.min}..{attr.max}"
        return None
    if not isinstance(value, str) or not value.strip():
        return f"{value!r} is not a non-empty string"
    if "{" in value or "}" in value:
        return f"{value!r} holds a template brace"
    if kind == "categorical" and domain and value not in domain:
        return f"{value!r} is not one of the attribute's values"
    if kind == "date" and not _is_date(value, dt.date.fromisoformat):
        return f"{value!r} is not a date (YYYY-MM-DD)"
    if kind == "datetime" and not _is_date(value, dt.datetime.fromisoformat):
        return f"{value!r} is not an ISO date-time"
    if kind == "month_day" and not _is_date(value, _month_day):
        return f"{value!r} is not a month and day (MM-DD)"
    return None


Domains = dict[tuple[str, str], frozenset[str]]


def _fact_problems(
    schema: Schema, kind: str, entity_id: str, fact: Fact, domains: Domains
) -> list[str]:
    attrs = schema.attributes_of(kind)
    where = f"{entity_id}.{fact.attribute}"
    attr = attrs.get(fact.attribute)
    if attr is None:
        return [f"{where}: the schema's '{kind}' has no attribute '{fact.attribute}'"]
    out = []
    if fact.id != where:
        out.append(f"{where}: id is {fact.id!r}")
    if fact.type != attr.type:
        out.append(f"{where}: type is {fact.type!r}, the schema says {attr.type!r}")
    domain = domains.get((kind, fact.attribute))
    if domain is None:
        domain = domains[kind, fact.attribute] = frozenset(schema.values_of(attr))
    values = [("value", fact.value)] + [
        (f"history[{i}].value", s.value) for i, s in enumerate(fact.history)
    ]
    for name, value in values:
        why = value_problem(value, attr, domain)
        if why:
            out.append(f"{where}: {name} {why}")
    return out


def _value_ok(value: Any, attr: Attribute, domain: frozenset[str]) -> bool:
    """A quick yes for the common cases (an integer in range, a categorical value of
    its domain); anything else is answered by :func:`value_problem`."""
    if attr.type == "integer" and type(value) is int:
        return (attr.min is None or value >= attr.min) and (attr.max is None or value <= attr.max)
    if attr.type == "categorical" and domain and type(value) is str and value in domain:
        return bool(value.strip()) and "{" not in value and "}" not in value
    return value_problem(value, attr, domain) is None


Checker = tuple[str, Callable[[Any], bool]]


def _checker(attr: Attribute, domain: frozenset[str]) -> Callable[[Any], bool]:
    """``value -> bool``: whether :func:`value_problem` finds nothing, with the common
    cases (an integer in range, a value of a categorical domain, a plain text) answered
    without a call to it (a profile read checks about 120 values)."""
    if attr.type == "integer":
        low = attr.min if attr.min is not None else -math.inf
        high = attr.max if attr.max is not None else math.inf
        return lambda v: (type(v) is int and low <= v <= high) or _value_ok(v, attr, domain)
    if attr.type == "categorical" and domain:
        good = frozenset(v for v in domain if v.strip() and "{" not in v and "}" not in v)
        return lambda v: v in good if type(v) is str else _value_ok(v, attr, domain)
    if attr.type == "text":
        return lambda v: (
            (type(v) is str and bool(v.strip()) and "{" not in v and "}" not in v)
            or _value_ok(v, attr, domain)
        )
    if attr.type == "month_day":
        return lambda v: v in _MONTH_DAYS or _value_ok(v, attr, domain)
    return lambda v: _value_ok(v, attr, domain)


_MONTH_DAYS = frozenset(
    (dt.date(2000, 1, 1) + dt.timedelta(days=n)).strftime("%m-%d") for n in range(366)
)
"""Every MM-DD of a leap year (what :func:`_month_day` accepts)."""


def _checkers(schema: Schema, kind: str, domains: Domains) -> dict[str, Checker]:
    """A kind's attributes: (type, value checker), once per schema and kind."""
    key = ("profile_checkers", kind)
    found: dict[str, Checker] | None = schema.memo.get(key)  # type: ignore[assignment]
    if found is None:
        found = {}
        for name, attr in schema.attributes_of(kind).items():
            domain = domains.get((kind, name))
            if domain is None:
                domain = domains[kind, name] = frozenset(schema.values_of(attr))
            found[name] = (attr.type, _checker(attr, domain))
        schema.memo[key] = found
    return found


def _fact_ok(entity_id: str, fact: Fact, checkers: dict[str, Checker]) -> bool:
    """Whether :func:`_fact_problems` would find nothing (without building its messages)."""
    checker = checkers.get(fact.attribute)
    if checker is None or fact.type != checker[0] or fact.id != f"{entity_id}.{fact.attribute}":
        return False
    ok = checker[1]
    return ok(fact.value) and all(ok(s.value) for s in fact.history)


def _entity_clean(entity: Entity, checkers: dict[str, Checker]) -> bool:
    """Whether every fact passes :func:`_fact_ok` and none is missing, in one loop (the
    common case of every profile read; any doubt goes to the full check)."""
    facts = entity.facts
    if len(facts) != len(checkers):
        return False
    prefix = entity.id + "."
    for name, fact in facts.items():
        checker = checkers.get(name)
        if (
            checker is None
            or fact.attribute != name
            or fact.type != checker[0]
            or fact.id != prefix + name
        ):
            return False
        ok = checker[1]
        if not ok(fact.value):
            return False
        for step in fact.history:
            if not ok(step.value):
                return False
    return True


def profile_problems(profile: Profile, schema: Schema) -> list[str]:
    """Every way ``profile`` does not match ``schema``, each naming the field."""
    if profile.schema_name != schema.name:
        return [f"schema: sampled from '{profile.schema_name}', not '{schema.name}'"]
    out: list[str] = []
    # the domains as sets, once per schema (every profile read checks against them)
    domains: Domains = schema.memo.setdefault(("profile_domains",), {})  # type: ignore[assignment]
    for entity in profile.entities:
        if type(entity.id) is not str or type(entity.kind) is not str:  # a hand-edited file
            out.append(f"{entity.id!r}: an entity's id and kind are strings")
            continue
        if entity.kind not in schema.entities:
            out.append(f"{entity.id}: the schema has no entity kind '{entity.kind}'")
            continue
        checkers = _checkers(schema, entity.kind, domains)
        if _entity_clean(entity, checkers):
            continue
        clean = True
        for fact in entity.facts.values():
            if not _fact_ok(entity.id, fact, checkers):
                clean = False
                out += _fact_problems(schema, entity.kind, entity.id, fact, domains)
        if clean and len(entity.facts) == len(checkers):
            continue  # every fact is a known attribute, once each: none is missing
        missing = set(checkers) - set(entity.facts)
        out += [f"{entity.id}.{name}: missing" for name in sorted(missing)]
    return out


def read_bytes(path: Path) -> bytes:
    """The whole file, as ``path.read_bytes()`` gives it, through bare file descriptor
    calls: Python's buffered file object costs about 25 us of system time a file here
    against 6 (0.11 against 0.03 CPU s over 4,500 profiles)."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
    try:
        size = os.fstat(fd).st_size
        parts = []
        while chunk := os.read(fd, max(size + 1, 1 << 16)):  # to EOF, if it grew
            parts.append(chunk)
    finally:
        os.close(fd)
    return parts[0] if len(parts) == 1 else b"".join(parts)  # b"" for an empty file


def read_profile(path: Path, schema: Schema | None = None) -> Profile:
    """Read and (given ``schema``) check one profile file; raise :class:`ProfileError`
    naming the file and the field, or FileNotFoundError."""
    try:
        data = orjson.loads(read_bytes(path))
        if not isinstance(data, dict):
            raise ValueError("a profile is a JSON object")
        profile = Profile.from_json(data)
    except FileNotFoundError:
        raise
    except OSError as exc:
        raise ProfileError(f"{path}: cannot read: {exc.strerror or exc}") from None
    except _DECODE_ERRORS as exc:
        what = f"missing field {exc}" if isinstance(exc, KeyError) else str(exc)
        raise ProfileError(f"{path}: not a valid profile: {what}") from None
    if schema is not None:
        problems = profile_problems(profile, schema)
        if problems:
            shown = "; ".join(problems[:5])
            more = f" (and {len(problems) - 5} more)" if len(problems) > 5 else ""
            raise ProfileError(f"{path}: does not match schema '{schema.name}': {shown}{more}")
    return profile


__all__ = ["ProfileError", "profile_problems", "read_profile", "value_problem"]
