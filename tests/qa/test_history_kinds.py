"""The kinds over value histories and times (knowledge_update, temporal, abstention) and
their timed trajectories: the guarantees their docstrings state, over random profiles
and draws of the default English schema."""

from __future__ import annotations

import datetime as dt
from functools import lru_cache
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memsim.dataset import make_context
from memsim.profile import Profile
from memsim.qa import QA_KINDS, Draft, QAContext, normalise
from memsim.qa._strata import stratum
from memsim.qa.abstention import UNTOLD, _outcome
from memsim.sampling import sample_profiles
from memsim.schema import load_schema
from memsim.trajectory import build_trajectory

ROOT = Path(__file__).resolve().parents[2]
N = 40
SETTINGS = settings(
    max_examples=30, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)


@lru_cache(maxsize=1)
def world() -> tuple[QAContext, list[Profile]]:
    ctx = make_context(load_schema(ROOT / "schemas" / "daily_life.en.yaml"), 0)
    return ctx, sample_profiles(ctx.net, 0, N)


def draw(kind: str, scenario: str, index: int, seed: int) -> tuple[Draft, Profile] | None:
    ctx, profiles = world()
    rng = np.random.default_rng(seed)
    for _ in range(200):
        found = QA_KINDS.get(kind).make(ctx, profiles[index], scenario, rng)
        if found is not None:
            return found, profiles[index]
    return None


def at(when: str) -> dt.datetime:
    return dt.datetime.fromisoformat(when)


def check_options(draft: Draft) -> None:
    assert len(draft.options) == 4 and draft.answer == draft.options[0]
    assert len({normalise(o) for o in draft.options}) == 4


def check_timed(draft: Draft, profile: Profile, seed: int) -> None:
    """Messages inside the span, strictly increasing, each statement inside its window
    (so it says the value in force), the question last."""
    ctx, _ = world()
    assert draft.span is not None
    messages, asked = build_trajectory(ctx, profile, draft, np.random.default_rng(seed))
    times = [at(m.time) for m in messages]
    assert times == sorted(times) and len(set(times)) == len(times)
    assert asked == at(draft.span[1]) and all(t < asked for t in times)
    for s in draft.statements:
        said = [at(m.time) for m in messages if s.fact.id in m.facts]
        assert any(at(s.start) <= t < at(s.end) for t in said), s
    for s in draft.statements:
        fact = profile.fact(s.fact.id)
        end = (at(s.end) - dt.timedelta(minutes=1)).isoformat(timespec="minutes")
        assert fact.value_at(s.start) == fact.value_at(end), "a window holds one value"


@SETTINGS
@given(
    scenario=st.sampled_from(["user", "roles"]),
    index=st.integers(0, N - 1),
    seed=st.integers(0, 2**16),
)
def test_knowledge_update(scenario: str, index: int, seed: int) -> None:
    found = draw("knowledge_update", scenario, index, seed)
    assert found is not None
    draft, profile = found
    check_options(draft)
    fact = profile.fact(f"{draft.params['entity']}.{draft.params['attribute']}")
    assert len(fact.history) >= 2
    assert draft.span is not None
    if draft.params["form"] == "now":
        assert draft.answer_value == fact.value_at(draft.span[1]) == fact.final_value
    else:
        k = int(str(draft.params["change"]))
        assert draft.answer_value == fact.history[k - 1].value
        told = [s for s in draft.statements if s.fact.id == fact.id and s.told == "change"]
        assert any(s.start == fact.history[k].since for s in told)
    own = [s for s in draft.statements if s.fact.id == fact.id]
    assert len(own) == len(fact.history)  # every value is told
    ctx, _ = world()
    entity = profile.entity(str(draft.params["entity"]))
    shown = {normalise(o) for o in draft.options}
    past = {normalise(ctx.display(entity, fact.attribute, s.value)) for s in fact.history}
    # superseded values are distractors: all of them (up to three) for categories; for
    # numbers (the answer's rank among them is uniform), at least one when one lies on a
    # side of the answer that the rank leaves room on
    if fact.type == "integer":
        answer = int(str(draft.answer_value))
        rank = sum(int(_number(o)) < answer for o in draft.options)
        olds = [int(str(s.value)) for s in fact.history if s.value != draft.answer_value]
        below = any(v < answer for v in olds) and rank > 0
        above = any(v > answer for v in olds) and rank < 3
        fits = below or above
        least = 2 if fits else 1
    else:
        least = min(len(past), 4)
    assert len(past & shown) >= least
    check_timed(draft, profile, seed)


@SETTINGS
@given(
    scenario=st.sampled_from(["user", "roles", "events"]),
    index=st.integers(0, N - 1),
    seed=st.integers(0, 2**16),
)
def test_temporal(scenario: str, index: int, seed: int) -> None:
    found = draw("temporal", scenario, index, seed)
    assert found is not None
    draft, profile = found
    check_options(draft)
    assert draft.span is not None
    asked = at(draft.span[1])
    params = draft.params
    if draft.transform == "value_at":
        fact = profile.fact(f"{params['entity']}.{params['attribute']}")
        day = dt.date.fromisoformat(str(params["day"]))
        values = {fact.value_at(f"{day}T{h:02d}:00") for h in range(24)}
        assert values == {draft.answer_value}  # one value the whole day
        assert day < asked.date()
    elif draft.transform == "elapsed":
        fact = profile.fact(f"{params['entity']}.{params['attribute']}")
        since = at(str(fact.history[int(str(params["change"]))].since)).date()
        days = (asked.date() - since).days
        assert draft.answer_value == (days if params["unit"] == "days" else days // 7)
    elif draft.transform == "count_between":
        assert sorted(draft.options) == ["0", "1", "2", "3"]
        first, last = (dt.date.fromisoformat(str(params[k])) for k in ("start", "end"))
        days = [at(str(profile.fact(f"{e}.time").value)).date() for e in params["entities"]]
        assert draft.answer_value == sum(first <= d <= last for d in days)
    elif draft.transform == "first_of":
        ctx, _ = world()
        assert ctx.loc.history.never_told in draft.options
        if draft.withheld:
            assert draft.answer == ctx.loc.history.never_told
        else:
            ids = [str(e) for e in params["entities"]]
            first = min(ids, key=lambda e: str(profile.fact(f"{e}.time").value))
            assert draft.answer_value == first
    else:
        assert draft.transform == "date_of"
        (statement,) = draft.statements
        event = at(str(profile.fact(statement.fact.id).value))
        assert 1 <= (event.date() - at(statement.start).date()).days <= 6
        assert 1 <= (event.date() - at(statement.end).date()).days <= 6
    check_timed(draft, profile, seed)


@SETTINGS
@given(
    scenario=st.sampled_from(["user", "roles", "items", "places"]),
    index=st.integers(0, N - 1),
    seed=st.integers(0, 2**16),
)
def test_abstention(scenario: str, index: int, seed: int) -> None:
    found = draw("abstention", scenario, index, seed)
    assert found is not None
    draft, profile = found
    check_options(draft)
    never = [o for o in draft.options if o.startswith("You never told me")]
    assert len(never) == 1, draft.options  # every question carries it
    if draft.transform == "identity":
        assert draft.answer != never[0] and not draft.withheld
    elif draft.transform == "never_told":
        asked = f"{draft.params['entity']}.{draft.params['attribute']}"
        assert draft.answer == never[0] and asked in {w.id for w in draft.withheld}
        assert asked not in {f.id for f in (*draft.evidence, *draft.negatives)}
    else:
        assert draft.transform == "false_premise"
        naming = dict(draft.params["naming"])  # type: ignore[call-overload]
        ((attr, value),) = naming.items()
        kind = str(draft.params["kind"])
        assert all(e.facts[attr].value != value for e in profile.of_kind(kind))


def test_never_told_is_the_answer_about_a_quarter_of_the_time() -> None:
    _, profiles = world()
    many = sample_profiles(world()[0].net, 1, 800)
    share = sum(_outcome(p, np.random.default_rng(0))[0] for p in many) / len(many)
    assert abs(share - UNTOLD) < 0.05
    assert profiles  # the world is built once


def test_never_told_is_dealt_once_in_every_four_trajectories() -> None:
    _, profiles = world()
    outcomes = []
    for tid in range(32):
        rng = np.random.default_rng(tid)
        for attempt in (0, 7, 300):  # held over every attempt, whatever the stream
            with stratum(0, tid, attempt):
                outcomes.append((tid, _outcome(profiles[tid % N], rng)))
    by_tid = {tid: {o for t, o in outcomes if t == tid} for tid in range(32)}
    assert all(len(found) == 1 for found in by_tid.values())
    untold = [tid for tid, found in by_tid.items() if next(iter(found))[0]]
    assert [t // 4 for t in untold] == list(range(8))  # one per deck of four
    # of the unanswerable ones, those of consecutive decks name someone absent in turn
    premise = [next(iter(by_tid[t]))[1] for t in untold]
    assert all(premise[i] != premise[i + 1] for i in range(0, 8, 2))


@pytest.mark.parametrize("kind", ["knowledge_update", "temporal", "abstention"])
def test_the_new_kinds_ask_no_hybrid_questions(kind: str) -> None:
    assert "hybrid" not in QA_KINDS.get(kind).all_scenarios


def _number(option: str) -> str:
    """The leading integer of a numeric option ("72 kg" -> "72")."""
    return option.split()[0]


def test_elapsed_answers_and_their_ranks_are_uniform() -> None:
    """An elapsed answer is as likely anywhere in its range, and so is its rank among the
    options: drawn from the question's day, small answers were the gold too often."""
    ctx, profiles = world()
    rng = np.random.default_rng(7)
    ranks: dict[str, list[int]] = {"days": [], "weeks": []}
    answers: dict[str, list[int]] = {"days": [], "weeks": []}
    for i in range(3000):
        draft = QA_KINDS.get("temporal").make(ctx, profiles[i % N], "user", rng)
        if draft is None or draft.transform != "elapsed":
            continue
        unit, numbers = str(draft.params["unit"]), [int(o) for o in draft.options]
        ranks[unit].append(sorted(numbers).index(numbers[0]))
        answers[unit].append(numbers[0])
    for unit in ("days", "weeks"):
        n = len(ranks[unit])
        assert n > 300, unit
        shares = np.bincount(ranks[unit], minlength=4) / n
        assert shares.min() > 0.18 and shares.max() < 0.32, (unit, shares)
        low, high = min(answers[unit]), max(answers[unit])
        below = np.mean([a <= (low + high) / 2 for a in answers[unit]])
        assert 0.4 < below < 0.6, (unit, low, high, below)


def test_a_common_value_is_not_the_answer_of_value_at_more_than_its_share() -> None:
    """A held-out shopper's membership tier (drawn 0.4/0.3/0.2/0.1, changing at least
    once): "what was my tier on <day>?" answered "basic" 0.59 of the time (the blind
    classifier learnt it); kept with p_min / p(value), as a knowledge update's answer
    is, each tier is the answer about a quarter of the time."""
    schema = load_schema(ROOT / "tests" / "data" / "shopping.en.yaml")
    ctx = make_context(schema, 0)
    profiles = sample_profiles(ctx.net, 1, 200)
    rng = np.random.default_rng(3)
    tiers: list[str] = []
    for i in range(4000):
        draft = QA_KINDS.get("temporal").make(ctx, profiles[i % 200], "user", rng)
        if draft and draft.transform == "value_at" and draft.params["attribute"] == "membership":
            tiers.append(str(draft.answer_value))
    assert len(tiers) > 200
    shares = {t: tiers.count(t) / len(tiers) for t in set(tiers)}
    assert len(shares) == 4 and max(shares.values()) < 0.33, shares


def test_the_elapsed_rank_is_dealt() -> None:
    """Drawn per question, the ranks of a few dozen elapsed answers strayed, and the
    same way in every schema (the draws follow the trajectory's seed): at seed 0 and
    100 per kind the largest number was the answer 16 times in 36 in a held-out
    kitchen and 19 in 41 in a held-out landlord schema, and the blind classifier read
    temporal questions at 0.41 (an error). Dealt, four trajectories in a row hold the
    four ranks, so the elapsed questions among them never repeat a rank."""
    ctx, profiles = world()
    ranks: dict[int, list[int]] = {}
    for tid in range(128):
        rng = np.random.default_rng(1000 + tid)
        with stratum(0, tid, 0):
            draft = None
            while draft is None:
                draft = QA_KINDS.get("temporal").make(ctx, profiles[tid % N], "user", rng)
        if draft.transform == "elapsed":
            numbers = [int(o) for o in draft.options]
            ranks.setdefault(tid // 4, []).append(sorted(numbers).index(numbers[0]))
    assert sum(len(r) for r in ranks.values()) >= 40
    assert sum(len(r) > 1 for r in ranks.values()) >= 10
    assert all(len(set(r)) == len(r) for r in ranks.values())
