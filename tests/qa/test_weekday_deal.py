"""Post-processing transforms and weekday answers are dealt (memsim.qa.post_processing):
the transform from a deck over consecutive trajectories, and a weekday question's
answer from a deck over the weekday questions, the next weekday the profile has when it
has not the dealt one. Farm's three market days (tests/data/farm.en.yaml): drawn, one
seed put "Sunday" as the answer of 11 of the 22 questions that offered it."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from functools import cache
from pathlib import Path

import numpy as np

from memsim.profile import Profile
from memsim.qa import QAContext, make_context
from memsim.qa._registry import QA_KINDS
from memsim.qa._strata import deck, stratum
from memsim.qa._types import Draft
from memsim.qa.post_processing import WEEKDAY_DECK, available
from memsim.sampling import ProfileSampler
from memsim.schema import load_schema

ROOT = Path(__file__).resolve().parents[2]
N = 420


@cache
def farm() -> tuple[QAContext, list[Profile]]:
    ctx = make_context(load_schema(ROOT / "tests" / "data" / "farm.en.yaml"), 0)
    return ctx, list(ProfileSampler(ctx.net).profiles(0, 0, N))


def _drafts(dealt: bool) -> list[tuple[int, Profile, Draft]]:
    ctx, profiles = farm()
    out = []
    for tid, profile in enumerate(profiles):
        rng = np.random.default_rng(tid)
        for attempt in range(100):
            if dealt:
                with stratum(0, tid, attempt):
                    draft = QA_KINDS.get("post_processing").make(ctx, profile, "events", rng)
            else:
                draft = QA_KINDS.get("post_processing").make(ctx, profile, "events", rng)
            if draft is not None:
                out.append((tid, profile, draft))
                break
    assert len(out) == N
    return out


def _weekdays(profile: Profile) -> set[int]:
    return {
        dt.date.fromisoformat(str(e.facts["day"].value)[:10]).weekday()
        for e in profile.entities
        if e.kind == "market"
    }


def test_transforms_come_out_in_equal_shares_and_weekdays_as_dealt() -> None:
    ctx, profiles = farm()
    names = available(ctx, [e for e in profiles[0].entities if e.scenario == "events"])
    # the market's stall number ("A-12") has too few digits for a digit sum: not offered
    assert names == ["difference", "days_between", "weekday"]
    drafts = _drafts(True)
    counts = Counter(d.transform for _, _, d in drafts)
    assert max(counts.values()) - min(counts.values()) <= 3, counts
    week = ctx.loc.calendar.weekdays
    weekday = [(tid, p, d) for tid, p, d in drafts if d.transform == "weekday"]
    for _, profile, draft in weekday:  # every answer is right: a market's weekday
        assert week.index(draft.answer) in _weekdays(profile)
    # the weekday questions take the cards of one deck of seven in turn (one per deck
    # of transforms); a profile is asked the dealt weekday, else the next one it has
    for tid, profile, draft in weekday:
        place = tid // len(names)
        card = deck(0, WEEKDAY_DECK, place // 7, 7)[place % 7]
        has = _weekdays(profile)
        expected = next((card + k) % 7 for k in range(7) if (card + k) % 7 in has)
        assert week.index(draft.answer) == expected, (tid, card, has, draft.answer)


def test_weekday_answers_stray_less_than_drawn() -> None:
    def spread(drafts: list[tuple[int, Profile, Draft]]) -> float:
        answers = Counter(d.answer for _, _, d in drafts if d.transform == "weekday")
        values = np.array(list(answers.values()), dtype=float)
        return float(((values - values.mean()) ** 2 / values.mean()).sum())

    assert spread(_drafts(True)) < spread(_drafts(False))
