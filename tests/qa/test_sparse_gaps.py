"""A difference of a wide integer (two rents of 800-12,000 yuan) is asked: its exact
share over the pool's pairs held few of the gaps a profile has, so every draw was
rejected and ``generate`` failed after 400 draws on a held-out game developer's venues,
where ``validate`` had passed. Such a share is now read from a histogram."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np

from memsim.dataset import make_context
from memsim.qa import QA_KINDS
from memsim.qa._numeric import flat_options, smoothed, unseen_mass
from memsim.sampling import ProfileSampler
from memsim.schema import load_schema

DATA = Path(__file__).parents[1] / "data"


def test_a_sparse_share_is_smoothed_over_every_gap_in_its_range() -> None:
    rng = np.random.default_rng(0)
    gaps = Counter(int(g) for g in np.abs(rng.integers(800, 12000, (1000, 2)) @ [1, -1]))
    assert unseen_mass(gaps) > 0.5
    share = smoothed(gaps)
    assert list(share) == list(range(min(gaps), max(gaps) + 1))
    assert abs(sum(share.values()) - 1) < 1e-9
    unseen = next(v for v in range(min(gaps), max(gaps)) if v not in gaps)
    assert share[unseen] > 0
    assert flat_options(unseen, share, np.random.default_rng(1)) is not None or any(
        flat_options(unseen, share, np.random.default_rng(s)) for s in range(50)
    )
    dense = Counter(int(g) for g in np.abs(rng.integers(20, 60, (5000, 2)) @ [1, -1]))
    assert unseen_mass(dense) < 0.01  # an age gap keeps its exact share


def test_the_rent_difference_of_three_venues_is_asked() -> None:
    ctx = make_context(load_schema(DATA / "gamedev.zh.yaml"), 0)
    kind = QA_KINDS.get("post_processing")
    rng = np.random.default_rng(0)
    drafts = [kind.make(ctx, p, "places", rng) for p in ProfileSampler(ctx.net).profiles(0, 0, 60)]
    made = [d for d in drafts if d is not None]
    assert len(made) >= 52, len(made)  # before: 47 of 60 (one call each)
    assert all(d.transform == "difference" and d.answer.endswith("元") for d in made)
