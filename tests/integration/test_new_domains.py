"""Two more domains written from the README alone, as a new user would, and held out
from the code (tests/data/tour.en.yaml and tour.zh.yaml: a touring musician, bandmates
and crew pooled apart, gigs, an instrument, a rehearsal studio, with an overlay file;
workshop.en.yaml: a furniture maker, clients and suppliers, deliveries, a van, a
warehouse, with an inline overlay; pets.en.yaml: a pet owner, pets and carers pooled
apart, vet visits and group walks as two event kinds with their own time attributes, an
insurance policy, a dog park, derived and changing attributes, an overlay file).
Between them they use every distribution kind and every format-2 declaration. Each validates, generates every QA kind in every scenario
its plan gives, audits with no error, and reads as its own domain: no daily-life people
or small talk, the user said "me" where it is the object ("Promoters can reach me at"),
verbs that agree ("our drummer does"), "1 year" not "1 years", a group question naming
only the kinds of one pool, and quoted hearsay only of someone's words."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from memsim.verbalize import schema_locale
from tests.integration._domain_run import run_domain

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"
PER_TYPE = 8
DAILY_LIFE = {
    "en": ("coworker", "colleague", "landlord", "yoga teacher", "barber", "book club",
           "gym buddy", "running partner", "my boss", "commute", "busier than usual"),
    "zh": ("同事", "房东", "瑜伽", "健身搭子", "跑友", "书友", "通勤", "下班", "领导"),
}  # fmt: skip
"""Words of daily life's people and small talk (schemas/overlays/daily_life.yaml)."""
MIXED_POOLS = {
    "tour.en": ("bandmate or crew member", "crew member or bandmate"),
    "tour.zh": ("乐队成员或工作人员", "工作人员或乐队成员"),
    "workshop.en": ("client or supplier", "supplier or client"),
    "pets.en": (
        "pet or carer",
        "carer or pet",
        "vet visit or group walk",
        "group walk or vet visit",
    ),
}
OWN_WORDS = {
    "tour.en": ("show", "our drummer", "crew member", "rehearsal studio"),
    "tour.zh": ("演出", "乐队成员", "工作人员", "排练室"),
    "workshop.en": ("delivery", "my client", "my supplier", "warehouse"),
    "pets.en": ("appointment", "the walk along", "policy", "dog"),
}


@pytest.mark.parametrize("name", ["tour.en", "tour.zh", "workshop.en", "pets.en"])
def test_a_held_out_domain_generates_every_kind_audits_clean_and_reads_as_itself(
    name: str, tmp_path: Path
) -> None:
    schema_path = DATA / f"{name}.yaml"
    code = name.rsplit(".", 1)[1]
    schema, records = run_domain(schema_path, tmp_path, PER_TYPE)

    messages = [m["message"] for r in records for m in r["message_list"]]
    questions = [r["QA"]["question"] for r in records]
    text = "\n".join(messages + questions).casefold()
    assert not [w for w in DAILY_LIFE[code] if w in text]
    assert not [w for w in MIXED_POOLS[name] if w in text]
    for word in OWN_WORDS[name]:
        assert word.casefold() in text, word
    if code == "en":
        # the user as an object, verbs by their stem, a unit after one
        assert not re.search(r"\b(?:reach|calls|call|know|to|for) I\b", "\n".join(messages))
        assert not re.search(r"\bdos\b", text)
        assert not re.search(r"\b1 (?:years|tours|people|dollars|minutes|days|employees)\b", text)
    # a quoted hearsay line repeats someone's words (a sentence), never a name or a number
    loc = schema_locale(schema)
    for template in loc.hearsay:
        head, _, tail = template.partition("{value}")
        for m in messages:
            if m.startswith(head) and m.endswith(tail):
                said = m[len(head) : len(m) - len(tail)]
                assert said.rstrip().endswith(tuple(".!?。！？")), m
