"""Whether an aggregative question asks its predicate's likeliest count (the option
prior's pick when the options are the four counts 0-3) is dealt per count
(memsim.qa._counts.deal_top): the fitted strengths made it a quarter of the questions
over the pool only, and tour's roles (seed 1) asked the likeliest count in 17 of 34."""

from __future__ import annotations

from functools import cache

import numpy as np

from memsim.profile import Profile
from memsim.qa import QAContext
from memsim.qa._counts import TOP, top_share
from memsim.qa._types import Draft
from memsim.qa.aggregative import eligible
from tests.qa._drafting import first_drafts, held_out

N = 200


@cache
def tour() -> tuple[QAContext, list[Profile]]:
    return held_out("tour.en.yaml", 1, N)


def _likeliest(ctx: QAContext, profile: Profile, draft: Draft) -> float:
    """1 when the answer is the predicate's likeliest count by pool share (shared
    among ties), else 0."""
    params = draft.params
    group = [profile.entity(str(e)) for e in params["entities"]]  # type: ignore[attr-defined]
    share = next(
        s
        for op, t, s in eligible(ctx, group, str(params["attribute"]))
        if op == params["op"] and t == params["threshold"]
    )
    probs = np.array([share[int(o)] for o in draft.options])
    top = probs == probs.max()
    return float(top[0] / top.sum())


def _hits(scenario: str, dealt: bool) -> list[float]:
    ctx, profiles = tour()
    drafts = first_drafts(ctx, profiles, "aggregative", scenario, dealt=dealt, seed=1, attempts=50)
    out = [_likeliest(ctx, p, d) for p, d in zip(profiles, drafts, strict=True)]
    return out


def test_the_likeliest_count_is_asked_a_quarter_of_the_time_in_every_run() -> None:
    for scenario in ("roles", "events"):
        hits = _hits(scenario, True)
        assert abs(np.mean(hits) - TOP) < 0.04, (scenario, np.mean(hits))
        # runs of 40 consecutive questions (a kind's scenario at 200 per kind)
        runs = [np.mean(hits[i : i + 40]) for i in range(0, N, 40)]
        assert max(runs) <= 0.4, (scenario, runs)


def test_dealt_runs_stray_less_than_drawn_ones() -> None:
    dealt, drawn = _hits("roles", True), _hits("roles", False)

    def stray(hits: list[float]) -> float:
        return float(np.std([np.mean(hits[i : i + 20]) for i in range(0, N, 20)]))

    assert stray(dealt) < stray(drawn), (stray(dealt), stray(drawn))


def test_top_share_solves_for_a_quarter() -> None:
    # two pool groups, one count (0) asked of both, three candidates: candidate 0 gives
    # group 0 its likeliest count, candidates 1 and 2 give both groups other ranks
    counts = np.array([[0, 0, 0], [1, 0, 0]])
    table = np.ones((3, 2))
    asked = np.array([[1.0, 0.0], [1.0, 0.0]])
    rank = np.array([[0, 1], [1, 0], [2, 1]])
    # group 0 can be asked the likeliest (a) or not (b), group 1 only not: the likeliest
    # comes up u / 2 of the time, so u = 0.5
    assert top_share(counts, table, asked, rank) == 0.5
    # no group can be asked the likeliest: the share is moot (the default)
    assert top_share(counts, table, asked, np.full((3, 2), 1)) == TOP
