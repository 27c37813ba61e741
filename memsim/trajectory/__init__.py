"""Stage 4: trajectories (shuffled, timed, placed messages around a question)."""

from memsim.trajectory._build import MESSAGES_PER_TRAJECTORY, WAKING, build_trajectory

__all__ = ["MESSAGES_PER_TRAJECTORY", "WAKING", "build_trajectory"]
