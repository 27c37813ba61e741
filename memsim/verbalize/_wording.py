"""Checks of a locale's wording entries, one entry at a time.

A wording entry is filled with ``str.format`` by code that passes a fixed set of
tokens: an entry missing a required token says less than it should (a preface without
``{question}`` drops the question), one with a token nobody passes fails at generation
(``KeyError``), and a person's name phrase that ends in punctuation reads badly where a
possessive or a verb follows it ("my friend from the workshop, {first}," gives
"workshop, Candice,'s"), as does one with a comma inside ("A referee friend, Gavin is
47": the aside is never closed). Each check is a pydantic ``AfterValidator`` on one list item,
so a bad entry is reported at its own ``file:line`` (the locale file or the schema's
overlay, :mod:`memsim.verbalize._overlay`), by `memsim schema validate` too.
"""

from __future__ import annotations

import string
from collections.abc import Callable
from typing import Annotated

from pydantic import AfterValidator

from memsim.schema._tokens import ends_badly


def tokens_of(text: str) -> set[str]:
    """The ``{token}`` names of a format string (ValueError: braces do not parse)."""
    return {
        field.split(".")[0].split("[")[0].split("!")[0]
        for _, field, _, _ in string.Formatter().parse(text)
        if field is not None
    }


ASIDE = (",", "，", "、", ";", "；")
"""Commas (and semicolons) of any script: in a person's phrase they open an aside that
"'s" or the verb after it leaves open ("A referee friend, Carmen's birthday is ...");
closed ("a referee friend, {first},") it ends in punctuation, which reads
"Carmen,'s"."""


def _checker(
    required: frozenset[str], allowed: frozenset[str], any_of: bool, phrase: bool
) -> Callable[[str], str]:
    def check(text: str) -> str:
        try:
            found = tokens_of(text)
        except ValueError as exc:
            raise ValueError(f"{text!r}: braces do not parse ({exc})") from None
        if any_of and not found & required:
            need = " or ".join(f"{{{t}}}" for t in sorted(required))
            raise ValueError(f"{text!r} has none of {need}")
        missing = set() if any_of else required - found
        if missing:
            names = ", ".join(f"{{{t}}}" for t in sorted(missing))
            raise ValueError(f"{text!r} lacks {names}")
        unknown = found - allowed
        if unknown:
            names = ", ".join(f"{{{t}}}" for t in sorted(unknown))
            takes = ", ".join(f"{{{t}}}" for t in sorted(allowed)) or "no tokens"
            raise ValueError(f"{text!r}: {names} is filled by nothing here (it takes {takes})")
        why = ends_badly(text) if phrase else None
        if why:
            raise ValueError(f"{text!r} {why}")
        comma = next((c for c in ASIDE if c in text), None) if phrase else None
        if comma:
            raise ValueError(
                f"{text!r} holds {comma!r}: it opens an aside that the sentence it is said"
                f' in never closes ("A referee friend, Gavin is 47"); name the person'
                f' without it ("my referee friend {{first}}")'
            )
        return text

    return check


def check(
    required: tuple[str, ...],
    allowed: tuple[str, ...] = (),
    any_of: bool = False,
    phrase: bool = False,
) -> AfterValidator:
    """A validator of one entry: it has every ``required`` token (or, ``any_of``, one
    of them), no token beyond ``required`` and ``allowed``, and, as a ``phrase`` that
    other words follow, no punctuation at its end and no comma (:data:`ASIDE`) in it."""
    need = frozenset(required)
    return AfterValidator(_checker(need, need | set(allowed), any_of, phrase))


TwoFacts = Annotated[str, check(("first", "second"))]
ChitChat = Annotated[str, check(())]
Hearsay = Annotated[str, check(("value",))]
HearsayOf = Annotated[str, check(("label", "value"))]
Person = Annotated[str, check(("first", "last"), any_of=True, phrase=True)]
"""A person outside the profile ("my friend {first}"): "'s" or a verb follows it."""
HearsayLabel = Annotated[str, check(("label",), allowed=("kind",))]
HearsayRoleLabel = Annotated[str, check(("kind", "label"), any_of=True)]
"""A role's hearsay label: the kind alone may name what its value is ("{kind}": "their
hive inspection is on April 12")."""
DomainLabel = Annotated[str, check(("label",))]
Preface = Annotated[str, check(("question",))]
Join = Annotated[str, check(("first", "second"))]
CONDITION = (("value",), ("group", "label", "a", "measure"))
"""The (required, allowed) tokens of a condition phrase."""
Condition = Annotated[str, check(*CONDITION)]
"""The noun phrase that picks an entity out by an attribute's value ("the {group} whose
{label} is {value}", zh "{label}是“{value}”的那{measure}{group}": ``{measure}`` the word
the entity's pool is counted with, :meth:`memsim.verbalize.Questions.measure_of`)."""
check_condition = _checker(
    frozenset(CONDITION[0]), frozenset(CONDITION[0] + CONDITION[1]), False, False
)
"""The check of one condition phrase of ``questions.by_attribute`` or ``by_role``."""
Measure = Annotated[str, check(())]
"""A measure word (zh 单, 台, 家): a word, no tokens."""
KINDS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "simple": (("label", "who"), ()),
    "conditional": (("label", "cond_value"), ("group", "cond_label", "measure")),
    "comparative": (("a", "b"), ("label", "more")),
    "aggregative": (("predicate",), ("group", "label")),
}
"""The (required, allowed) tokens of each kind's general question wording."""
Simple = Annotated[str, check(*KINDS["simple"])]
Conditional = Annotated[str, check(*KINDS["conditional"])]
Comparative = Annotated[str, check(*KINDS["comparative"])]
Aggregative = Annotated[str, check(*KINDS["aggregative"])]
USER = "user"
"""The user's scenario, whose wording may say the user's own token as "I" or "my"."""
USER_TOKENS = {"simple": ("who",), "comparative": ("b",)}
"""The tokens naming the user (a comparison names the user second) that the user's
scenario wording may leave out ("我的{label}是什么？", "Between {a} and me, ...")."""
POST_PROCESSING = "post_processing."
"""Prefix of a transform's wording by scenario (``post_processing.digit_sum``: filled
with ``{label}`` and ``{k}``, the user's scenario only)."""


def scenario_check(scenario: str, key: str) -> Callable[[str], str]:
    """The check of one ``questions.by_scenario`` entry of ``scenario`` and ``key`` (a
    kind of :data:`KINDS`, or a transform's ``post_processing.<name>``): the kind's
    tokens, those of :data:`USER_TOKENS` optional in the user's scenario; ValueError
    for a key nothing reads."""
    if key.startswith(POST_PROCESSING):
        return _checker(frozenset({"label"}), frozenset({"label", "k"}), False, False)
    if key not in KINDS:
        words = ", ".join([*KINDS, f"{POST_PROCESSING}<transform>"])
        raise ValueError(f"{key!r} is worded by nothing (it words {words})")
    required, allowed = (frozenset(t) for t in KINDS[key])
    mine = frozenset(USER_TOKENS.get(key, ()) if scenario == USER else ())
    return _checker(required - mine, required | allowed, False, False)


__all__ = [
    "KINDS",
    "Aggregative",
    "ChitChat",
    "Comparative",
    "Condition",
    "Conditional",
    "DomainLabel",
    "Hearsay",
    "HearsayLabel",
    "HearsayOf",
    "HearsayRoleLabel",
    "Join",
    "Measure",
    "Person",
    "Preface",
    "Simple",
    "TwoFacts",
    "check_condition",
    "scenario_check",
    "tokens_of",
]
