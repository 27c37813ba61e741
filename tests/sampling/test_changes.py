"""Value histories (memsim.sampling._changes): the guarantees its docstring states, over
random change settings and seeds."""

from __future__ import annotations

import datetime as dt
import itertools
from bisect import bisect_right

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memsim.graph import BRNet
from memsim.profile import Profile
from memsim.sampling import ProfileSampler, build_profiles, sample_profiles
from memsim.sampling._changes import (
    CHANGE_STREAM,
    MIN_GAP_DAYS,
    ChangeSampler,
    change_rng,
    choice_cdf,
    pcg64_state,
)
from memsim.sampling._random import spawned_states
from memsim.schema import parse_schema

SCHEMA = """
format_version: 1
name: changes
version: "1"
locale: en
timeline: {{start: 2024-03-01, end: 2024-08-31}}
entities:
  user:
    count: 1
    scenario: user
    refer: {{en: "I"}}
    attributes:
      job:
        type: categorical
        values: [a, b, c, d]
        dist: {{kind: categorical, probs: [0.4, 0.3, 0.3, 0.0]}}
        changes: {{p: {p}, times: {times}, cause: new job}}
      city:
        type: categorical
        values: [x, y, z]
        dist: {{kind: categorical}}
        changes: {{p: {p}, times: 2, cause: move, after: job, p_after: {p_after}}}
      weight:
        type: integer
        min: 50
        max: 60
        dist: {{kind: uniform_int, low: 50, high: 60}}
        changes: {{p: {p}, at_least: {at_least}, times: 3, step: [-4, 4], cause: routine}}
  relative:
    count: 2
    scenario: roles
    refer: {{en: "my {{relation}}"}}
    attributes:
      relation:
        type: categorical
        values: [mother, father]
        distinct: true
        dist: {{kind: categorical}}
      hobby:
        type: categorical
        values: [h1, h2, h3]
        dist: {{kind: categorical}}
        changes: {{p: {p}, at_least: {at_least}, cause: new interest}}
"""

SETTINGS = settings(
    max_examples=25, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)


def profiles(p: float, times: int, p_after: float, at_least: int, seed: int) -> list[Profile]:
    text = SCHEMA.format(p=p, times=times, p_after=p_after, at_least=at_least)
    return sample_profiles(BRNet(parse_schema(text)), seed, 40)


@SETTINGS
@given(
    p=st.sampled_from([0.0, 0.3, 0.8, 1.0]),
    times=st.integers(1, 3),
    p_after=st.sampled_from([0.0, 1.0]),
    at_least=st.integers(0, 1),
    seed=st.integers(0, 2**16),
)
def test_histories_keep_their_guarantees(
    p: float, times: int, p_after: float, at_least: int, seed: int
) -> None:
    for profile in profiles(p, times, p_after, at_least, seed):
        events = {c.id: c for c in profile.changes}
        for entity in profile.entities:
            for fact in entity.facts.values():
                if not fact.history:
                    continue
                assert fact.history[0].value == fact.value and fact.history[0].since is None
                steps = fact.history[1:]
                assert steps, fact
                days = [dt.datetime.fromisoformat(str(s.since)) for s in steps]
                assert days == sorted(days)
                assert all(
                    (b.date() - a.date()).days >= MIN_GAP_DAYS for a, b in itertools.pairwise(days)
                )
                assert all(dt.date(2024, 3, 1) < d.date() <= dt.date(2024, 8, 31) for d in days)
                values = [s.value for s in fact.history]
                assert all(a != b for a, b in itertools.pairwise(values)), values
                if fact.attribute == "weight":
                    assert all(50 <= int(v) <= 60 for v in values)
                    assert all(0 < abs(int(b) - int(a)) <= 4 for a, b in itertools.pairwise(values))
                if fact.attribute == "job":
                    assert "d" not in values  # a value its distribution never gives
                for k, step in enumerate(steps, start=1):
                    event = events[str(step.event_id)]
                    assert (event.before, event.after) == (values[k - 1], values[k])
                    assert event.time == step.since and event.fact == fact.id
        if at_least:
            assert len(profile.fact("user.weight").history) >= 2
            assert all(len(e.facts["hobby"].history) >= 2 for e in profile.of_kind("relative"))
        if p == 0.0 and not at_least:
            assert not profile.changes


def test_a_change_may_follow_another() -> None:
    followed = 0
    for profile in profiles(0.5, 1, 1.0, 0, 3):
        job, city = profile.fact("user.job"), profile.fact("user.city")
        if len(job.history) > 1 and len(city.history) > 1:
            gap = dt.datetime.fromisoformat(str(city.history[1].since)) - dt.datetime.fromisoformat(
                str(job.history[1].since)
            )
            followed += 1 <= gap.days <= 31
    assert followed > 0


def test_histories_are_the_same_however_profiles_are_batched() -> None:
    text = SCHEMA.format(p=0.7, times=3, p_after=0.5, at_least=1)
    net = BRNet(parse_schema(text))
    whole = sample_profiles(net, 5, 30)
    tail = sample_profiles(net, 5, 10, start=20)
    assert [p.to_json() for p in whole[20:]] == [p.to_json() for p in tail]


@settings(max_examples=200, derandomize=True)
@given(
    weights=st.lists(st.floats(0.0, 1.0), min_size=2, max_size=12).filter(lambda w: sum(w) > 0),
    seed=st.integers(0, 2**32 - 1),
)
def test_choice_is_numpys_choice_from_the_same_stream(weights: list[float], seed: int) -> None:
    """A draw by ``choice_cdf`` skips numpy's argument checks, not its draw: the same
    index, and the stream left where numpy leaves it."""
    p = np.array(weights) / sum(weights)
    cdf = choice_cdf(p)
    ours, numpys = np.random.default_rng(seed), np.random.default_rng(seed)
    for _ in range(5):
        assert bisect_right(cdf, ours.random()) == int(numpys.choice(len(p), p=p))
    assert ours.random() == numpys.random()


@given(seed=st.integers(0, 2**70), index=st.integers(0, 2**33))
@settings(max_examples=60, deadline=None)
def test_the_set_stream_is_the_seed_sequence_childs(seed: int, index: int) -> None:
    """The generator the sampler sets from batch-computed words draws what
    ``change_rng`` (a fresh generator from the SeedSequence) draws."""
    words = spawned_states(seed, index, index + 1, (CHANGE_STREAM,), 4)[0].tolist()
    state, increment = pcg64_state(words)
    bits = np.random.PCG64(0)
    bits.state = {
        "bit_generator": "PCG64",
        "state": {"state": state, "inc": increment},
        "has_uint32": 0,
        "uinteger": 0,
    }
    ours, reference = np.random.Generator(bits), change_rng(seed, index)
    assert ours.integers(0, 365, size=5).tolist() == reference.integers(0, 365, size=5).tolist()
    assert ours.random(3).tolist() == reference.random(3).tolist()


def test_changes_are_the_same_one_profile_at_a_time() -> None:
    net = BRNet(parse_schema(SCHEMA.format(p=0.7, times=3, p_after=0.8, at_least=1)))
    sampler = ProfileSampler(net)
    profiles = build_profiles(net, sampler.sample_batch(5, 10, 60))
    together = ChangeSampler(net).apply_all(list(profiles), 5)
    alone = [ChangeSampler(net).apply(p, 5) for p in profiles]
    assert together == alone
    assert any(p.changes for p in together)
