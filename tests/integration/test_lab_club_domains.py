"""Two more held-out domains written from the README alone: a research lab member
(tests/data/lab.en.yaml: the user kind is `researcher`, pooled with a PI and labmates
apart from outside collaborators; instruments and datasets; experiments and conference
deadlines; a grant, weekly bookings and fees that change by steps; derived career stage,
standing and size in terabytes; an inline overlay with the lab's small talk, prefaces and
question wording) and a badminton club member in Chinese (tests/data/club.zh.yaml:
`member`, coaches apart from partners, matches and lessons as two event kinds, rackets
whose string tension changes, a hall). They found that post-processing never asked items
or places (the instruments' service dates, the datasets' sizes), that counting the user
counted people of every pool, and that a kind of one entity was named in the plural
("me and my PIs and labmates"); each is checked here end to end, with no audit error."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from memsim.qa import planned_scenarios
from tests.integration._domain_run import run_domain, said

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"
DAILY = ("coworker", "colleague", "relative", "father", "mother", "boss", "同事", "亲戚")


def test_the_lab_asks_its_instruments_and_counts_the_researcher_with_the_lab(
    tmp_path: Path,
) -> None:
    schema, records = run_domain(DATA / "lab.en.yaml", tmp_path, 8)
    assert "items" in planned_scenarios(schema, "post_processing")
    assert "user" in planned_scenarios(schema, "aggregative")
    asked = Counter((r["type"], r["scenario"]) for r in records)
    assert asked[("post_processing", "items")] >= 1
    counting_me = [r["QA"]["question"] for r in records if r["type"] == "aggregative"]
    counting_me = [q for q in counting_me if q.startswith("Counting me")]
    assert counting_me and all("my PI and labmates" in q for q in counting_me)
    texts = said(records)
    assert not [t for t in texts if any(w in t.lower() for w in DAILY)]
    assert any("grant" in t for t in texts) and any("the lab's" in t for t in texts)
    assert any("seminar" in t or "plots" in t or "group meeting" in t for t in texts)


def test_the_club_reads_as_a_badminton_club_in_chinese(tmp_path: Path) -> None:
    schema, records = run_domain(DATA / "club.zh.yaml", tmp_path, 8)
    assert "items" in planned_scenarios(schema, "post_processing")
    assert "user" in planned_scenarios(schema, "aggregative")
    texts = said(records)
    assert not [t for t in texts if any(w in t for w in DAILY)]
    assert any("球拍" in t for t in texts) and any("教练" in t for t in texts)
    assert any("算上我和我的球友" in t for t in texts)
