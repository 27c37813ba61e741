"""The audit's ``hybrid_parts_apart`` check: no hybrid of a generated daily-life dataset
has two parts resting on one fact, and a hybrid whose second part is made to rest on a
fact of the first (as "counting my relatives' ages" beside "counting me and my
relatives" did) is one error."""

from __future__ import annotations

from pathlib import Path

import pytest

from memsim.audit._apart import shared_facts
from tests.audit.conftest import audit_check, generate, generated_records, tampered

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = ROOT / "schemas" / "daily_life.en.yaml"
CHECK = "hybrid_parts_apart"


@pytest.fixture(scope="module")
def daily(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return generate(tmp_path_factory.mktemp("apart"), SCHEMA, 60, 24, "aggregative")


def _audit(dataset: Path, base: Path) -> tuple[dict[str, int], list[str]]:
    return audit_check(dataset, base, SCHEMA, CHECK)


def test_generated_hybrids_rest_on_facts_apart(daily: Path) -> None:
    counts, findings = _audit(daily / "d", daily)
    assert counts["hybrids"] >= 4
    assert findings == []


def test_parts_sharing_a_fact_are_an_error(daily: Path) -> None:
    records = generated_records(daily)
    i = next(i for i, r in enumerate(records) if r["scenario"] == "hybrid")
    first, second = records[i]["QA"]["provenance"]["params"]["parts"]
    assert not shared_facts(records[i]["QA"]["provenance"])
    second["fact_ids"] = [*second["fact_ids"], first["fact_ids"][0]]
    counts, findings = _audit(tampered(daily, records), daily)
    assert counts["hybrids whose parts share a fact"] == 1
    assert len(findings) == 1 and first["fact_ids"][0] in findings[0]
