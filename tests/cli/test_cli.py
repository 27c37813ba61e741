"""The command line as a user runs it: real processes, real files, exit codes."""

from __future__ import annotations

import datetime as dt
import json
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
import yaml

ROOT = Path(__file__).parents[2]
TINY = ROOT / "tests" / "data" / "tiny.yaml"


def memsim(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "memsim", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=300,
    )


def test_validate_ok() -> None:
    result = memsim("schema", "validate", str(TINY))
    assert result.returncode == 0, result.stderr
    assert "ok (tiny 1.0, 3 entity kinds, 29 nodes" in result.stdout


def test_validate_bad_schema_exits_2_with_places(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(
        TINY.read_text()
        .replace("probs: [0.4, 0.4, 0.2]", "probs: [0.4, 0.4, 0.3]")
        .replace("unit: cm", "unit: cm\n      colour: red")
    )
    result = memsim("schema", "validate", str(bad))
    assert result.returncode == 2
    assert f"{bad}:" in result.stderr and "unknown key 'colour'" in result.stderr
    assert "Traceback" not in result.stderr


def test_validate_missing_file_exits_2(tmp_path: Path) -> None:
    result = memsim("schema", "validate", str(tmp_path / "nope.yaml"))
    assert result.returncode == 2
    assert "cannot read schema" in result.stderr


def test_json_schema_validates_bundled_and_rejects_unknown_keys(tmp_path: Path) -> None:
    out = tmp_path / "schema.json"
    assert memsim("schema", "json-schema", "--out", str(out)).returncode == 0
    doc = json.loads(out.read_text())
    for path in [TINY, *sorted((ROOT / "schemas").glob("*.yaml"))]:
        jsonschema.validate(_as_json(yaml.safe_load(path.read_text())), doc)
    data = _as_json(yaml.safe_load(TINY.read_text()))
    data["colour"] = "red"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(data, doc)


def _as_json(value: object) -> object:
    """YAML dates become date objects; a JSON validator sees them as ISO strings."""
    if isinstance(value, dict):
        return {k: _as_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_as_json(v) for v in value]
    if isinstance(value, dt.date):
        return value.isoformat()
    return value


def test_graph_export_and_render(tmp_path: Path) -> None:
    pytest.importorskip("pgmpy")
    pytest.importorskip("matplotlib")
    bif = tmp_path / "net.bif"
    assert memsim("graph", "export", "--schema", str(TINY), "--out", str(bif)).returncode == 0
    assert "variable user_occupation" in bif.read_text()
    for suffix in ("svg", "png"):
        picture = tmp_path / f"net.{suffix}"
        result = memsim("graph", "render", "--schema", str(TINY), "--out", str(picture))
        assert result.returncode == 0, result.stderr
        assert picture.stat().st_size > 1000
    assert b"<svg" in (tmp_path / "net.svg").read_bytes()[:400]
    bad = memsim("graph", "render", "--schema", str(TINY), "--out", str(tmp_path / "net.gif"))
    assert bad.returncode == 2 and "must end in .svg or .png" in bad.stderr


def test_graph_info_lists_parents() -> None:
    result = memsim("graph", "info", "--schema", str(TINY))
    assert result.returncode == 0
    assert any(
        line.startswith("relative[1].relation") and "relative[0].relation" in line
        for line in result.stdout.splitlines()
    )


def test_profiles_writes_manifest_and_files(tmp_path: Path) -> None:
    out = tmp_path / "profiles"
    result = memsim(
        "profiles", "--schema", str(TINY), "--n", "12", "--seed", "4", "--out", str(out)
    )
    assert result.returncode == 0, result.stderr
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["kind"] == "profiles" and manifest["count"] == 12 and manifest["seed"] == 4
    assert manifest["schema"]["name"] == "tiny" and len(manifest["schema"]["sha256"]) == 64
    assert sorted(p.name for p in out.glob("p*.json")) == [f"p{i:06d}.json" for i in range(12)]
    assert not list(tmp_path.glob(".*partial"))


def test_profiles_are_byte_identical_and_profile_k_does_not_depend_on_n(tmp_path: Path) -> None:
    # the default schema: every sampler kind, Faker names, dates and value histories
    schema = str(ROOT / "schemas" / "daily_life.en.yaml")

    def run(n: int, seed: int, name: str) -> dict[str, bytes]:
        out = tmp_path / name
        result = memsim(
            "profiles", "--schema", schema, "--n", str(n), "--seed", str(seed), "--out", str(out)
        )
        assert result.returncode == 0, result.stderr
        return {p.name: p.read_bytes() for p in sorted(out.glob("p*.json"))}

    small, again, large = run(7, 11, "a"), run(7, 11, "b"), run(40, 11, "c")
    assert small == again
    assert len(large) == 40 and all(large[name] == data for name, data in small.items())
    other = run(7, 12, "d")
    assert sum(other[name] != data for name, data in small.items()) == 7


def test_profiles_with_bad_schema_writes_nothing(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(
        TINY.read_text().replace("count: 2\n    scenario: roles", "count: -1\n    scenario: roles")
    )
    out = tmp_path / "out"
    result = memsim("profiles", "--schema", str(bad), "--n", "3", "--out", str(out))
    assert result.returncode == 2 and "greater than or equal to 0" in result.stderr
    assert not out.exists()


def test_ls_lists_samplers() -> None:
    result = memsim("ls", "sampler")
    assert result.returncode == 0
    assert {"categorical", "table", "copy", "gaussian", "person_name"} <= set(result.stdout.split())


def test_core_imports_without_optional_extras() -> None:
    code = (
        "import sys, memsim.schema, memsim.graph, memsim.sampling, memsim.profile, memsim.cli\n"
        "heavy = [m for m in ('pgmpy', 'matplotlib', 'openai', 'zhipuai', 'pandas') if m in sys.modules]\n"
        "assert not heavy, heavy\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize(
    ("overlay", "said"),
    [(None, "cannot read"), ("en:\n  questions: 5\n", "missing.yaml:2:3: locale_overlay 'en'")],
)
def test_a_broken_locale_overlay_stops_every_command_before_it_writes(
    tmp_path: Path, overlay: str | None, said: str
) -> None:
    schema = tmp_path / "s.yaml"
    daily = (ROOT / "schemas" / "daily_life.en.yaml").read_text(encoding="utf-8")
    assert "locale_overlay: overlays/daily_life.yaml" in daily
    schema.write_text(daily.replace("overlays/daily_life.yaml", "overlays/missing.yaml"))
    if overlay is not None:
        (tmp_path / "overlays").mkdir()
        (tmp_path / "overlays" / "missing.yaml").write_text(overlay)
    result = memsim("profiles", "--schema", str(schema), "--n", "3", "--out", str(tmp_path / "p"))
    assert result.returncode == 2, result.stderr
    assert said in result.stderr and "Traceback" not in result.stderr
    assert not (tmp_path / "p").exists()
