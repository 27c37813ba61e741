"""Questions over a group ("how many of my relatives and colleagues ..."): the audit's
``group_closed`` check finds no message that states the asked attribute of someone
outside the group on a generated daily-life dataset, and one error for each such message
written into it: another life's relative (a noise fact id) or one of the profile's own
entities of the group's kinds left out of the group."""

from __future__ import annotations

from pathlib import Path

import pytest

from memsim.audit._closed import groups, outsider
from tests.audit.conftest import audit_check, generate, generated_records, tampered

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = ROOT / "schemas" / "daily_life.en.yaml"
CHECK = "group_closed"


@pytest.fixture(scope="module")
def daily(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return generate(tmp_path_factory.mktemp("closed"), SCHEMA, 40, 12, "aggregative,temporal")


def _audit(dataset: Path, base: Path) -> tuple[dict[str, int], list[str]]:
    return audit_check(dataset, base, SCHEMA, CHECK)


def test_generated_groups_hear_only_their_members(daily: Path) -> None:
    counts, findings = _audit(daily / "d", daily)
    assert counts["questions over a group"] >= 12  # every count question, hybrids too
    assert findings == []


def test_an_outsider_said_of_the_asked_attribute_is_an_error(daily: Path) -> None:
    records = generated_records(daily)
    i, record = next(
        (i, r) for i, r in enumerate(records) if r["QA"]["provenance"]["transform"] == "count"
    )
    params = record["QA"]["provenance"]["params"]
    kind = params["entities"][-1].split("[")[0]
    attribute = params["attribute"]
    said = dict(record["message_list"][0])
    said.update(
        mid=99,
        role="noise",
        message="My uncle is 61 years old.",
        facts=[f"p1001000070:{kind}[1].{attribute}"],
    )
    records[i]["message_list"].append(said)
    counts, findings = _audit(tampered(daily, records), daily)
    assert counts["messages stating an outsider"] == 1
    assert len(findings) == 1 and f"p1001000070:{kind}[1].{attribute}" in findings[0]


def test_outsider() -> None:
    members = frozenset({"user", "relative[0]", "colleague[1]"})
    assert outsider("p000007:relative[3].age", members, "age")  # another life's relative
    assert outsider("colleague[0].age", members, "age")  # left out of the group
    assert outsider("p000007:user.age", members, "age")  # another life's "I"
    assert not outsider("relative[0].age", members, "age")  # a member
    assert not outsider("colleague[0].height", members, "age")  # another attribute
    assert not outsider("p000007:item[0].age", members, "age")  # no kind of the group


def test_groups_reads_hybrid_parts() -> None:
    part = {"transform": "count", "params": {"entities": ["relative[0]"], "attribute": "age"}}
    other = {"transform": "compare", "params": {"first": "user", "attribute": "age"}}
    hybrid = {"transform": "hybrid", "params": {"parts": [part, other]}}
    assert list(groups(hybrid)) == [(frozenset({"relative[0]"}), "age")]
    assert list(groups(part)) == [(frozenset({"relative[0]"}), "age")]
    assert list(groups(other)) == []
