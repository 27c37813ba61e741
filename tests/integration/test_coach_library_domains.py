"""Two more held-out domains written from the README alone (issue 16): a wrestling
coach (tests/data/coach.en.yaml: the user kind is `coach`, pooled with three wrestlers
apart from three rival teams; meets with a `role: time`; a minibus whose mileage always
changes; training halls; a licence table below a standing binned from the years of
coaching) and a librarian in Chinese (tests/data/library.zh.yaml: `librarian`; readers
apart from volunteers; books with an author; group loans as events; branches; a book
named "那本《{title}》"). They found that a table below a binned class passed validate and
crashed `memsim profiles`, that a kind without `refer` was named by its id ("Coach turned
54"), that phrasings never saying their unit read "44 old", that a closing 》 was rejected,
that a book with an author was taken for a person ("我同行吕静有227页"), and that the
audit read zh's "不足一周" as the value 1; each is checked here end to end, with no audit
error."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from memsim.profile import read_profiles
from memsim.qa import planned_scenarios
from tests.integration._domain_run import DAILY_EN, DAILY_ZH, run_domain, said

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"


def test_the_coach_reads_as_a_wrestling_season(tmp_path: Path) -> None:
    schema, records = run_domain(DATA / "coach.en.yaml", tmp_path, 8)
    assert "user" in planned_scenarios(schema, "comparative")  # the coach beside the squad
    assert "roles" in planned_scenarios(schema, "aggregative")
    asked = Counter((r["type"], r["scenario"]) for r in records)
    assert asked[("knowledge_update", "items")] >= 1  # the minibus's mileage
    texts = said(records)
    assert not [t for t in texts if DAILY_EN.search(t)]
    assert not [t for t in texts if re.search(r"\bCoach\b", t)]  # the user is "I"
    assert not [t for t in texts if re.search(r"\d old\b", t)]  # "44 years old"
    for word in ("wrestler", " meet", " hall", "minibus", " team"):
        assert any(word in t for t in texts), word
    user_options = [
        v for r in records if r["scenario"] == "user" for v in r["QA"]["choices"].values()
    ]
    assert "Me" in user_options and "I" not in user_options  # "whose ...?": "Me"
    for profile in read_profiles(tmp_path / "p"):  # the table below the binned standing
        facts = profile.entity("coach").facts
        if facts["standing"].value == "novice":
            assert facts["licence"].value != "elite"


def test_the_library_reads_as_a_librarians_work_in_chinese(tmp_path: Path) -> None:
    schema, records = run_domain(DATA / "library.zh.yaml", tmp_path, 8)
    assert "items" in planned_scenarios(schema, "comparative")
    texts = said(records)
    assert not [t for t in texts if any(w in t for w in DAILY_ZH)]
    for word in ("读者", "志愿者", "那本《", "分馆", "借给"):
        assert any(word in t for t in texts), word
    people = re.compile(
        r"(我认识的|常来借书的|我邻居)[^\W\d_]{1,4}(有\d+页|的定价|的品相|馆里现在有)"
    )
    assert not [t for t in texts if people.search(t)]  # a book is no person
