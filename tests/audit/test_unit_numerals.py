"""A unit that holds a numeral (zh 万元, 万次下载: "195万元" is 195 in units of 万元) is
taken out before an option's numbers are read: read whole, "195万元" was 195 and 10,000,
and a held-out game developer's schema had 37 answers the audit found no option for."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from memsim.audit._derive import Deriver
from memsim.dataset import make_context
from memsim.profile import Fact
from memsim.sampling import ProfileSampler
from memsim.schema import load_schema

DATA = Path(__file__).parents[1] / "data"


def _deriver() -> Deriver:
    ctx = make_context(load_schema(DATA / "gamedev.zh.yaml"), 0)
    return Deriver(ctx.schema, ctx.loc)


def test_a_number_said_in_a_unit_with_a_numeral_means_that_number() -> None:
    d = _deriver()
    means = d.number_means(195, "万元")
    assert means("195万元")
    assert not means("200万元")
    assert not d.number_means(195)("195万元")  # read whole: 195 and 10,000
    assert d.number_means(33, "万次下载")("33万次下载")


def test_an_integer_fact_with_such_a_unit_is_read_in_it() -> None:
    ctx = make_context(load_schema(DATA / "gamedev.zh.yaml"), 0)
    d = Deriver(ctx.schema, ctx.loc)
    profile = next(ProfileSampler(ctx.net).profiles(0, 0, 1))
    entity = next(e for e in profile.entities if "advance" in e.facts)
    fact: Fact = entity.facts["advance"]
    assert fact.unit == "万元"
    means = d.value_means(entity, fact, fact.value, dt.datetime(2030, 1, 1))
    assert means(f"{fact.value}万元")
    assert not means(f"{int(fact.value) + 5}万元")
