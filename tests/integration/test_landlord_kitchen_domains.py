"""Two more held-out domains written from the README alone: a small landlord
(tests/data/landlord.en.yaml: the user kind is `landlord`, pooled with three tenants
apart from two tradespeople; three buildings with a size class binned from the floor
area and a heating running cost looked up from the heating; three repairs with a
`role: time` phrased "booked for {value}"; a van whose mileage changes at its service;
a tenant's deposit derived from the rent; an inline overlay) and a restaurant chef in
Chinese (tests/data/kitchen.zh.yaml: `chef`, cooks apart from suppliers, signature
dishes whose weekly sales change, banquets, two branches). They found that a date-time
said with its own "on" after another preposition read "booked for on April 12, 2025",
that the audit read "red" in "I'm tired" and a comparison naming the user ("... or I?")
as a question giving its answer away, and that an elapsed answer's rank, drawn from the
trajectory's own seed, strayed alike in every schema (seed 0: the largest number the
answer 16 times in 36); each is checked here end to end, with no audit error."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from memsim.qa import planned_scenarios
from tests.integration._domain_run import DAILY_EN, DAILY_ZH, run_domain, said

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"


def test_the_landlord_reads_as_a_landlords_year(tmp_path: Path) -> None:
    schema, records = run_domain(DATA / "landlord.en.yaml", tmp_path, 8)
    assert "user" in planned_scenarios(schema, "aggregative")
    assert "places" in planned_scenarios(schema, "comparative")
    asked = Counter((r["type"], r["scenario"]) for r in records)
    assert asked[("knowledge_update", "items")] >= 1  # the van's mileage
    texts = said(records)
    assert not [t for t in texts if DAILY_EN.search(t)]
    assert not [t for t in texts if re.search(r"\bfor on\b", t)]
    booked = [t for t in texts if " repair is booked for " in t]
    assert booked and all(" for on " not in t for t in booked)
    assert any("tenant in the" in t for t in texts) and any("building" in t for t in texts)
    counting_me = [t for t in texts if t.startswith("Counting me and my")]
    assert all("tradespe" not in t for t in counting_me)  # the trades are pooled apart


def test_the_kitchen_reads_as_a_restaurant_kitchen_in_chinese(tmp_path: Path) -> None:
    schema, records = run_domain(DATA / "kitchen.zh.yaml", tmp_path, 8)
    assert "user" in planned_scenarios(schema, "aggregative")
    texts = said(records)
    assert not [t for t in texts if any(w in t for w in DAILY_ZH)]
    assert any("师傅" in t for t in texts) and any("这道菜" in t for t in texts)
    assert any("那场" in t and "宴" in t for t in texts)
    assert not [t for t in texts if "for on" in t]
