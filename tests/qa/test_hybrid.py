"""Hybrid questions: two sub-questions joined, and never one that says the other's answer
(as "the size of the Shanghai workshop?" beside "where does my aunt work? Shanghai")."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import numpy as np

from memsim.qa._registry import QAKind, hybrid
from memsim.qa._types import Draft, FactRef

CTX: Any = SimpleNamespace(
    loc=SimpleNamespace(
        questions=SimpleNamespace(answer_join="; ", hybrid_join="{first} Also, {second}")
    )
)


def kind_of(parts: dict[str, tuple[str, tuple[str, ...]]]) -> QAKind:
    """A kind whose draft for a scenario is the given (question, options)."""

    def draft(_ctx: Any, _profile: Any, scenario: str, _rng: Any) -> Draft:
        question, options = parts[scenario]
        return Draft("simple", scenario, question, options[0], options, ())

    return QAKind("simple", tuple(parts), draft)


EVENT = ("How big was the Shanghai workshop?", ("500 people", "50 people", "20 people", "5 people"))


def test_a_part_that_says_the_other_parts_answer_is_redrawn() -> None:
    aunt = ("Where does my aunt work?", ("Shanghai", "Boston", "Denver", "Austin"))
    kind = kind_of({"events": EVENT, "roles": aunt})
    assert hybrid(kind, CTX, None, np.random.default_rng(0)) is None  # type: ignore[arg-type]


def test_a_part_whose_distractor_the_other_names_is_redrawn_too() -> None:
    """Which draws are redone must not depend on the answer: redoing only those whose
    answer is named would make the unnamed options ("the same", "never told") the usual
    answers of hybrid comparisons."""
    aunt = ("Where does my aunt work?", ("Boston", "Shanghai", "Denver", "Austin"))
    kind = kind_of({"events": EVENT, "roles": aunt})
    assert hybrid(kind, CTX, None, np.random.default_rng(0)) is None  # type: ignore[arg-type]


def test_otherwise_the_parts_are_joined() -> None:
    aunt = ("Where does my aunt work?", ("Boston", "Miami", "Denver", "Austin"))
    kind = kind_of({"events": EVENT, "roles": aunt})
    made = hybrid(kind, CTX, None, np.random.default_rng(0))  # type: ignore[arg-type]
    assert made is not None and made.scenario == "hybrid"
    assert set(made.answer.split("; ")) == {"500 people", "Boston"}


def test_wrong_parts_are_paired_at_random() -> None:
    """The options are a matching of first parts with second parts: each part once, the
    answer one pair, and the wrong pairs not in a fixed order (a decoder of the options'
    structure would otherwise find the answer as the pair the fixed order leaves out)."""
    aunt = ("Where does my aunt work?", ("Boston", "Denver", "Austin", "Miami"))
    kind = kind_of({"events": EVENT, "roles": aunt})
    matchings = set()
    for seed in range(40):
        made = hybrid(kind, CTX, None, np.random.default_rng(seed))  # type: ignore[arg-type]
        assert made is not None
        pairs = [tuple(o.split("; ")) for o in made.options]
        firsts, seconds = zip(*pairs, strict=True)
        assert len(set(firsts)) == 4 and len(set(seconds)) == 4
        assert pairs[0] in {("500 people", "Boston"), ("Boston", "500 people")}
        matchings.add(frozenset(pairs))
    assert len(matchings) > 6  # all 3! = 6 matchings of the wrong parts, in both orders


def _counting(evidence: dict[str, tuple[FactRef, ...]]) -> QAKind:
    """Two counting parts ("for how many of my relatives is the age ...?" and the same
    counted with me), each resting on the given facts."""
    texts = {
        "roles": ("Of my relatives, for how many is the age more than 30?", ("2", "0", "1", "3")),
        "user": (
            "Counting me and my relatives, how many of us are at most 32?",
            ("1", "2", "3", "0"),
        ),
    }

    def draft(_ctx: Any, _profile: Any, scenario: str, _rng: Any) -> Draft:
        question, options = texts[scenario]
        return Draft("aggregative", scenario, question, options[0], options, evidence[scenario])

    return QAKind("aggregative", tuple(texts), draft)


def test_parts_resting_on_one_fact_are_redrawn() -> None:
    """Counting the relatives' ages and counting them again with the user: one part's
    answer narrows the other's (with two relatives, "more than 30" for both and "at most
    32" for all three of us hold together only if both are 31 or 32), so options can be
    struck out by consistency alone, and they read as one question asked twice ("1; 1",
    "2; 2")."""
    aunt, uncle = FactRef("relative[0]", "age"), FactRef("relative[1]", "age")
    me = FactRef("user", "age")
    kind = _counting({"roles": (aunt, uncle), "user": (me, aunt, uncle)})
    for seed in range(10):
        assert hybrid(kind, CTX, None, np.random.default_rng(seed)) is None  # type: ignore[arg-type]
    apart = _counting({"roles": (aunt, uncle), "user": (me, FactRef("relative[0]", "height"))})
    assert hybrid(apart, CTX, None, np.random.default_rng(0)) is not None  # type: ignore[arg-type]
