"""A distractor said as someone else's in a ``hearsay_of`` line ("A friend of mine told
me their {label} is {value}.") reads as the locale's sentence: a date-time is the
object of "is", so it is said without the preposition its option carries (a held-out
astronomy schema read "their star party's start time is on September 14, 2025 at 8:30
PM"; dom14)."""

from __future__ import annotations

import re
import shutil
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


def _campus_without_time_role(tmp_path: Path, locale: str) -> Path:
    """campus with its exam time an ordinary date-time (no ``role: time``), so a line
    names it by its label, not as the exam itself; the overlay beside it."""
    src = ROOT / "schemas" / f"campus.{locale}.yaml"
    text = src.read_text(encoding="utf-8")
    plain = re.sub(r"(\n      time:\n        type: datetime\n)        role: time\n", r"\1", text)
    assert plain != text
    shutil.copytree(ROOT / "schemas" / "overlays", tmp_path / "overlays")
    (tmp_path / src.name).write_text(plain, encoding="utf-8")
    return tmp_path / src.name


@pytest.mark.parametrize("locale", ["en", "zh"])
def test_a_date_time_is_said_without_its_preposition_after_is(tmp_path: Path, locale: str) -> None:
    ctx = make_context(load_schema(_campus_without_time_role(tmp_path, locale)), 0)
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


def test_an_event_told_by_its_time_keeps_its_preposition() -> None:
    # a time (role: time) is told as the event itself: "their exam is on May 3, 2025"
    ctx = make_context(load_schema(ROOT / "schemas" / "campus.en.yaml"), 0)
    profile = next(iter(ProfileSampler(ctx.net).profiles(0, 0, 1)))
    item = Hearsay(value="on May 3, 2025 at 9:00 PM", label="exam", kind="exam", attribute="time")
    for seed in range(12):
        (line,) = hearsay_lines(ctx, profile, [item], np.random.default_rng(seed))
        assert " is on May 3, 2025 at 9:00 PM" in line, line


def test_only_a_leading_preposition_of_time_is_dropped() -> None:
    loc = make_context(load_schema(ROOT / "schemas" / "campus.en.yaml"), 0).loc
    assert without_time_preposition(loc, "on May 3, 2025 at 9:00 PM") == "May 3, 2025 at 9:00 PM"
    assert without_time_preposition(loc, "tomorrow at 9:00 PM") == "tomorrow at 9:00 PM"
    assert without_time_preposition(loc, "May 3, 2025") == "May 3, 2025"
    assert without_time_preposition(loc, "on") == "on"
