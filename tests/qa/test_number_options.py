"""A number's distractors in a history question (knowledge update, value on a day) stay
inside the values the kind takes: farm's hands earn 14-28 dollars an hour, raised to
about 31, under declared bounds of 12-40; fillers of 12 or 36 beside an answer near 20
let a blind reader pick "the option nearest the usual wage" (knowledge_update/roles at
seed 2: 0.576 of 33, z 4.2; 0.333 after)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from memsim.dataset import make_context
from memsim.qa._history import _number_options, _taken
from memsim.sampling import ProfileSampler
from memsim.schema import load_schema

DATA = Path(__file__).parents[1] / "data"


def test_fillers_stay_inside_the_values_the_kind_takes() -> None:
    ctx = make_context(load_schema(DATA / "farm.en.yaml"), 2)
    low, high = _taken(ctx, "hand", "wage")
    attr = ctx.schema.attributes_of("hand")["wage"]
    assert attr.min is not None and attr.max is not None
    assert attr.min < low and high < attr.max  # narrower than the declared bounds
    rng = np.random.default_rng(0)
    shown = 0
    for profile in ProfileSampler(ctx.net).profiles(0, 0, 40):
        for hand in (e for e in profile.entities if e.kind == "hand"):
            answer = int(str(hand.facts["wage"].value))
            for rank in range(4):
                options = _number_options(ctx, hand, "wage", answer, rng, rank)
                if options is None:
                    continue  # no room for this rank so near an end: drawn again
                numbers = [int(o.split()[0]) for o in options]
                assert numbers[0] == answer and len(set(numbers)) == 4
                assert sum(n < answer for n in numbers) == rank
                assert all(low <= n <= high for n in numbers), (numbers, low, high)
                shown += 1
    assert shown > 100
