"""A fourth held-out domain (tests/data/farm.en.yaml: a farmer, hands and buyers pooled
apart, three fields, three market days, a tractor whose engine hours change), written
from the README alone. It found that comparisons and counts were asked only of people
and events, and the history kinds only of the user and people; now three fields are
compared and counted, and a tractor's changing hours are asked as knowledge updates and
temporal questions, with no error in the audit."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from memsim.qa import planned_scenarios
from tests.integration._domain_run import run_domain

ROOT = Path(__file__).resolve().parents[2]
FARM = ROOT / "tests" / "data" / "farm.en.yaml"


def test_fields_and_the_tractor_are_compared_counted_and_asked_about_over_time(
    tmp_path: Path,
) -> None:
    schema, records = run_domain(FARM, tmp_path, 10)
    assert "places" in planned_scenarios(schema, "comparative")
    assert "places" in planned_scenarios(schema, "aggregative")
    assert "items" in planned_scenarios(schema, "knowledge_update")
    assert "items" in planned_scenarios(schema, "temporal")
    asked = Counter((r["type"], r["scenario"]) for r in records)
    for cell in [
        ("comparative", "places"),
        ("aggregative", "places"),
        ("knowledge_update", "items"),
        ("temporal", "items"),
    ]:
        assert asked[cell] >= 1, cell
    asks = {(r["type"], r["QA"]["question"]) for r in records}
    assert any("field" in q for kind, q in asks if kind == "comparative")
    assert any("tractor" in q for kind, q in asks if kind == "temporal")
    # "{who} is on {value}." with a date-time said "on May 3, ..." reads once
    messages = [m["message"] for r in records for m in r["message_list"]]
    assert not [m for m in messages if re.search(r"\b(on|at|in) \1\b", m)]
