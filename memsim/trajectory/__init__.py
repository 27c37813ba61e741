"""Stage 4: trajectories (shuffled, timed, placed messages around a question)."""

from __future__ import annotations

import datetime as dt

import numpy as np

from memsim.profile import Profile
from memsim.qa import Draft, Message, QAContext
from memsim.trajectory._build import WAKING
from memsim.trajectory._build import build_trajectory as _build_clocked
from memsim.trajectory._rates import MESSAGES_PER_TRAJECTORY
from memsim.trajectory._timed import build_timed_trajectory, waking_minute


def build_trajectory(
    ctx: QAContext, profile: Profile, draft: Draft, rng: np.random.Generator
) -> tuple[list[Message], dt.datetime]:
    """The messages of one trajectory and the time the question is asked: over the
    span a draft that reads histories fixes, else over a clock of a few days."""
    if draft.span is not None:
        return build_timed_trajectory(ctx, profile, draft, rng)
    return _build_clocked(ctx, profile, draft, rng)


__all__ = [
    "MESSAGES_PER_TRAJECTORY",
    "WAKING",
    "build_timed_trajectory",
    "build_trajectory",
    "waking_minute",
]
