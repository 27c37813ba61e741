"""A post-processing difference is said in its attribute's unit, as a user of that
domain says it ("14 dollars", "3公斤", not a bare "14"), in every option, and the audit
re-derives the same text; on held-out schemas of both languages (tests/data)."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import numpy as np
import pytest

from memsim.audit._derive import Deriver
from memsim.audit._transforms import derive
from memsim.dataset import make_context
from memsim.qa import QA_KINDS
from memsim.sampling import ProfileSampler
from memsim.schema import load_schema

DATA = Path(__file__).parents[1] / "data"


@pytest.mark.parametrize("name", ["workshop.en.yaml", "pets.zh.yaml"])
def test_a_difference_says_its_unit_and_the_audit_agrees(name: str) -> None:
    ctx = make_context(load_schema(DATA / name), 0)
    deriver = Deriver(ctx.schema, ctx.loc)
    rng = np.random.default_rng(0)
    kind = QA_KINDS.get("post_processing")
    seen = 0
    for p in ProfileSampler(ctx.net).profiles(0, 0, 40):
        for scenario in kind.scenarios:
            draft = kind.make(ctx, p, scenario, rng)
            if draft is None or draft.transform != "difference":
                continue
            seen += 1
            entity = p.entity(str(draft.params["entities"][0]))  # type: ignore[index]
            unit = ctx.attribute(entity, str(draft.params["attribute"])).unit
            assert unit
            value = str(draft.answer_value)
            assert draft.answer == ctx.loc.with_unit_of(value, unit)
            assert draft.answer != value
            for option in draft.options:
                number = re.match(r"\d+", option)
                assert number and option == ctx.loc.with_unit_of(number.group(), unit)
            when = dt.datetime(2030, 1, 1)
            found = derive(deriver, p, "difference", dict(draft.params), frozenset(), when)
            assert found.display == draft.answer
            assert [found.means(o) for o in draft.options].count(True) == 1
    assert seen >= 5
