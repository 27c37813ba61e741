"""Whole-schema checks: everything the pydantic models cannot see on their own.

Every check appends :class:`Problem` records (a YAML path and a message) and never
stops at the first one, so a user sees all that is wrong with a file at once.
"""

from __future__ import annotations

import itertools
import math
import string
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from memsim.schema import _distributions as d
from memsim.schema._models import Attribute, Schema
from memsim.schema._refs import NodeKey, ReferenceError_, resolve_ref

Path = tuple[str | int, ...]
TOLERANCE = 1e-3
"""How far probabilities may sum from 1 (so 1/7 can be written 0.143); they are then
renormalised."""
TEMPLATE_TOKENS = frozenset({"value", "who", "whose", "be", "have", "s", "a", "unit"})
"""Tokens a phrasing may use besides the names of its entity's attributes:
``who`` ("I", "my mother"), ``whose`` ("my", "my mother's"), ``be``/``have`` agreeing
with ``who``, ``s`` (the verb ending that agrees with ``who``: "I work" / "she works"),
``a`` ("a" or "an" before the value), ``value`` (the fact) and ``unit``."""

_KINDS_FOR_TYPE = {
    "categorical": (*d.DISCRETE_KINDS, *d.DERIVED_KINDS),
    "integer": (*d.NUMERIC_KINDS, *d.DERIVED_KINDS),
    "date": d.DATE_KINDS,
    "datetime": d.DATE_KINDS,
    "month_day": d.DATE_KINDS,
    "text": d.TEXT_KINDS,
}


@dataclass(frozen=True)
class Problem:
    path: Path
    message: str


def check_schema(schema: Schema) -> list[Problem]:
    problems: list[Problem] = []
    for kind, entity in schema.entities.items():
        for set_name in entity.include:
            if set_name not in schema.attribute_sets:
                problems.append(
                    Problem(("entities", kind, "include"), f"unknown attribute set '{set_name}'")
                )
        attrs = schema.attributes_of(kind)
        for locale, text in entity.refer.items():
            problems += _check_tokens(text, set(attrs), ("entities", kind, "refer", locale))
        if entity.count == 0:
            continue
        for name, (attr, path) in schema.attribute_sources(kind).items():
            problems += _AttributeChecker(schema, kind, name, attr, path).run()
    from memsim.schema._declared import check_declarations  # it imports Problem from here

    return problems + check_declarations(schema)


def _check_tokens(
    text: str, own: set[str], path: Path, builtin: frozenset[str] = TEMPLATE_TOKENS
) -> list[Problem]:
    try:
        tokens = [field for _, field, _, _ in string.Formatter().parse(text) if field is not None]
    except ValueError as exc:
        return [Problem(path, f"malformed template {text!r}: {exc}")]
    bad = [t for t in tokens if t not in builtin and t not in own]
    return [Problem(path, f"unknown token {{{t}}} in {text!r}") for t in bad]


def check_probs(
    probs: d.Probs, values: Sequence[str], path: Path, what: str
) -> tuple[list[float] | None, list[Problem]]:
    """Turn a probs spec into a vector aligned with ``values``; None when it is invalid."""
    if probs is None:
        return [1.0 / len(values)] * len(values) if values else None, []
    if isinstance(probs, list):
        if len(probs) != len(values):
            msg = f"{what} has {len(probs)} probabilities for {len(values)} values"
            return None, [Problem(path, msg)]
        vector = list(probs)
    else:
        unknown = [k for k in probs if k not in values]
        if unknown:
            return None, [Problem(path, f"{what} names unknown value(s) {unknown}")]
        vector = [float(probs.get(v, 0.0)) for v in values]
    if not all(math.isfinite(p) and p >= 0 for p in vector):
        return None, [Problem(path, f"{what} has a negative or non-finite probability")]
    total = sum(vector)
    if abs(total - 1.0) > TOLERANCE:
        return None, [Problem(path, f"{what}: probabilities sum to {total:.6g}, not 1")]
    return [p / total for p in vector], []


def _sum_to_one(weights: dict[str, float], path: Path, what: str) -> list[Problem]:
    _, problems = check_probs(weights, list(weights), path, what)
    return problems


class _AttributeChecker:
    def __init__(self, schema: Schema, kind: str, name: str, attr: Attribute, path: Path):
        self.schema, self.kind, self.name, self.attr, self.path = schema, kind, name, attr, path
        self.problems: list[Problem] = []
        self.dist_path: Path = (*path, "dist")

    def add(self, path: Path, message: str) -> None:
        self.problems.append(Problem(path, f"{self.kind}.{self.name}: {message}"))

    def run(self) -> list[Problem]:
        attr, dist = self.attr, self.attr.dist
        if dist.kind not in _KINDS_FOR_TYPE[attr.type]:
            allowed = ", ".join(_KINDS_FOR_TYPE[attr.type])
            self.add(
                (*self.dist_path, "kind"),
                f"a {attr.type} attribute takes {allowed}, not {dist.kind}",
            )
            return self.problems
        self._check_domain()
        refs = self._resolve_refs(dist.references())
        if not self.problems:
            getattr(self, f"_check_{dist.kind}", lambda _refs: None)(refs)
            self._check_distinct()
            self._check_changes()
        own = set(self.schema.attributes_of(self.kind))
        for locale, texts in attr.phrasings.items():
            for i, text in enumerate(texts):
                self.problems += _check_tokens(text, own, (*self.path, "phrasings", locale, i))
        return self.problems

    # --- domain and references ---------------------------------------------------------
    def _check_domain(self) -> None:
        attr = self.attr
        if attr.type == "categorical":
            if isinstance(attr.values, str) and attr.values not in self.schema.domains:
                self.add((*self.path, "values"), f"unknown domain '{attr.values}'")
                return
            values = self.schema.values_of(attr)
            if not values:
                self.add(self.path, "a categorical attribute needs values")
            dupes = sorted({v for v in values if values.count(v) > 1})
            if dupes:
                self.add((*self.path, "values"), f"repeated values {dupes}")
        elif attr.type == "integer" and (attr.min is None or attr.max is None):
            self.add(self.path, "an integer attribute needs min and max (its range)")
        elif attr.type == "integer" and attr.min > attr.max:  # type: ignore[operator]
            self.add(self.path, "an integer attribute needs min <= max")
        elif attr.type in ("date", "datetime") and (attr.start is None or attr.end is None):
            # a new user's first schema left them out, the timeline being given
            self.add(
                self.path,
                f"a {attr.type} attribute needs start and end (the days its values are "
                "drawn from: `start: 2025-03-10`, `end: 2025-08-22`)",
            )
        elif attr.type in ("date", "datetime") and attr.start > attr.end:  # type: ignore[operator]
            self.add(self.path, f"a {attr.type} attribute needs start <= end")

    def _resolve_refs(self, refs: Iterable[str]) -> dict[str, NodeKey]:
        out: dict[str, NodeKey] = {}
        for ref in refs:
            try:
                out[ref] = resolve_ref(self.schema, ref, self.kind, 0)
            except ReferenceError_ as exc:
                self.add(self._ref_path(ref), str(exc))
        return out

    def _ref_path(self, ref: str) -> Path:
        """The YAML path of the field that holds a reference (for the error's place)."""
        dist = self.attr.dist
        for section, holder in [((), dist), (("otherwise",), getattr(dist, "otherwise", None))]:
            for field, value in (holder or {}).__dict__.items():
                if value == ref:
                    return (*self.dist_path, *section, field)
                if isinstance(value, list | dict) and ref in value:
                    where = list(value).index(ref) if isinstance(value, list) else ref
                    return (*self.dist_path, *section, field, where)
        return self.dist_path

    def _ref_attr(self, key: NodeKey) -> Attribute:
        return self.schema.attributes_of(key.kind)[key.attr]

    def _categorical_values(self, ref: str, key: NodeKey, path: Path) -> list[str] | None:
        target = self._ref_attr(key)
        if target.type != "categorical":
            self.add(path, f"'{ref}' must be a categorical attribute, it is {target.type}")
            return None
        return self.schema.values_of(target)

    # --- one method per distribution kind ----------------------------------------------
    def _check_categorical(self, _refs: dict[str, NodeKey]) -> None:
        assert isinstance(self.attr.dist, d.Categorical)
        self._probs(self.attr.dist.probs, (*self.dist_path, "probs"), "prior")

    def _probs(self, probs: d.Probs, path: Path, what: str) -> list[float] | None:
        vector, problems = check_probs(probs, self.schema.values_of(self.attr), path, what)
        for p in problems:
            self.add(p.path, p.message)
        return vector

    def _check_table(
        self, refs: dict[str, NodeKey], dist: d.Table | None = None, path: Path | None = None
    ) -> None:
        dist = dist or self.attr.dist  # type: ignore[assignment]
        assert isinstance(dist, d.Table)
        path = path or self.dist_path
        parent_values: list[list[str]] = []
        for ref in dist.parents:
            values = self._categorical_values(ref, refs[ref], (*path, "parents"))
            if values is None:
                return
            parent_values.append(values)
        listed: set[tuple[str, ...]] = set()
        for key, probs in dist.rows.items():
            combo = d.combination(key)
            row_path = (*path, "rows", key)
            if len(combo) != len(parent_values):
                self.add(
                    row_path,
                    f"row '{key}' has {len(combo)} parent value(s), "
                    f"the table has {len(parent_values)} parent(s) {dist.parents}",
                )
                continue
            bad = [v for v, allowed in zip(combo, parent_values, strict=True) if v not in allowed]
            if bad:
                self.add(row_path, f"row '{key}' names unknown parent value(s) {bad}")
                continue
            listed.add(combo)
            self._probs(probs, row_path, f"row '{key}'")
        if dist.default is not None:
            self._probs(dist.default, (*path, "default"), "default row")
        else:
            missing = [c for c in itertools.product(*parent_values) if c not in listed]
            if missing:
                shown = ", ".join("|".join(c) for c in missing[:5])
                more = f" and {len(missing) - 5} more" if len(missing) > 5 else ""
                self.add((*path, "rows"), f"table has no row for {shown}{more} and no default")

    def _check_copy(self, refs: dict[str, NodeKey]) -> None:
        dist = self.attr.dist
        assert isinstance(dist, d.Copy)
        own = set(self.schema.values_of(self.attr))
        total = sum(dist.sources.values())
        if total > 1 + TOLERANCE or any(p < 0 for p in dist.sources.values()):
            self.add(
                (*self.dist_path, "sources"), f"copy probabilities sum to {total:.6g}, above 1"
            )
        for ref in dist.sources:
            values = self._categorical_values(ref, refs[ref], (*self.dist_path, "sources", ref))
            outside = sorted(set(values or []) - own)
            if outside:
                self.add(
                    (*self.dist_path, "sources", ref),
                    f"'{ref}' can take {outside[:5]}, which are not values of this attribute",
                )
        other_path = (*self.dist_path, "otherwise")
        if isinstance(dist.otherwise, d.Table):
            self._check_table(refs, dist.otherwise, other_path)
        else:
            self._probs(dist.otherwise.probs, (*other_path, "probs"), "otherwise prior")

    def _check_numeric(
        self,
        refs: dict[str, NodeKey],
        params: Mapping[str, object] | None,
        flat_ok: bool,
        given: list[str],
        offset_from: str | None,
    ) -> None:
        if not given and not flat_ok:
            self.add(self.dist_path, "needs its parameters, or given + cases")
        domains = [
            self._categorical_values(ref, refs[ref], (*self.dist_path, "given")) for ref in given
        ]
        if given and all(v is not None for v in domains):
            cases = {d.combination(key): key for key in (params or {})}
            combos = [tuple(c) for c in itertools.product(*domains)]  # type: ignore[arg-type]
            missing = ["|".join(c) for c in combos if c not in cases]
            unknown = [key for combo, key in cases.items() if combo not in set(combos)]
            named = f"'{given[0]}'" if len(given) == 1 else f"{given} (joined by |)"
            if missing and not flat_ok:
                shown = missing if len(missing) <= 5 else [*missing[:5], "..."]
                self.add(
                    (*self.dist_path, "cases"),
                    f"no case for value(s) {shown} of {named}",
                )
            if unknown:
                self.add(
                    (*self.dist_path, "cases"),
                    f"cases for unknown value(s) {unknown} of {named}",
                )
        if offset_from is not None and self._ref_attr(refs[offset_from]).type != "integer":
            self.add(
                (*self.dist_path, "offset_from"), f"'{offset_from}' must be an integer attribute"
            )

    def _check_gaussian(self, refs: dict[str, NodeKey]) -> None:
        dist = self.attr.dist
        assert isinstance(dist, d.Gaussian)
        flat = dist.mean is not None and dist.std is not None
        self._check_numeric(refs, dist.cases, flat, dist.given_refs(), dist.offset_from)

    def _check_uniform_int(self, refs: dict[str, NodeKey]) -> None:
        dist = self.attr.dist
        assert isinstance(dist, d.UniformInt)
        flat = dist.low is not None and dist.high is not None
        if flat and dist.low > dist.high:  # type: ignore[operator]
            self.add(self.dist_path, "low must not exceed high")
        self._check_numeric(refs, dist.cases, flat, dist.given_refs(), dist.offset_from)

    def _check_date_uniform(self, _refs: dict[str, NodeKey]) -> None:
        dist = self.attr.dist
        assert isinstance(dist, d.DateUniform)
        if (dist.hours is None) != (self.attr.type != "datetime"):
            self.add(
                self.dist_path, "hours: [first, last] is given exactly for datetime attributes"
            )
        if dist.hours is not None and not 0 <= dist.hours[0] <= dist.hours[1] <= 23:
            self.add((*self.dist_path, "hours"), "hours must satisfy 0 <= first <= last <= 23")

    def _check_derived(self, refs: dict[str, NodeKey]) -> None:
        from memsim.schema._derived import check_derived  # it imports Problem from here

        targets = {ref: self._ref_attr(key) for ref, key in refs.items()}
        for path, message in check_derived(self.schema, self.attr, targets):
            self.add((*self.dist_path, *path), message)

    def _check_person_name(self, refs: dict[str, NodeKey]) -> None:
        dist = self.attr.dist
        assert isinstance(dist, d.PersonName)
        if dist.gender is not None:
            values = self._categorical_values(
                dist.gender, refs[dist.gender], (*self.dist_path, "gender")
            )
            missing = [v for v in values or [] if dist.list_of(v) is None]
            if missing:
                self.add(
                    (*self.dist_path, "gender_values"),
                    f"no male/female mapping for {missing}: give gender_values, "
                    f"e.g. {{{missing[0]}: female}}",
                )

    def _check_phone(self, _refs: dict[str, NodeKey]) -> None:
        dist = self.attr.dist
        assert isinstance(dist, d.Phone)
        self.problems += _sum_to_one(dist.prefixes, (*self.dist_path, "prefixes"), "prefixes")
        if any(not p.isdigit() or len(p) >= dist.length for p in dist.prefixes):
            self.add((*self.dist_path, "prefixes"), "prefixes must be digits shorter than length")

    def _check_digits(self, _refs: dict[str, NodeKey]) -> None:
        dist = self.attr.dist
        assert isinstance(dist, d.Digits)
        self.problems += _sum_to_one(dist.patterns, (*self.dist_path, "patterns"), "patterns")

    def _check_email(self, _refs: dict[str, NodeKey]) -> None:
        dist = self.attr.dist
        assert isinstance(dist, d.Email)
        self.problems += _sum_to_one(dist.tlds, (*self.dist_path, "tlds"), "tlds")
        local = frozenset({"first", "last", "all", "initial", "initials", "nn", "nnnn"})
        for i, text in enumerate(dist.styles):
            for p in _check_tokens(text, set(), (*self.dist_path, "styles", i), local):
                self.add(p.path, p.message)
        domain = frozenset({"words", "initials"})
        for p in _check_tokens(dist.domain, set(), (*self.dist_path, "domain"), domain):
            self.add(p.path, p.message)

    def _check_template(self, refs: dict[str, NodeKey]) -> None:
        dist = self.attr.dist
        assert isinstance(dist, d.Template)
        tokens = {ref.split(".")[-1] for ref in dist.uses}
        if dist.given is not None:
            values = self._categorical_values(
                dist.given, refs[dist.given], (*self.dist_path, "given")
            )
            unknown = [k for k in dist.cases if values is not None and k not in values]
            if unknown:
                self.add((*self.dist_path, "cases"), f"cases for unknown value(s) {unknown}")
            uncovered = [v for v in values or [] if v not in dist.cases]
            if uncovered and not dist.default:
                self.add(
                    (*self.dist_path, "default"), f"no templates for {uncovered[:5]} and no default"
                )
        elif not dist.default:
            self.add((*self.dist_path, "default"), "needs default templates")
        for token in dist.forms:
            if token not in tokens:
                self.add(
                    (*self.dist_path, "forms", token),
                    f"forms for '{token}', which is not a token of uses {sorted(tokens)}",
                )
        for key, texts in [*dist.cases.items(), ("default", dist.default)]:
            for i, text in enumerate(texts):
                where = (
                    (*self.dist_path, "cases", key, i)
                    if key != "default"
                    else (*self.dist_path, "default", i)
                )
                for p in _check_tokens(text, tokens, where, builtin=frozenset()):
                    if "unknown token" in p.message:
                        self.add(p.path, p.message + " (list the attribute under uses)")
                    else:
                        self.add(p.path, p.message)

    # --- slot-level constraints --------------------------------------------------------
    def _check_distinct(self) -> None:
        attr, dist = self.attr, self.attr.dist
        if not attr.distinct:
            return
        count = self.schema.entities[self.kind].count
        if not isinstance(dist, d.Categorical | d.Table):
            self.add((*self.path, "distinct"), "distinct needs a categorical or table distribution")
            return
        rows: list[tuple[str, d.Probs]] = (
            [("prior", dist.probs)]
            if isinstance(dist, d.Categorical)
            else [(f"row '{k}'", v) for k, v in dist.rows.items()]
            + ([("default row", dist.default)] if dist.default is not None else [])
        )
        values = self.schema.values_of(attr)
        for what, probs in rows:
            vector, _ = check_probs(probs, values, self.path, what)
            possible = sum(1 for p in vector or [] if p > 0)
            if vector is not None and possible < count:
                self.add(
                    (*self.path, "distinct"),
                    f"cannot draw {count} distinct values: "
                    f"{what} gives {possible} possible value(s)",
                )

    def _check_changes(self) -> None:
        change = self.attr.changes
        if change is None:
            return
        timeline = self.schema.timeline
        where = (*self.path, "changes")
        entity = self.schema.entities[self.kind]
        parse = string.Formatter().parse
        named_by = {f for text in entity.refer.values() for _, f, _, _ in parse(text) if f}
        if timeline.end <= timeline.start:
            self.add(where, "a change needs a timeline of at least two days")
        elif self.name in named_by:
            self.add(where, "an attribute the entity is named by cannot change")
        elif self.attr.distinct or self.attr.type not in ("categorical", "integer"):
            self.add(where, "only non-distinct categorical and integer attributes may change")
        elif self.attr.dist.kind == "derived":
            # a bins class has no table to move in (profiles failed with KeyError), a
            # lookup's one value never moved, an expr moved away from its formula
            self.add(
                where,
                "a derived attribute is a function of its parents and cannot change on its "
                "own (nor follow a parent that changes)",
            )
        elif self.attr.type == "categorical" and len(self.schema.values_of(self.attr)) < 2:
            self.add(where, "an attribute with one value cannot change")
        elif self.attr.type == "integer" and (
            change.step is None or change.step[0] > change.step[1] or change.step == (0, 0)
        ):
            self.add(where, "an integer change needs a step range [low, high] other than [0, 0]")
        if change.after is not None:
            own = self.schema.attributes_of(self.kind)
            other = own.get(change.after)
            if other is None or other.changes is None or change.after == self.name:
                self.add(
                    (*where, "after"),
                    f"'{change.after}' is not another attribute of {self.kind} that changes",
                )
