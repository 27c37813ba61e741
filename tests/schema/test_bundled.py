"""Every bundled schema loads, builds a network and samples."""

from __future__ import annotations

from pathlib import Path

import pytest

from memsim.graph import BRNet
from memsim.sampling import sample_profiles
from memsim.schema import load_schema

SCHEMAS = sorted((Path(__file__).parents[2] / "schemas").glob("*.yaml"))


def test_there_is_a_bundled_schema() -> None:
    assert SCHEMAS, "schemas/ holds no schema"


@pytest.mark.parametrize("path", SCHEMAS, ids=lambda p: p.name)
def test_bundled_schema_loads_and_samples(path: Path) -> None:
    schema = load_schema(path)
    net = BRNet(schema)
    profiles = sample_profiles(net, seed=0, n=20)
    assert len(profiles) == 20
    assert {e.kind for e in profiles[0].entities} == set(
        k for k, e in schema.entities.items() if e.count
    )
