"""The schema language: pydantic models that YAML files map onto key for key.

Unknown keys are errors everywhere (``extra="forbid"``). The models check the shape
of a file; what needs the whole schema (references, cycles, tables that match their
parents, probabilities that sum to 1) is checked by :mod:`memsim.schema._checks`.
"""

from __future__ import annotations

import datetime as dt
from functools import cached_property
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr

from memsim.schema._distributions import Distribution

FORMAT_VERSION = 2
"""Version 2 declares what the code needs to know about kinds and attributes (``role``,
``asked``, ``questions``, ``transforms``, ``words``, ``persona``, ``pool``); version 1
files keep working, their meaning inferred from the names they use (memsim.schema._meaning)."""

AttributeType = Literal["categorical", "integer", "date", "datetime", "month_day", "text"]
Scenario = Literal["user", "roles", "events", "items", "places"]
Role = Literal["name", "time", "location", "workplace"]
"""What an attribute means to the trajectory: ``name`` names the entity; ``time`` is
when it happens (a date-time: messages sent in the two hours after it are sent there);
``location`` is where it is (the user's: the city messages are sent from; an event's:
the city while it lasts); ``workplace`` is where the user is on weekdays 9-18."""


class _Frozen(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)


class Change(_Frozen):
    """How an attribute may change during the timeline (a move, a new job, a raise).

    With probability ``p`` the value changes, at a uniform time inside the timeline;
    each change is then followed by another with probability ``p`` again, up to
    ``times`` changes (a chain); the first ``at_least`` changes always happen. A
    categorical value changes to another value its conditional distribution allows;
    an integer moves by a nonzero ``step`` drawn uniformly from ``[step[0], step[1]]``
    (clipped to ``min``/``max``). Each change is caused by an event named ``cause``,
    said per locale as ``said`` ("the move"), that the profile records with its time.
    With ``after``, a change may also follow a change of another attribute of the
    same entity (a move after a new job): with probability ``p_after``, 1 to 30 days
    after it. Any entity's attribute may change; the profile keeps every value with
    the time it became true.
    """

    p: float = Field(ge=0, le=1)
    cause: str = Field(min_length=1)
    said: dict[str, str] = Field(default_factory=dict)
    """The cause as a question or message says it, per locale ("the relocation")."""
    times: int = Field(default=1, ge=1, le=5)
    at_least: int = Field(default=0, ge=0, le=5)
    """Changes that always happen (a weight that always drifts); more follow with ``p``."""
    step: tuple[int, int] | None = None
    """For an integer attribute: the change's size range (signed; 0 is skipped)."""
    after: str | None = None
    """Another attribute of the same entity whose change this one may follow."""
    p_after: float = Field(default=0.0, ge=0, le=1)


class Attribute(_Frozen):
    """One attribute of an entity kind: its domain, how it is drawn and how it is said."""

    type: AttributeType
    values: list[str] | str | None = None
    """Categorical values, or the name of a list under the schema's ``domains``."""
    min: int | None = None
    max: int | None = None
    unit: str | None = None
    start: dt.date | None = None
    end: dt.date | None = None
    ordered: bool = False
    """Categorical values are listed in increasing order (education, scale)."""
    distinct: bool = False
    """Draw without replacement across the slots of the kind."""
    dist: Distribution
    changes: Change | None = None
    role: Role | None = None
    asked: bool | None = None
    """Whether questions may ask this attribute (default: yes; format 1 infers no for
    ``gender``, as before)."""
    questions: list[str] | None = None
    """The QA kinds that may ask this attribute (default: every kind its type suits)."""
    transforms: list[str] | None = None
    """The post-processing transforms that may use it (default: inferred from the type and
    distribution, ``memsim graph info`` lists them): ``digit_sum``, ``difference``,
    ``season``, ``email_domain``, ``days_between``, ``weekday``."""
    persona: bool | None = None
    """A user attribute that sets the tone of LLM rewrites (format 1 infers age, gender,
    occupation and personality)."""
    words: dict[str, dict[str, str]] = Field(default_factory=dict)
    """Per locale, comparison words for this attribute, over the locale's general ones:
    ``higher``/``later`` (comparative) and ``eq gt ge lt le before after`` (aggregative
    predicates, with ``{value}``), e.g. ``{zh: {higher: 更大, gt: 大于{value}}}``."""
    label: dict[str, str] = Field(default_factory=dict)
    """The attribute's name per locale, as questions say it ("age", "work city")."""
    phrasings: dict[str, list[str]] = Field(default_factory=dict)
    """Per locale, sentences that state the fact; see memsim.schema.TEMPLATE_TOKENS."""


class EntityKind(_Frozen):
    """A kind of entity in a profile (the user, relatives, events, ...)."""

    count: int = Field(ge=0)
    scenario: Scenario
    include: list[str] = Field(default_factory=list)
    """Attribute sets (``attribute_sets``) whose attributes this kind has, in order."""
    attributes: dict[str, Attribute] = Field(default_factory=dict)
    """Own attributes; one with the name of an included attribute replaces it."""
    refer: dict[str, str] = Field(default_factory=dict)
    """Per locale, how the user names one entity of the kind, e.g. ``my {relation}``."""
    label: dict[str, str] = Field(default_factory=dict)
    pool: str | None = None
    """Kinds with the same ``pool`` are asked about together in group questions
    (comparisons, counts); by default any kinds of the scenario that share the attribute."""
    person: bool | None = None
    """Whether an entity of a ``roles`` kind is a person, worded as one (hearsay said of a
    friend, zh 谁 and 位); unset, inferred (see :func:`memsim.schema.is_person`)."""


class Timeline(_Frozen):
    start: dt.date
    end: dt.date


class Schema(_Frozen):
    """A whole schema file."""

    model_config = ConfigDict(
        extra="forbid", frozen=True, allow_inf_nan=False, ignored_types=(cached_property,)
    )

    format_version: Literal[1, 2]
    name: str = Field(min_length=1, pattern=r"^[A-Za-z0-9_.-]+$")
    version: str = Field(min_length=1)
    locale: str = Field(min_length=2)
    description: str = ""
    timeline: Timeline
    domains: dict[str, list[str]] = Field(default_factory=dict)
    attribute_sets: dict[str, dict[str, Attribute]] = Field(default_factory=dict)
    entities: dict[str, EntityKind] = Field(min_length=1)
    locale_overlay: dict[str, dict[str, object]] | str | None = None
    """Wording of this schema per locale code, merged over the package's locale data
    (chit-chat, prefaces, question wording, comparison words, the Faker locale, LLM
    prompts), or the path of a YAML file holding it, relative to the schema."""
    _source: str | None = PrivateAttr(default=None)
    """The file the schema was read from (set by the loader), for ``locale_overlay`` paths."""

    @property
    def source(self) -> str | None:
        return self._source

    @cached_property
    def memo(self) -> dict[tuple[object, ...], object]:
        """Answers of pure functions of this (frozen) schema, computed once each (the
        generator and the audit ask "which attribute is the time?" per message). Like
        ``_resolved``, it would be stale in a ``model_copy(update=...)``: build a new
        schema instead (nothing copies one today)."""
        return {}

    def attributes_of(self, kind: str) -> dict[str, Attribute]:
        """The kind's attributes after ``include`` expansion, in declaration order."""
        return self._resolved[kind][0]

    def attribute_sources(self, kind: str) -> dict[str, tuple[Attribute, tuple[str, ...]]]:
        """Each attribute of a kind with the YAML path that defines it (for error places)."""
        return self._resolved[kind][1]

    @cached_property
    def _resolved(
        self,
    ) -> dict[str, tuple[dict[str, Attribute], dict[str, tuple[Attribute, tuple[str, ...]]]]]:
        out = {}
        for kind, entity in self.entities.items():
            sources: dict[str, tuple[Attribute, tuple[str, ...]]] = {}
            for set_name in entity.include:
                for name, attr in self.attribute_sets.get(set_name, {}).items():
                    sources[name] = (attr, ("attribute_sets", set_name, name))
            for name, attr in entity.attributes.items():
                sources[name] = (attr, ("entities", kind, "attributes", name))
            out[kind] = ({name: attr for name, (attr, _) in sources.items()}, sources)
        return out

    def values_of(self, attr: Attribute) -> list[str]:
        """The categorical values of an attribute (resolving a ``domains`` name)."""
        if isinstance(attr.values, str):
            return list(self.domains.get(attr.values, []))
        return list(attr.values or [])
