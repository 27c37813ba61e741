"""Doubled words ("is on on May 3"): the audit's ``doubled_words`` check finds none in
a farm dataset (whose market days are phrased "{who} is on {value}.", next to a date-time
said with its own "on") and one warning per doubled word written into it."""

from __future__ import annotations

from pathlib import Path

import pytest

from memsim.audit._doubled import doubled
from tests.audit.conftest import audit_check, generate, generated_records, tampered

ROOT = Path(__file__).resolve().parents[2]
FARM = ROOT / "tests" / "data" / "farm.en.yaml"
CHECK = "doubled_words"


@pytest.fixture(scope="module")
def farm(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return generate(tmp_path_factory.mktemp("doubled"), FARM, 30, 10, "simple,temporal,noisy")


def _audit(dataset: Path, base: Path) -> tuple[dict[str, int], list[str]]:
    return audit_check(dataset, base, FARM, CHECK)


def test_the_farm_dataset_says_no_word_twice(farm: Path) -> None:
    said = [m["message"] for r in generated_records(farm) for m in r["message_list"]]
    assert [m for m in said if "market day is on " in m]  # the phrasing is used
    counts, findings = _audit(farm / "d", farm)
    assert counts["texts read"] > 300
    assert findings == []


def test_a_doubled_word_written_in_is_one_warning(farm: Path) -> None:
    records = generated_records(farm)
    records[3]["message_list"][1]["message"] = "The Ames market day is on on May 3, 2025."
    counts, findings = _audit(tampered(farm, records), farm)
    assert counts["texts with a doubled word"] == 1
    assert len(findings) == 1 and '"on on"' in findings[0]


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("It is on on May 3.", "on on"),
        ("The the field.", "The the"),
        ("My name is Martin Martin.", "Martin Martin"),
        ("I'm on it; on Monday.", None),
        ("Upon on May 3.", None),
        ("在在天天", None),
        ("the theatre", None),
    ],
)
def test_doubled(text: str, found: str | None) -> None:
    assert doubled(text) == found
