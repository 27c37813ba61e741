"""The reader's memory index finds exactly the messages the per-message tests find.

Memories are the session dataset's trajectories infused with the English noise pool
(as ``memsim bench`` makes them), plus texts chosen to take the index's slow paths (a
separator inside a text, letters whose lower case changes the text's length)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from memsim.bench import NoisePool, detect_format, infuse, open_source
from memsim.bench._condition import _Groups, _linked
from memsim.bench._index import SEP, TextIndex, facts_of, mentioning
from memsim.bench._reading import subject
from memsim.bench._tokenize import token_set, tokenize
from memsim.bench._types import Message
from memsim.bench._values import hearsay, mentions, people

ODD_TEXTS = (
    "A friend of mine wrote: my aunt loves İstanbul.",
    f"My aunt said{SEP} hello.",
    "ΣΑΣ met my Aunt at the Harbor Fest.",
    "Someone I know said their sister moved.",
)


@pytest.fixture(scope="module")
def memories(dataset_dir: Path, en_pool: NoisePool) -> list[tuple[str, tuple[Message, ...]]]:
    """(question, memory) of each trajectory at 1x and 10x noise, and with odd texts."""
    source = open_source(dataset_dir)
    fmt = detect_format(source.sample_times())
    everyone = list(range(len(en_pool.entities)))
    out = []
    for index, raw in source.items():
        for level in (1, 10):
            rng = np.random.default_rng(index * 1000 + level)
            memory = infuse(raw, level, fmt, en_pool, everyone, rng).messages
            out.append((raw.qa.question, memory))
        odd = tuple(Message(i, t, "2024-04-01T08:00", "home") for i, t in enumerate(ODD_TEXTS))
        out.append((raw.qa.question, memory[:3] + odd + memory[3:6]))
    return out


def entities(question: str, memory: tuple[Message, ...]) -> Iterator[str]:
    """What the rules ask about: the question's subject, the user, every person of the
    user's life a message names, and names (any case, with or without "the")."""
    yield from ("me", "I", "myself", "my aunt", "My Aunt", "the", "", "harbor fest")
    who = subject(question)
    if who is not None:
        yield who
        yield who.upper()
    for m in memory[:40]:
        for person in people(m.text):
            yield f"my {person}"
        words = m.text.split()
        if len(words) > 3:
            yield f"The {words[1]} {words[2]}"
            yield words[-1].rstrip(".!?")


def test_mentioning_is_mentions_of_every_message(memories: list) -> None:  # type: ignore[type-arg]
    found = 0
    for question, memory in memories:
        for entity in entities(question, memory):
            expected = [i for i, m in enumerate(memory) if mentions(m.text, entity)]
            assert mentioning(memory, entity) == expected, entity
            found += len(expected)
    assert found > 0  # the entities are spoken of, not only absent


def test_facts_leave_out_exactly_the_hearsay(memories: list) -> None:  # type: ignore[type-arg]
    quoted = 0
    for _, memory in memories:
        expected = tuple(m for m in memory if not hearsay(m.text))
        assert facts_of(memory) == expected
        quoted += len(memory) - len(expected)
    assert quoted > 0


def test_the_separator_in_a_text_makes_the_index_test_each_text() -> None:
    memory = tuple(Message(i, t, "2024-04-01T08:00", "home") for i, t in enumerate(ODD_TEXTS))
    index = TextIndex(memory)
    assert not index.exact
    assert index.others() == [0, 3]
    assert index.containing("aunt") == [0, 1, 2]
    assert TextIndex(memory[2:3] + memory[:1]).containing("aunt") == [0, 1]  # non-ASCII, exact


def test_condition_groups_are_those_of_comparing_every_pair(
    memories: list,  # type: ignore[type-arg]
) -> None:
    linked = 0
    for _, memory in memories:
        facts = facts_of(memory)
        for by_day in (False, True):
            groups = _Groups(facts, by_day)
            for i in range(len(facts)):
                s = groups.subject[i]
                expected = [
                    m
                    for other, ms in groups.members.items()
                    if _linked(s, other)
                    for m in ms.values()
                ] or [facts[i]]
                assert groups.of(i) == expected
                linked += len(expected) > 1
    assert linked > 0


def test_holding_and_sharing_are_the_token_tests_of_every_message(
    memories: list,  # type: ignore[type-arg]
    dataset_dir: Path,
) -> None:
    """The messages holding all of an option's tokens (condition's covers), or one of
    them (relevant), by the index and by testing each message."""
    source = open_source(dataset_dir)
    options = [c for _, raw in source.items() for c in raw.qa.choices.values()]
    held = 0
    for _, memory in memories[::3]:
        index = TextIndex(memory)
        for option in [*options[:60], "aunt", "Harbor Fest"]:
            tokens = frozenset(tokenize(option))
            expected = [i for i, m in enumerate(memory) if tokens <= token_set(m.text)]
            assert index.holding(tokens) == expected, option
            held += len(expected)
            expected = [i for i, m in enumerate(memory) if not tokens.isdisjoint(token_set(m.text))]
            assert index.sharing(tokens) == expected, option
    assert held > 0
