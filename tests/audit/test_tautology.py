"""Tautological statements ("The Boston Career Fair takes place in Boston"): the
generator states none, and the audit's ``tautological_statements`` check counts one
written into a real dataset (en and zh, generated through the CLI)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from memsim.audit import load_context, open_source, run_audit
from memsim.profile import load_profile
from memsim.schema import load_schema
from memsim.verbalize import says_itself, schema_locale
from tests.audit.conftest import generate

ROOT = Path(__file__).resolve().parents[2]
CHECK = "tautological_statements"


@pytest.fixture(scope="module", params=["en", "zh"])
def generated(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp(f"tautology_{request.param}")
    schema = ROOT / "schemas" / f"daily_life.{request.param}.yaml"
    return generate(base, schema, 40, 8, "simple,conditional,aggregative,noisy")


def _audit(dataset: Path, base: Path) -> Any:
    schema = json.loads((dataset / "manifest.json").read_text())["schema"]
    path = ROOT / "schemas" / f"daily_life.{schema['locale']}.yaml"
    ctx = load_context(open_source(dataset), profiles=base / "p", schema=path)
    return run_audit(ctx, [CHECK]).results[CHECK]


def test_the_generator_states_no_tautology_but_as_a_last_resort(generated: Path) -> None:
    """None as filler, noise or a hard negative; as the evidence of a question only when
    the profile allowed no other question of its kind and scenario (a Chinese place
    whose name holds its type); none at all in English."""
    result = _audit(generated / "d", generated)
    assert result.stats.counts["statements checked"] > 100
    lines = (generated / "d" / "dataset.jsonl").read_text(encoding="utf-8").splitlines()
    records = {r["tid"]: r for r in map(json.loads, lines)}
    for f in result.findings:
        mid = int(f.message.split()[1])
        assert records[f.tid]["message_list"][mid]["role"] == "evidence", f.message
    if next(iter(records.values()))["locale"] == "en":
        assert result.stats.counts["tautological statements"] == 0


def test_a_tautology_written_in_is_counted(generated: Path) -> None:
    """A message about an event whose name holds its location (every default event's
    name is made from its city) rewritten to state that location: one warning."""
    lines = (generated / "d" / "dataset.jsonl").read_text(encoding="utf-8").splitlines()
    records = [json.loads(line) for line in lines]
    schema = load_schema(ROOT / "schemas" / f"daily_life.{records[0]['locale']}.yaml")
    loc = schema_locale(schema)
    for record in records:
        profile = load_profile(generated / "p", int(record["profile_id"][1:]), schema)
        found = next((e for e in profile.entities if says_itself(schema, loc, e, "location")), None)
        if found is not None:
            break
    assert found is not None
    name, city = found.facts["name"].value, found.facts["location"].value
    message = record["message_list"][0]
    message["message"] = f"{name}: {city}."
    message["facts"] = [f"{found.id}.location"]
    tampered = generated / "tampered"
    tampered.mkdir(exist_ok=True)
    (tampered / "manifest.json").write_text((generated / "d" / "manifest.json").read_text())
    (tampered / "dataset.jsonl").write_text(
        "\n".join(json.dumps(r, ensure_ascii=False) for r in records) + "\n", encoding="utf-8"
    )
    result = _audit(tampered, generated)
    assert result.stats.counts["tautological statements"] == 1
    assert [f.severity for f in result.findings] == ["warning"]
