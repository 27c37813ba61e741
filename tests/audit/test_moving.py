"""Moving.at gives each changing fact's value at a time as Fact.value_at does, on sampled
profiles, at the very minutes their values change and between."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from memsim.audit._moving import Moving
from memsim.graph import BRNet
from memsim.profile import Fact
from memsim.sampling import ProfileSampler
from memsim.schema import load_schema

SCHEMA = Path(__file__).resolve().parents[2] / "schemas" / "daily_life.en.yaml"


def test_at_is_value_at_for_every_changing_fact() -> None:
    profiles = list(ProfileSampler(BRNet(load_schema(SCHEMA))).profiles(7, 0, 200))
    by_attr: dict[str, list[Fact]] = {}
    for p in profiles:
        for e in p.entities:
            for f in e.facts.values():
                if len(f.history) > 1:
                    by_attr.setdefault(f.attribute, []).append(f)
    assert len(by_attr) >= 3
    for facts in by_attr.values():
        moving = Moving(facts, [facts[0].value], np.zeros((1, 1), dtype=np.int64))
        times = {s.since for f in facts for s in f.history if s.since is not None}
        times |= {"2023-01-01T00:00", "2030-01-01T00:00", "2024-06-15T12:00"}
        times |= {t[:15] + "0" if t[15] != "0" else t[:14] + "59" for t in list(times)}
        for when in sorted(times):
            codes = moving.at(when)
            got = [moving.labels[c] for c in codes.tolist()]
            want = [f.value_at(when) for f in facts]
            assert got == [tuple(v) if isinstance(v, list) else v for v in want], when


def test_a_fact_without_steps_keeps_its_value() -> None:
    fact = Fact("user.age", "age", "integer", 30)
    moving = Moving([fact], [], np.zeros((1, 1), dtype=np.int64))
    assert moving.labels == [30]
    assert moving.at("2024-01-01T00:00").tolist() == [0]
