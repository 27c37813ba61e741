"""Distractors that nothing else in the conversation says (the user's own attributes, a
kind with one entity: campus's student and textbook) are said to be someone else's
(the locale's ``hearsay_of``), so the answer is not the only option the conversation
mentions; on real generation from the bundled campus schema, en and zh."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from memsim.audit._mentioned import mention_scores, words
from memsim.dataset import make_context
from memsim.dataset._generate import make_record
from memsim.qa import QAContext
from memsim.records import record_to_json
from memsim.sampling import ProfileSampler
from memsim.schema import load_schema

ROOT = Path(__file__).parents[2]
PROFILES = 40


@pytest.fixture(scope="module", params=["en", "zh"])
def campus(request: pytest.FixtureRequest) -> tuple[QAContext, list[Any]]:
    ctx = make_context(load_schema(ROOT / "schemas" / f"campus.{request.param}.yaml"), 0)
    return ctx, list(ProfileSampler(ctx.net).profiles(0, 0, PROFILES))


def _records(campus: tuple[QAContext, list[Any]], kind: str, scenario: str) -> list[Any]:
    ctx, profiles = campus
    return [
        record_to_json(make_record(ctx, p, kind, scenario, i, 0)) for i, p in enumerate(profiles)
    ]


def _pattern(template: str) -> re.Pattern[str]:
    escaped = re.escape(template).replace(re.escape("{label}"), "(?P<label>.+?)")
    return re.compile(escaped.replace(re.escape("{value}"), "(?P<value>.+)"))


@pytest.mark.parametrize(
    ("kind", "scenario"), [("simple", "user"), ("simple", "items"), ("conditional", "items")]
)
def test_every_distractor_is_mentioned_where_no_one_else_has_the_attribute(
    campus: tuple[QAContext, list[Any]], kind: str, scenario: str
) -> None:
    mentioned = 0
    rs = _records(campus, kind, scenario)
    for r in rs:
        choices = r["QA"]["choices"]
        conversation = words(" ".join(m["message"] for m in r["message_list"]))
        scores = mention_scores(list(choices.values()), conversation)
        mentioned += min(scores) > 0
    # a number's options may be bare ("3"), never counted as mentioned; the rest all are
    assert mentioned / len(rs) >= 0.8, mentioned


def test_hearsay_lines_say_whose_attribute_a_distractor_is(
    campus: tuple[QAContext, list[Any]],
) -> None:
    ctx, _ = campus
    patterns = [_pattern(t) for t in ctx.loc.hearsay_of]
    textbook = ctx.schema.entities["textbook"].label[ctx.loc.code]
    found: dict[str, set[str]] = {"user": set(), "items": set()}
    for scenario in found:
        for r in _records(campus, "simple", scenario):
            wrong = [v for k, v in r["QA"]["choices"].items() if k != r["QA"]["ground_truth"]]
            for m in r["message_list"]:
                hit = next(
                    (p.fullmatch(m["message"]) for p in patterns if p.fullmatch(m["message"])), None
                )
                if hit is None:
                    continue
                assert m["role"] == "chit_chat" and not m["facts"]
                assert hit.group("value") in wrong  # a distractor, never the answer
                found[scenario].add(hit.group("label"))
    assert found["items"]
    # the textbook's attributes are named with their kind, the user's by their label alone
    assert all(textbook in label for label in found["items"])
    assert not any(textbook in label for label in found["user"])


def _says(message: str, option: str) -> bool:
    """Whether ``message`` says ``option``: as written, or its number (a phrasing may
    leave out the unit: "his age is 19")."""
    number = re.fullmatch(r"\D*?(\d+)\D*", option)
    if number is not None:
        return re.search(rf"(?<!\d){number.group(1)}(?!\d)", message) is not None
    return option in message


def test_a_persons_distractor_is_said_of_someone_outside_the_profile_in_its_own_words(
    campus: tuple[QAContext, list[Any]],
) -> None:
    """The user's distractors are said of a friend, a neighbor... (the locale's
    ``hearsay_people``) in the attribute's own phrasings, as the user's facts are, so
    their words mark no role: each says a distractor, never the answer, and names no one
    of the profile."""
    ctx, profiles = campus
    starts = tuple(ctx.loc.cap(p.split("{")[0]) for p in ctx.loc.hearsay_people)
    said = 0
    for i, r in enumerate(_records(campus, "simple", "user")):
        choices = r["QA"]["choices"]
        gold = choices[r["QA"]["ground_truth"]]
        wrong = [v for v in choices.values() if v != gold]
        names = [
            str(f.value) for e in profiles[i].entities for a, f in e.facts.items() if a == "name"
        ]
        for m in r["message_list"]:
            text = m["message"]
            if m["role"] != "chit_chat" or text in ctx.loc.chit_chat or not text.startswith(starts):
                continue
            said += 1
            assert not m["facts"]
            assert any(_says(m["message"], w) for w in wrong), m["message"]
            assert not _says(m["message"], gold), m["message"]
            assert not any(n in m["message"] for n in names), m["message"]
    assert said > 0


def _time_hearsay(schema: Path, n: int = 40) -> list[str]:
    """The hearsay lines of events' simple questions on ``n`` profiles that tell a
    distractor date-time (an event's time: ``role: time``, or a format-1 ``time``)."""
    ctx = make_context(load_schema(schema), 0)
    patterns = [_pattern(t) for t in ctx.loc.hearsay_of]
    when = re.compile(r"on \w+ \d+, \d{4} at|\d{4}年\d+月\d+日")
    out = []
    for i, p in enumerate(ProfileSampler(ctx.net).profiles(0, 0, n)):
        r = record_to_json(make_record(ctx, p, "simple", "events", i, 0))
        for m in r["message_list"] if r is not None else ():
            hit = next(
                (t.fullmatch(m["message"]) for t in patterns if t.fullmatch(m["message"])), None
            )
            if hit is not None and when.match(hit.group("value")):
                out.append(m["message"])
    return out


@pytest.mark.parametrize(
    ("schema", "said"),
    [
        (ROOT / "tests" / "data" / "beekeeping.en.yaml", "their hive inspection is on"),
        (ROOT / "schemas" / "daily_life.en.yaml", " event is "),
    ],
)
def test_an_events_time_is_told_as_the_event_not_as_its_times_time(schema: Path, said: str) -> None:
    """ "their hive inspection's time is on April 12": an English date-time carries its
    preposition, so a hearsay line tells a time as its event (the locale's
    ``hearsay_label_by_role``), as the event's own phrasings do ("My hive inspection is
    on ...")."""
    lines = _time_hearsay(schema)
    assert lines and not [t for t in lines if "'s time" in t or " time is " in t], lines
    assert any(said in t for t in lines), lines


def test_a_chinese_time_keeps_its_label() -> None:
    """zh says 时间是 where en says "is on": "他的休闲活动的时间是“2024年3月9日下午5点”" reads
    as Chinese says it, and the locale sets no label by role."""
    lines = _time_hearsay(ROOT / "schemas" / "daily_life.zh.yaml")
    assert lines and all("的时间是“" in t for t in lines), lines
