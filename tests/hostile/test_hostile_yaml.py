"""YAML that would expand without bound (alias bombs, recursive aliases, deep nesting)
is refused at file:line, in bounded time and memory, by every loader."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from hostile_run import ROOT, assert_refused, memsim

from memsim._yaml import MAX_DEPTH, safe_load


def bomb(levels: int, width: int = 10) -> str:
    lines = [f"a0: &a0 [{', '.join(['x'] * width)}]"]
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * width)}]" for i in range(1, levels)]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(
    ("text", "where", "what"),
    [
        ("x: &a [*a]\n", ":1:4:", "recursive alias"),
        ("x: &a {y: *a}\n", ":1:4:", "recursive alias"),
        (bomb(9), ":5:5:", "alias bomb"),
        (bomb(7), ":5:5:", "alias bomb"),
        ("x: " + "[" * (MAX_DEPTH + 5) + "]" * (MAX_DEPTH + 5) + "\n", ":1:", "nested more"),
    ],
    ids=["recursive-list", "recursive-map", "bomb-9", "bomb-7", "deep"],
)
def test_schema_validate_and_profiles_refuse(
    tmp_path: Path, text: str, where: str, what: str
) -> None:
    schema = tmp_path / "s.yaml"
    schema.write_text(text, encoding="utf-8")
    assert_refused(memsim("schema", "validate", schema), f"{schema}{where}", what)
    proc = memsim("profiles", "--schema", schema, "--n", 5, "--out", tmp_path / "p")
    assert_refused(proc, f"{schema}{where}")
    assert not (tmp_path / "p").exists()


def test_bomb_is_refused_in_bounded_time_and_memory(tmp_path: Path) -> None:
    schema = tmp_path / "s.yaml"
    schema.write_text(bomb(9), encoding="utf-8")  # 10**9 nodes if expanded
    # a fresh parent whose only child is memsim: its children's peak RSS is memsim's
    probe = (
        "import resource, subprocess, sys;"
        "p = subprocess.run([sys.executable, '-m', 'memsim', 'schema', 'validate', sys.argv[1]],"
        " capture_output=True, text=True, timeout=30);"
        "print(p.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss);"
        "print(p.stderr)"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe, str(schema)],
        capture_output=True, text=True, timeout=60, cwd=ROOT,
    )  # fmt: skip
    code, peak_kib = out.stdout.split("\n", 1)[0].split()
    assert code == "2" and "alias bomb" in out.stdout and "Traceback" not in out.stdout
    assert int(peak_kib) < 400 * 1024  # the issue saw 23 GB


def test_shared_anchors_still_load() -> None:
    # the bundled schemas share labels and phrasings through anchors
    assert_refused(memsim("schema", "validate", "schemas/daily_life.en.yaml"), "ok", code=0)


@pytest.mark.parametrize("text", ["x: &a [*a]\n", bomb(9)])
def test_other_yaml_loaders_are_bounded(tmp_path: Path, text: str) -> None:
    from memsim.verbalize import load_locale

    with pytest.raises(ValueError, match=r"s\.yaml:\d+:\d+: YAML"):
        safe_load(text, "s.yaml")
    locale = tmp_path / "xx.yaml"
    locale.write_text(text, encoding="utf-8")
    with pytest.raises(ValueError, match=rf"{locale}:\d+:\d+: YAML"):
        load_locale(str(locale))


def test_license_is_an_spdx_string() -> None:
    import tomllib

    from hostile_run import ROOT

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert project["project"]["license"] == "Apache-2.0"
    assert "setuptools>=77" in project["build-system"]["requires"]
    assert "/work/" not in (ROOT / "README.md").read_text(encoding="utf-8")
