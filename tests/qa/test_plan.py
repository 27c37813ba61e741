"""The plan asks a kind about a scenario only when the schema lets every profile be
asked it (qa._plan): a schema that cannot ask the user plans no question about the user,
so a planned question never has to fall back to another scenario (which broke the
MemDaily layout's blocks of one type and scenario)."""

from __future__ import annotations

import subprocess
import sys
from itertools import groupby
from pathlib import Path

import pytest

from memsim.dataset import GenerateOptions, GenerationError, plan
from memsim.qa import KIND_ORDER, QA_KINDS, default_kinds, planned_scenarios, scenario_reasons
from memsim.schema import Schema, parse_schema

ROOT = Path(__file__).resolve().parents[2]
SCHEMAS = ROOT / "schemas"


def _load(name: str) -> Schema:
    path = SCHEMAS / name
    return parse_schema(path.read_text(encoding="utf-8"), str(path))


@pytest.mark.parametrize("name", ["daily_life.en.yaml", "daily_life.zh.yaml"])
def test_daily_life_plans_every_scenario_of_every_kind(name: str) -> None:
    schema = _load(name)
    # one item and one place (nothing to compare or count), and nothing but the user's
    # and the people's facts changes (no history of an item, a place or an event)
    left_out = {
        "comparative": ("items", "places"),
        "aggregative": ("items", "places"),
        "knowledge_update": ("items", "places", "events"),
        "temporal": ("items", "places"),
        "post_processing": ("items", "places"),  # one item's price: no difference
    }
    for kind in KIND_ORDER:
        everything = QA_KINDS.get(kind).all_scenarios
        everything = tuple(s for s in everything if s not in left_out.get(kind, ()))
        assert planned_scenarios(schema, kind) == everything
        reasons = scenario_reasons(schema, kind)
        assert all(reasons[s] for s in QA_KINDS.get(kind).all_scenarios if s not in everything)
    steps = plan(GenerateOptions(per_type=30, types=KIND_ORDER), schema)
    for kind in KIND_ORDER:
        assert {s for k, s in steps if k == kind} == set(planned_scenarios(schema, kind))


def test_campus_plans_no_comparison_or_count_of_the_user() -> None:
    schema = _load("campus.en.yaml")
    reasons = scenario_reasons(schema, "comparative")
    assert "pool" in str(reasons["user"])  # instructors and classmates pool apart
    assert "user" not in planned_scenarios(schema, "aggregative")
    assert "user" in planned_scenarios(schema, "knowledge_update")
    assert default_kinds(schema) == KIND_ORDER
    steps = plan(GenerateOptions(per_type=20, types=KIND_ORDER), schema)
    assert len(steps) == 20 * len(KIND_ORDER)
    blocks = [key for key, _ in groupby(steps)]
    assert len(blocks) == len(set(blocks))  # each (kind, scenario) is one contiguous block
    assert ("comparative", "user") not in blocks
    assert ("comparative", "roles") in blocks


def test_history_kinds_need_an_attribute_that_always_changes() -> None:
    text = (SCHEMAS / "campus.en.yaml").read_text(encoding="utf-8")
    text = text.replace("at_least: 1, ", "")
    schema = parse_schema(text, "campus.yaml")
    why = scenario_reasons(schema, "knowledge_update")
    assert why["user"] is not None and "at_least: 1" in why["user"]
    assert "knowledge_update" not in default_kinds(schema)
    assert planned_scenarios(schema, "temporal") == ("events",)
    with pytest.raises(GenerationError, match="cannot ask knowledge_update"):
        plan(GenerateOptions(per_type=5, types=("knowledge_update",)), schema)


def test_validate_says_which_scenario_is_left_out_and_why(tmp_path: Path) -> None:
    text = (SCHEMAS / "campus.en.yaml").read_text(encoding="utf-8").replace("at_least: 1, ", "")
    path = tmp_path / "campus.en.yaml"
    path.write_text(text, encoding="utf-8")
    (tmp_path / "overlays").mkdir()
    (tmp_path / "overlays" / "campus.yaml").write_bytes(
        (SCHEMAS / "overlays" / "campus.yaml").read_bytes()
    )
    proc = subprocess.run(
        [sys.executable, "-m", "memsim", "schema", "validate", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    line = text.splitlines().index("  student:") + 2  # the kind's first key
    assert (
        f"{path}:{line}:5: warning: no knowledge_update question about user (so no question "
        "of that kind at all): no attribute always changes" in proc.stderr
    )
    assert f"{path}:{line}:5: warning: no comparative question about user" in proc.stderr


def test_a_scenario_whose_values_cannot_give_four_options_is_not_planned(tmp_path: Path) -> None:
    """A garden centre whose only asked attribute has 3 values cannot be asked a simple
    question (an answer and 3 distractors): the plan leaves places out of the one-fact
    kinds, so generation does not fail after 400 draws, and validate says why."""
    text = (ROOT / "tests" / "data" / "garden.en.yaml").read_text(encoding="utf-8")
    text = text.replace("[a tea room, a coffee bar, a farm shop cafe, no cafe]", "[a, b, c]")
    text = text[: text.index("      closing_hour:")]  # the numbers go: only the cafe is left
    path = tmp_path / "garden.en.yaml"
    path.write_text(text, encoding="utf-8")
    schema = parse_schema(text, str(path))
    for kind in ("simple", "conditional", "noisy", "abstention"):
        reason = scenario_reasons(schema, kind)["places"]
        assert reason is not None and "fewer than 4 values" in reason, (kind, reason)
    proc = subprocess.run(
        [sys.executable, "-m", "memsim", "schema", "validate", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0
    assert f"{path}:" in proc.stderr + proc.stdout
    assert "no simple question about places" in proc.stderr + proc.stdout


DATA = ROOT / "tests" / "data"


def _data(name: str) -> Schema:
    path = DATA / name
    return parse_schema(path.read_text(encoding="utf-8"), str(path))


def test_post_processing_asks_items_and_places_that_have_a_transform_to_take() -> None:
    # lab: two instruments (service dates: weekday, days between) and two datasets
    # (sizes: a difference) are asked; its one facility's hourly rate has no second
    # value to take a difference with, so places are left out, and validate says why
    lab = _data("lab.en.yaml")
    reasons = scenario_reasons(lab, "post_processing")
    assert reasons["items"] is None
    assert "two entities" in str(reasons["places"])  # said only if declared there
    # campus: one textbook's price and one study place's walk, no difference to take
    # (the check used to pass any transform, and generate would fail after 400 draws)
    campus = _load("campus.en.yaml")
    assert not {"items", "places"} & set(planned_scenarios(campus, "post_processing"))


def test_counting_the_user_counts_only_the_users_pool() -> None:
    # lab: the researcher is pooled with the PI and labmates, not the collaborators,
    # who have no time in the lab: counting "me and my PI and labmates" is planned
    lab = _data("lab.en.yaml")
    assert "user" in planned_scenarios(lab, "aggregative")
    club = _data("club.zh.yaml")  # the member and partners pool apart from the coaches
    assert "user" in planned_scenarios(club, "aggregative")


def test_a_digit_sum_needs_values_of_six_digits() -> None:
    # tour's studio: a door code of 4-5 digits ("%###") and one studio's rate and drive;
    # planned by any transform, generate failed after 400 draws of digit sums
    tour = _data("tour.en.yaml")
    assert "6 digits" in str(scenario_reasons(tour, "post_processing")["places"])
    # daily life's relatives' and colleagues' phones (10 digits) still are
    assert "roles" in planned_scenarios(_load("daily_life.en.yaml"), "post_processing")
