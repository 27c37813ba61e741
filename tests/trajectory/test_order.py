"""Where the evidence stands in a trajectory is a uniform shuffle drawn from the
builder's stream and the number of messages alone: the question drafted (its facts, a
card dealt to it, the draws that choose its filler and noise) does not move it."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np

from memsim.qa import QA_KINDS, make_context
from memsim.sampling import ProfileSampler
from memsim.schema import load_schema
from memsim.trajectory import build_trajectory

ROOT = Path(__file__).parents[2]
SCHEMA = ROOT / "schemas" / "daily_life.en.yaml"


def test_the_evidence_position_depends_on_the_stream_and_the_count_alone() -> None:
    ctx = make_context(load_schema(SCHEMA), 0, ("simple",))
    kind = QA_KINDS.get("simple")
    drafts = np.random.default_rng(1)
    seen: Counter[tuple[int, int]] = Counter()
    checked = 0
    for profile in ProfileSampler(ctx.net).profiles(12, 0, 30):
        for scenario in ("roles", "events", "items", "places"):
            draft = kind.make(ctx, profile, scenario, drafts)
            if draft is None:
                continue
            seed = checked % 3  # three streams, each shared by drafts of every kind
            messages, _ = build_trajectory(ctx, profile, draft, np.random.default_rng(seed))
            first = int(np.random.default_rng(seed).integers(2**63))
            order = np.random.default_rng(first).permutation(len(messages))
            # the first evidence fact is the first unit built: it goes where 0 is drawn
            evidence = [i for i, m in enumerate(messages) if m.role == "evidence"]
            assert evidence[0] == int(np.flatnonzero(order == 0)[0])
            seen[(seed, len(messages))] += 1
            checked += 1
    assert checked >= 80
    assert max(seen.values()) >= 5  # drafts of different questions shared a stream and a count
