"""Distribution kinds an attribute may declare.

Each kind is a frozen pydantic model tagged by ``kind``. A distribution names the
attributes it depends on through :meth:`references`; the graph turns those into
edges, so a schema never lists parents twice. References are written as
``attr`` (same entity), ``kind.attr`` (an entity kind with one slot) or
``kind[i].attr`` (one slot of a kind).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

Probs = dict[str, float] | list[float] | None
"""Probabilities over an attribute's values: a mapping value -> p (values left out
have probability 0), a list aligned with the values, or omitted for uniform."""


def combination(key: str) -> tuple[str, ...]:
    """The parent values a table row or a numeric case is keyed by: ``"phd | female"``
    is ``("phd", "female")``, in the order of the table's ``parents`` or of ``given``."""
    return tuple(part.strip() for part in key.split("|"))


class _Dist(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)

    def references(self) -> list[str]:
        return []


class Categorical(_Dist):
    """A prior over the attribute's values (uniform when ``probs`` is omitted)."""

    kind: Literal["categorical"]
    probs: Probs = None


class Table(_Dist):
    """A conditional probability table over discrete parents.

    ``rows`` maps a combination of parent values, joined by ``|`` in the order of
    ``parents``, to probabilities; ``default`` covers every combination not listed.
    """

    kind: Literal["table"]
    parents: list[str] = Field(min_length=1)
    rows: dict[str, Probs] = Field(default_factory=dict)
    default: Probs = None

    def references(self) -> list[str]:
        return list(self.parents)


class Copy(_Dist):
    """Copy another attribute's value with a probability, else draw from ``otherwise``.

    ``sources`` maps a reference to the probability of copying it; the rest of the
    mass goes to ``otherwise`` (a categorical prior or a table).
    """

    kind: Literal["copy"]
    sources: dict[str, float] = Field(min_length=1)
    otherwise: Categorical | Table = Field(discriminator="kind")

    def references(self) -> list[str]:
        return [*self.sources, *self.otherwise.references()]


class Normal(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)
    mean: float
    std: float = Field(ge=0)


class _Numeric(_Dist):
    """Parameters conditioned on discrete parents: ``given`` names one categorical
    parent or a list of them, and ``cases`` maps a parent value (for a list: values
    joined by ``|`` in the order of ``given``, as table rows are) to parameters; a
    combination without a case takes the flat parameters."""

    given: str | list[str] | None = None
    offset_from: str | None = None

    def given_refs(self) -> list[str]:
        if self.given is None:
            return []
        return [self.given] if isinstance(self.given, str) else list(self.given)

    def references(self) -> list[str]:
        return [*self.given_refs(), *([self.offset_from] if self.offset_from else [])]


class Gaussian(_Numeric):
    """A Gaussian, clipped to the attribute's range and rounded to an integer.

    Parameters may be conditioned on discrete parents (``given`` + ``cases``) and
    may be an offset from a numeric parent (``offset_from``): value = parent + N(mean, std).
    """

    kind: Literal["gaussian"]
    mean: float | None = None
    std: float | None = Field(default=None, ge=0)
    cases: dict[str, Normal] | None = None


class Bounds(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    low: int
    high: int

    @model_validator(mode="after")
    def _ordered(self) -> Bounds:
        if self.low > self.high:
            raise ValueError(f"low {self.low} exceeds high {self.high}")
        return self


class UniformInt(_Numeric):
    """A uniform integer in [low, high], optionally conditioned on discrete parents."""

    kind: Literal["uniform_int"]
    low: int | None = None
    high: int | None = None
    cases: dict[str, Bounds] | None = None


class DateUniform(_Dist):
    """A uniform calendar date (or date-time) in the attribute's range.

    Only real calendar dates are drawn. With ``hours`` a time of day is added,
    on the ``minute_step`` grid, inside the hours [first, last].
    """

    kind: Literal["date_uniform"]
    hours: tuple[int, int] | None = None
    minute_step: int = Field(default=30, ge=1, le=60)


class PersonName(_Dist):
    """A full name drawn from Faker's name lists for the schema's locale and gender."""

    kind: Literal["person_name"]
    gender: str | None = None
    gender_values: dict[str, Literal["male", "female"]] = Field(default_factory=dict)
    """Maps the gender attribute's values onto Faker's male/female lists; a value
    spelt ``male`` or ``female`` needs no entry (see :meth:`list_of`)."""
    format: str | None = None
    """How a full name is written (``{last}{first}``); by default the locale data's
    ``name_format`` ("{first} {last}"; Chinese: "{last}{first}")."""
    locale: str | None = None
    """Faker locale of the name lists (``zh_CN``); by default the schema's locale."""

    def references(self) -> list[str]:
        return [self.gender] if self.gender else []

    def list_of(self, value: str) -> Literal["male", "female"] | None:
        """Faker's name list for a value of the gender attribute: its ``gender_values``
        entry, else the value itself when it is ``male`` or ``female``, else None."""
        if value in self.gender_values:
            return self.gender_values[value]
        if value == "male":
            return "male"
        return "female" if value == "female" else None


class Phone(_Dist):
    """A phone number: a prefix drawn from ``prefixes`` followed by random digits."""

    kind: Literal["phone"]
    prefixes: dict[str, float] = Field(min_length=1)
    length: int = Field(ge=4, le=20)


class Digits(_Dist):
    """A string from a pattern in which each ``#`` is a random digit and each ``%`` a
    random digit from 1 to 9 (ids, card numbers; ``0%`` is a month from 01 to 09)."""

    kind: Literal["digits"]
    patterns: dict[str, float] = Field(min_length=1)


EMAIL_STYLES = ("{first}.{last}", "{initial}{last}", "{first}{last}", "{first}_{last}{nn}")


class Email(_Dist):
    """An e-mail address built from a name attribute and, optionally, an organisation
    attribute (without one, ``domain`` is the provider's name as written: ``mail``).

    Both are romanised first: letters lose their accents, and a character of a script
    written without spaces (Chinese) becomes a word of its own ("张伟" -> zhang wei).
    """

    kind: Literal["email"]
    name: str
    org: str | None = None
    tlds: dict[str, float] = Field(default_factory=lambda: {"com": 1.0})
    styles: list[str] = Field(default_factory=lambda: list(EMAIL_STYLES), min_length=1)
    """Local parts, one drawn uniformly; tokens: ``{first}`` and ``{last}`` (the first and
    last word of the name), ``{all}`` (every word), ``{initial}`` (the first letter),
    ``{initials}`` (every word's first letter), ``{nn}`` and ``{nnnn}`` (random digits)."""
    domain: str = "{words}"
    """The domain before the TLD, or the whole domain when it has a dot (``skymail.org``:
    no TLD is drawn after it; a personal address with no ``org``: the provider's
    name, ``{words}`` then standing for ``mail``); tokens: ``{words}`` (the organisation's first two
    words that are not stop words, joined) and ``{initials}`` (the first letter of each
    of them: "杭州市第一人民医院" -> hzsdyrmyy)."""
    spellings: dict[str, str] = Field(default_factory=dict)
    """Readings that replace the default romanisation of a character or a phrase (a
    surname's reading: 曾 -> zeng; a word's: 重庆 -> chong qing)."""

    @property
    def whole_domain(self) -> bool:
        """Whether ``domain`` is written with its top-level domain (``skymail.org``): it is
        then the address's whole domain, and no TLD is drawn after it."""
        return "." in self.domain

    @model_validator(mode="after")
    def _one_tld(self) -> Email:
        # a new user writes the provider as they would type it ("skymail.org"); a TLD
        # drawn after it gave "skymail.org.com", so a dotted domain is written whole,
        # and a dotted domain beside explicit `tlds` is a contradiction, said here
        if self.whole_domain and "tlds" in self.model_fields_set:
            raise ValueError(
                f"domain {self.domain!r} already ends in a top-level domain, and tlds are "
                "given too: write the domain without it (domain: "
                f"{self.domain.rsplit('.', 1)[0]!r}) or leave tlds out"
            )
        return self

    def references(self) -> list[str]:
        return [self.name] if self.org is None else [self.name, self.org]


class Template(_Dist):
    """A string from templates whose ``{tokens}`` are the values of referenced attributes.

    ``given`` picks the template list by the value of a discrete parent (``cases``),
    falling back to ``default``; a template is chosen uniformly.
    """

    kind: Literal["template"]
    given: str | None = None
    cases: dict[str, Annotated[list[str], Field(min_length=1)]] = Field(default_factory=dict)
    default: list[str] = Field(default_factory=list)
    uses: list[str] = Field(default_factory=list)
    """References whose values fill the templates' tokens (token = last name part)."""
    forms: dict[str, dict[str, str]] = Field(default_factory=dict)
    """Per token, values written another way inside these templates (a city's short
    name in a company's name: 广东深圳 -> 深圳); values not listed are written as they are."""

    def references(self) -> list[str]:
        return ([self.given] if self.given else []) + list(self.uses)


class Derived(_Dist):
    """A deterministic function of other attributes (memsim.sampling._derived): exactly
    one of ``bins`` (a categorical label per range of one integer attribute), ``lookup``
    (a categorical value per value, or ``a|b`` combination, of categorical attributes)
    or ``expr`` (integer arithmetic over integer attributes: ``+ - * // %``, brackets
    and integer constants, each attribute named by the last part of its reference)."""

    kind: Literal["derived"]
    of: list[str] = Field(min_length=1)
    bins: dict[str, int] | None = None
    """Label -> the lowest value it covers, increasing; the labels are the values."""
    lookup: dict[str, str] | None = None
    default: str | None = None
    """The lookup's value for combinations it does not list."""
    expr: str | None = None

    def references(self) -> list[str]:
        return list(self.of)


Distribution = Annotated[
    Categorical
    | Table
    | Copy
    | Gaussian
    | UniformInt
    | DateUniform
    | PersonName
    | Phone
    | Digits
    | Email
    | Template
    | Derived,
    Field(discriminator="kind"),
]

DISCRETE_KINDS = ("categorical", "table", "copy")
NUMERIC_KINDS = ("gaussian", "uniform_int")
DATE_KINDS = ("date_uniform",)
TEXT_KINDS = ("person_name", "phone", "digits", "email", "template")
DERIVED_KINDS = ("derived",)
