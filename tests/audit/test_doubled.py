"""Doubled words ("is on on May 3"): the audit's ``doubled_words`` check finds none in
a farm dataset (whose market days are phrased "{who} is on {value}.", next to a date-time
said with its own "on") and one warning per doubled word written into it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memsim.audit import load_context, open_source, run_audit
from memsim.audit._doubled import doubled
from tests.audit.conftest import generate

ROOT = Path(__file__).resolve().parents[2]
FARM = ROOT / "tests" / "data" / "farm.en.yaml"
CHECK = "doubled_words"


@pytest.fixture(scope="module")
def farm(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return generate(tmp_path_factory.mktemp("doubled"), FARM, 30, 10, "simple,temporal,noisy")


def _audit(dataset: Path, base: Path) -> tuple[dict[str, int], list[str]]:
    ctx = load_context(open_source(dataset), profiles=base / "p", schema=FARM)
    result = run_audit(ctx, [CHECK]).results[CHECK]
    return dict(result.stats.counts), [f.message for f in result.findings]


def test_the_farm_dataset_says_no_word_twice(farm: Path) -> None:
    lines = (farm / "d" / "dataset.jsonl").read_text(encoding="utf-8").splitlines()
    said = [m["message"] for line in lines for m in json.loads(line)["message_list"]]
    assert [m for m in said if "market day is on " in m]  # the phrasing is used
    counts, findings = _audit(farm / "d", farm)
    assert counts["texts read"] > 300
    assert findings == []


def test_a_doubled_word_written_in_is_one_warning(farm: Path) -> None:
    records = [json.loads(x) for x in (farm / "d" / "dataset.jsonl").read_text().splitlines()]
    records[3]["message_list"][1]["message"] = "The Ames market day is on on May 3, 2025."
    tampered = farm / "tampered"
    tampered.mkdir(exist_ok=True)
    (tampered / "manifest.json").write_text((farm / "d" / "manifest.json").read_text())
    (tampered / "dataset.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    counts, findings = _audit(tampered, farm)
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
