"""The built-in reader's rules, on real generated records (the session dataset of
``conftest.py``: ``memsim profiles`` + ``memsim generate``, eight questions per kind).

The reader sees what a mechanism retrieves, the question and the options: these tests
hand it the evidence messages (what ``oracle`` retrieves), other messages of the same
record, or nothing, and check what it reads."""

from __future__ import annotations

import datetime as dt
import json
from collections import defaultdict
from pathlib import Path

import pytest

from memsim.bench import Message
from memsim.bench._lexicon import LANGUAGES, lexicon
from memsim.bench._reader import LexicalReader, ReaderItem, on_topic, rule_hits, tie_break
from memsim.bench._values import dates, hearsay, people
from memsim.qa import KIND_ORDER
from memsim.verbalize import load_locale
from memsim.verbalize._render import render_datetime

READER = LexicalReader()


@pytest.fixture(scope="module")
def records(dataset_dir: Path) -> list[dict]:  # type: ignore[type-arg]
    with (dataset_dir / "dataset.jsonl").open(encoding="utf-8") as f:
        return [json.loads(line) for line in f]


def messages(record: dict, keep: object = None) -> tuple[Message, ...]:  # type: ignore[type-arg]
    """The record's messages (those whose mid is in ``keep``, if given), oldest first."""
    return tuple(
        Message(m["mid"], m["message"], m["time"], m["place"])
        for m in record["message_list"]
        if keep is None or m["mid"] in keep  # type: ignore[operator]
    )


def item(record: dict, memory: tuple[Message, ...]) -> ReaderItem:  # type: ignore[type-arg]
    qa = record["QA"]
    return ReaderItem(qa["question"], qa["time"], qa["choices"], memory)


def evidence(record: dict) -> tuple[Message, ...]:  # type: ignore[type-arg]
    return messages(record, set(record["QA"]["target_step_id"]))


def test_every_kind_is_in_the_session_dataset(records: list[dict]) -> None:  # type: ignore[type-arg]
    assert {r["type"] for r in records} == set(KIND_ORDER)


@pytest.mark.parametrize("kind", KIND_ORDER)
def test_given_the_evidence_the_reader_answers_every_question(
    records: list[dict],  # type: ignore[type-arg]
    kind: str,
) -> None:
    """Comparisons, counts, the latest statement, calendar arithmetic, transforms and
    "never told" are read off the evidence messages alone (no label reaches the
    reader: only the question, its time, the options and the messages)."""
    wrong = [
        (r["QA"]["question"], r["QA"]["choices"], [m.text for m in evidence(r)])
        for r in records
        if r["type"] == kind and READER.choose(item(r, evidence(r))) != r["QA"]["ground_truth"]
    ]
    assert wrong == []


def test_with_no_memory_the_choice_is_the_hash_of_the_option_alone(
    records: list[dict],  # type: ignore[type-arg]
) -> None:
    """``no_memory`` stays the chance floor: with nothing to read, the reader reads
    nothing into the options ("never told", "the same") and picks by hash."""
    for r in records:
        qa = r["QA"]
        expected = min(qa["choices"], key=lambda k: tie_break(qa["question"], qa["choices"][k]))
        assert READER.choose(item(r, ())) == expected
    picked = defaultdict(int)
    for r in records:
        qa = r["QA"]
        picked[READER.choose(item(r, ())) == qa["ground_truth"]] += 1
    assert picked[True] < 0.40 * len(records)  # 4 options: about a quarter, never most


def test_the_answer_follows_the_option_not_its_letter(
    records: list[dict],  # type: ignore[type-arg]
) -> None:
    for r in records[:: max(1, len(records) // 30)]:
        qa = r["QA"]
        letters = sorted(qa["choices"])
        rotated = {letters[(i + 1) % len(letters)]: qa["choices"][k] for i, k in enumerate(letters)}
        for memory in (evidence(r), messages(r), ()):
            a = READER.choose(item(r, memory))
            b = READER.choose(ReaderItem(qa["question"], qa["time"], rotated, memory))
            assert a is not None and b is not None
            assert qa["choices"][a] == rotated[b]


def test_off_topic_messages_tell_the_reader_nothing(
    records: list[dict],  # type: ignore[type-arg]
) -> None:
    """A simple question about a person, read from the other messages of its record
    that do not speak of that person: the reader answers as with no memory (their
    words, which may name a distractor, are not read)."""
    checked = 0
    for r in records:
        if r["type"] != "simple" or r["scenario"] != "roles":
            continue
        qa = r["QA"]
        named = set(people(qa["question"]))  # "Where is my peer's workplace?"
        if len(named) != 1:
            continue
        who = f"my {named.pop()}"
        other = tuple(m for m in messages(r) if who not in m.text.lower())
        assert READER.choose(item(r, other)) == READER.choose(item(r, ()))
        checked += 1
    assert checked > 0


def test_knowledge_updates_read_the_latest_statement_and_only_what_was_said(
    records: list[dict],  # type: ignore[type-arg]
) -> None:
    checked = earlier_checked = 0
    for r in records:
        qa = r["QA"]
        if r["type"] != "knowledge_update" or not qa["question"].lower().startswith(
            ("what is", "these days")
        ):
            continue
        ev = evidence(r)
        assert qa["choices"][READER.choose(item(r, ev))] == qa["answer"]
        # the earlier statements alone: the reader answers with the value they state
        earlier = ev[:-1]
        # (when the value they state is an option: the generator need not offer it)
        if earlier and any(v.lower() in earlier[-1].text.lower() for v in qa["choices"].values()):
            chosen = qa["choices"][READER.choose(item(r, earlier))]
            assert chosen != qa["answer"] and chosen.lower() in earlier[-1].text.lower()
            earlier_checked += 1
        checked += 1
    assert checked > 0 and earlier_checked > 0, (checked, earlier_checked)


def test_what_others_said_is_not_read_as_the_users_opinion(
    records: list[dict],  # type: ignore[type-arg]
) -> None:
    checked = 0
    for r in records:
        qa = r["QA"]
        quoted = [m for m in messages(r) if hearsay(m.text)]
        for m in quoted:
            stated = [k for k, v in qa["choices"].items() if v in m.text]
            if len(stated) != 1 or stated[0] == qa["ground_truth"]:
                continue
            # the quote is in memory, the user's own statement is not: no rule reads
            # the quote, and word overlap does not see it (a choice left to the hash)
            quoted_only = item(r, (m,))
            assert rule_hits(quoted_only)[stated[0]] == 0
            assert on_topic(quoted_only) == ()
            checked += 1
    assert checked > 0


@pytest.mark.parametrize("code", LANGUAGES)
def test_each_language_file_of_the_reader_loads(code: str) -> None:
    words = lexicon(code)
    assert words.never_told and words.same and words.question_join


def test_a_reader_language_file_with_an_unknown_key_is_refused(tmp_path: Path) -> None:
    (tmp_path / "reading.xx.yaml").write_text("months: [Jan]\nmonthz: [Feb]\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"reading\.xx\.yaml: unknown keys \['monthz'\]"):
        lexicon("xx", tmp_path)


def test_hearsay_is_told_by_its_speaker() -> None:
    assert hearsay('A friend of mine wrote: "The Bosch dishwasher is great."')
    assert hearsay("Someone I know said their colleague's work city is Boston.")
    assert hearsay('My neighbor keeps saying: "Coral Cove is breathtaking at sunset."')
    assert not hearsay('I keep saying to my neighbor: "Coral Cove is breathtaking at sunset."')
    assert not hearsay('An online review I wrote: "The Bosch dishwasher is great."')
    assert not hearsay("My honest take: I like the Ninja air fryer.")


def test_relative_days_resolve_as_the_verbalizer_says_them() -> None:
    """Every phrase the English verbalizer writes for an event 0-20 days ahead
    ("tomorrow", "this Friday", "next Friday", or the date) reads back as its day."""
    en = load_locale("en")
    said = dt.datetime(2024, 3, 1, 9, 30)
    for step in range(90):
        at = said + dt.timedelta(days=step // 3, hours=5 * (step % 3))
        for ahead in range(1, 21):
            event = at + dt.timedelta(days=ahead, hours=2)
            text = f"The Chicago Trail Hike is {render_datetime(event, at, en)}."
            assert dates(text, at.date())[0] == event.date(), text


def test_answers_are_the_same_whatever_the_batch(
    records: list[dict],  # type: ignore[type-arg]
) -> None:
    items = [item(r, messages(r)) for r in records]
    whole = READER.answer(items)
    one_by_one = [LexicalReader().answer([i])[0] for i in items]
    assert whole == one_by_one == READER.answer(list(items))


def _told(record: dict, phrase: str) -> str | None:  # type: ignore[type-arg]
    """The letter of the option holding ``phrase`` ("never told", "the same")."""
    return next((k for k, v in record["QA"]["choices"].items() if phrase in v.lower()), None)


def test_comparisons_in_the_attributes_own_words_read_both_values(
    records: list[dict],  # type: ignore[type-arg]
) -> None:
    """ "Who has more education, A or B?", "Which lasts longer, ...": the words say what
    is compared and which way; with one side's messages gone, "never told you both"."""
    checked = 0
    for r in records:
        qa = r["QA"]
        if r["type"] != "comparative" or "whose" in qa["question"] or " And " in qa["question"]:
            continue
        ev = evidence(r)
        assert READER.choose(item(r, ev)) == qa["ground_truth"], qa["question"]
        sides = [
            v for k, v in qa["choices"].items() if k not in (_told(r, "never"), _told(r, "same"))
        ]
        one = tuple(m for m in ev if sides[1].lower().removeprefix("my ") not in m.text.lower())
        if one and len(one) < len(ev) and sides[1].lower() not in ("me", "i"):
            assert READER.choose(item(r, one)) == _told(r, "never told"), qa["question"]
        checked += 1
    assert checked > 0


def test_a_stated_margin_makes_close_values_the_same() -> None:
    """ "A difference of N ... or less counts as the same.": values within N (N itself
    included) are "the same", farther apart the asked one wins; in the generator's
    phrasings of an event's size and length."""
    said = "2024-05-02T10:00"
    memory = (
        Message(0, "The Getaway to Pittsburgh will have roughly 50 people.", said, ""),
        Message(1, "Expected turnout for the Austin Business Meeting: 100 people.", said, ""),
        Message(2, "The Getaway to Pittsburgh runs for half a day.", said, ""),
        Message(3, "I'm setting aside 2 hours for the Austin Business Meeting.", said, ""),
    )
    choices = {
        "A": "They are the same",
        "B": "The Austin Business Meeting",
        "C": "The Getaway to Pittsburgh",
        "D": "I never told you both",
    }
    both = "the Getaway to Pittsburgh or the Austin Business Meeting?"
    for question, margin, expected in (
        (f"Which has more people, {both}", "", "B"),
        (f"Which has more people, {both}", " A difference of 50 people or less", "A"),
        (f"Which has more people, {both}", " A difference of 49 people or less", "B"),
        (f"Which lasts longer, {both}", "", "C"),
        (f"Which lasts longer, {both}", " A difference of 10 hours or less", "A"),
        (f"Which lasts longer, {both}", " A difference of 9 hours or less", "C"),
        (f"Which lasts longer, {both}", " A difference of 1 day or less", "A"),
    ):
        asked = question + (f"{margin} counts as the same." if margin else "")
        assert READER.choose(ReaderItem(asked, said, choices, memory)) == expected, asked
    one_side = ReaderItem(f"Which is bigger, {both}", said, choices, memory[:1])
    assert READER.choose(one_side) == "D"


def test_a_described_subject_is_found_among_the_records_other_messages(
    records: list[dict],  # type: ignore[type-arg]
) -> None:
    """ "How tall is the relative or colleague named ...?", "What kind of product is the
    item I own?": the option stated about whatever the description fits, read from the
    whole record (its distractors speak of others with the other options)."""
    checked = 0
    for r in records:
        qa = r["QA"]
        if r["type"] != "conditional" or "whose" in qa["question"] or " And " in qa["question"]:
            continue
        assert READER.choose(item(r, evidence(r))) == qa["ground_truth"], qa["question"]
        assert READER.choose(item(r, messages(r))) == qa["ground_truth"], qa["question"]
        checked += 1
    assert checked > 0


def test_a_comparison_word_with_an_unknown_direction_is_refused(tmp_path: Path) -> None:
    (tmp_path / "reading.xx.yaml").write_text("comparisons: {older: [up, age]}\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"reading\.xx\.yaml: comparisons\.older"):
        lexicon("xx", tmp_path)


def _covers_by_definition(candidate: str, question: str, message: Message) -> bool:
    """``covers`` as first written (every set built anew), for the cached version."""
    from memsim.bench._tokenize import tokenize

    said = dt.date.fromisoformat(message.time[:10])
    days = dates(candidate, said)
    if days:
        return days[0] in dates(message.text, said)
    own = set(tokenize(candidate))
    own = own - set(tokenize(question)) or own
    numbers = {t for t in own if t.isdigit()}
    return bool(own) and (numbers or own) <= set(tokenize(message.text))


def test_covers_agrees_with_its_definition(records: list[dict]) -> None:  # type: ignore[type-arg]
    """The cached covers (tokens a candidate needs, days only where a candidate may name
    one) answers as the definition does, for every option against every message of the
    record, and for made-up days told relatively ("this Friday", "tomorrow")."""
    from memsim.bench._reading import covers

    checked = 0
    for record in records:
        question = record["QA"]["question"]
        options = [*record["QA"]["choices"].values(), "", "tomorrow", "next Friday", "May 31"]
        for m in messages(record):
            for option in options:
                got = covers(option, question, m)
                assert got == _covers_by_definition(option, question, m), (option, m.text)
                checked += got
    assert checked > 0  # some options are stated, not only refused
