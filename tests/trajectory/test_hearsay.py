"""A distractor said as someone else's in a ``hearsay_of`` line ("A friend of mine told
me their {label} is {value}.") reads as the locale's sentence: a date-time is the
object of "is", so it is said without the preposition its option carries (a held-out
astronomy schema read "their star party's start time is on September 14, 2025 at 8:30
PM"; dom14)."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from memsim.dataset import make_context
from memsim.qa import Hearsay
from memsim.sampling import ProfileSampler
from memsim.schema import load_schema
from memsim.trajectory._hearsay import hearsay_lines
from memsim.verbalize import without_time_preposition

ROOT = Path(__file__).parents[2]


@pytest.mark.parametrize("locale", ["en", "zh"])
def test_a_date_time_is_said_without_its_preposition_after_is(locale: str) -> None:
    ctx = make_context(load_schema(ROOT / "schemas" / f"campus.{locale}.yaml"), 0)
    profile = next(iter(ProfileSampler(ctx.net).profiles(0, 0, 1)))
    option = "on May 3, 2025 at 9:00 PM" if locale == "en" else "2025年5月3日晚上9点"
    item = Hearsay(value=option, label="exam's time", kind="exam", attribute="time")
    for seed in range(12):  # every hearsay_of line of the locale
        (line,) = hearsay_lines(ctx, profile, [item], np.random.default_rng(seed))
        if locale == "en":
            assert " is May 3, 2025 at 9:00 PM" in line, line
            assert not re.search(r"\bis on\b", line), line
        else:
            assert option in line, line


def test_only_a_leading_preposition_of_time_is_dropped() -> None:
    loc = make_context(load_schema(ROOT / "schemas" / "campus.en.yaml"), 0).loc
    assert without_time_preposition(loc, "on May 3, 2025 at 9:00 PM") == "May 3, 2025 at 9:00 PM"
    assert without_time_preposition(loc, "tomorrow at 9:00 PM") == "tomorrow at 9:00 PM"
    assert without_time_preposition(loc, "May 3, 2025") == "May 3, 2025"
    assert without_time_preposition(loc, "on") == "on"
