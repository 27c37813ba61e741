"""Two more held-out domains written from the README alone (issue 16): a merchant-ship
officer (tests/data/sailing.en.yaml: the user kind is `officer`, pooled with three crew
members apart from three vessels of the fleet, a roles kind that is not people; voyages
with a `role: time` and a derived days at sea; cargo consignments whose hold changes;
ports whose berth changes; tonnes, knots and nautical miles) and an indie game developer
in Chinese (tests/data/gamedev.zh.yaml: `developer`; playtesters apart from publishers;
releases as events; games; venues; 万元, 万次下载, 小时). They found that gender values
spelt male/female still needed a mapping, that a difference of two rents failed
`generate` after 400 draws (its exact pool share missed most gaps), that the audit read
"195万元" as 195 and 10,000, that "sails on next Tuesday" kept its "on", and that a
publisher with a contact person was taken for a person in hearsay lines; each is checked
here end to end, with no audit error."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from memsim.qa import planned_scenarios
from tests.integration._domain_run import DAILY_EN, DAILY_ZH, run_domain, said

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"


def test_the_officer_reads_as_a_year_at_sea(tmp_path: Path) -> None:
    schema, records = run_domain(DATA / "sailing.en.yaml", tmp_path, 8)
    assert "user" in planned_scenarios(schema, "comparative")  # the officer beside the crew
    assert "roles" in planned_scenarios(schema, "aggregative")
    assert "places" in planned_scenarios(schema, "knowledge_update")  # a port's berth
    asked = Counter((r["type"], r["scenario"]) for r in records)
    assert asked[("knowledge_update", "items")] >= 1  # a consignment's hold
    texts = said(records)
    assert not [t for t in texts if DAILY_EN.search(t)]
    assert not [t for t in texts if re.search(r"\bOfficer\b", t)]  # the user is "I"
    assert not [t for t in texts if re.search(r"\bon (next|this|tomorrow)\b", t)]
    for word in ("voyage", "consignment", "the port of", "tonnes", "nautical miles"):
        assert any(word in t for t in texts), word


def test_the_game_developer_reads_as_indie_work_in_chinese(tmp_path: Path) -> None:
    schema, records = run_domain(DATA / "gamedev.zh.yaml", tmp_path, 8)
    assert "places" in planned_scenarios(schema, "post_processing")  # two venues' rents
    texts = said(records)
    assert not [t for t in texts if any(w in t for w in DAILY_ZH)]
    for word in ("版本", "万元", "万次下载", "测试", "《"):
        assert any(word in t for t in texts), word
    # a publisher's advance is never said of a person outside the profile
    friends = re.compile(r"(做美术的朋友|一个同行|以前一起做游戏的)\w{1,3}开出的预付金")
    assert not [t for t in texts if friends.search(t)]
