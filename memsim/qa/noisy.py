"""Noisy questions: a simple question wrapped in chit-chat, asked over a trajectory
that also holds noise messages.

Guarantees: everything simple questions guarantee; noise messages are real facts of
other sampled profiles about entities this profile does not have (so they look
exactly like real messages and never contradict the answer); the preface is
chit-chat that names no entity.
"""

from __future__ import annotations

import numpy as np

from memsim.qa._context import USER_TOO, QAContext
from memsim.qa._registry import qa_kind
from memsim.qa._types import Draft

NOISE_MESSAGES = (2, 5)
"""Noise messages per noisy trajectory: uniform in [2, 5]."""


@qa_kind("noisy", USER_TOO, base="simple")  # type: ignore[arg-type]  # wraps a Draft
def noisy(ctx: QAContext, base: Draft, scenario: str, rng: np.random.Generator) -> Draft | None:
    preface = ctx.choose(ctx.loc.questions.noisy_preface, rng)
    return Draft(
        **{
            **base.__dict__,
            "kind": "noisy",
            "question": preface.format(question=base.question),
            "params": {
                **base.params,
                "noise": int(rng.integers(NOISE_MESSAGES[0], NOISE_MESSAGES[1] + 1)),
            },
        }
    )
