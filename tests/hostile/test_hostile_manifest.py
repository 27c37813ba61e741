"""The audit proves it read what generate wrote (counts and sha256 in the manifest),
and refuses profiles or a schema of another dataset (seed, schema digest): exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hostile_run import N_PROFILES, SCHEMA, SCHEMA_ZH, assert_refused, audit_args, memsim

JSONL = Path("dataset") / "dataset.jsonl"


def test_clean_dataset_audits_with_no_error(built: Path) -> None:
    proc = memsim(*audit_args(built))
    assert_refused(proc, "0 error(s)", code=0)
    manifest = json.loads((built / "dataset" / "manifest.json").read_text(encoding="utf-8"))
    assert set(manifest["sha256"]) == {"dataset.jsonl", "memdaily.json"}


def _audit_structure(folder: Path) -> list[str | Path]:
    return [*audit_args(folder), "--check", "manifest_matches", "--check", "error_markers"]


def test_empty_dataset_is_an_error(small: Path) -> None:
    (small / JSONL).write_bytes(b"")
    assert_refused(memsim(*_audit_structure(small)), "holds no trajectories", code=1)


def test_empty_dataset_without_manifest_is_an_error(small: Path) -> None:
    (small / JSONL).write_bytes(b"")
    (small / "dataset" / "manifest.json").unlink()
    proc = memsim("audit", small / "dataset", "--no-progress")
    assert_refused(proc, "holds no trajectories", code=1)


def test_cut_dataset_is_an_error(small: Path) -> None:
    lines = (small / JSONL).read_bytes().splitlines(keepends=True)
    (small / JSONL).write_bytes(b"".join(lines[:50]))
    proc = memsim(*_audit_structure(small))
    assert_refused(proc, f"holds 50 trajectories, its manifest counts {N_PROFILES}", code=1)


def test_edited_dataset_is_an_error(small: Path) -> None:
    text = (small / JSONL).read_text(encoding="utf-8")
    (small / JSONL).write_text(text.replace('"place":', '"place" :', 1), encoding="utf-8")
    proc = memsim(*_audit_structure(small))
    assert_refused(proc, "the file was changed after generate wrote it", code=1)


@pytest.fixture(scope="module")
def other_profiles(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("other")
    made = {}
    for name, schema, seed in (("seed 1", SCHEMA, 1), ("zh schema", SCHEMA_ZH, 0)):
        out = root / name.replace(" ", "_")
        proc = memsim("profiles", "--schema", schema, "--n", N_PROFILES, "--seed", seed,
                      "--out", out)  # fmt: skip
        assert proc.returncode == 0, proc.stderr
        made[name] = out
    return made


@pytest.mark.parametrize(
    ("case", "needle"),
    [("seed 1", "profiles sampled with seed 1, the dataset was generated from profiles of seed 0"),
     ("zh schema", "profiles")],
)  # fmt: skip
def test_profiles_of_another_dataset(
    built: Path, other_profiles: dict[str, Path], case: str, needle: str
) -> None:
    args = ["audit", built / "dataset", "--profiles", other_profiles[case], "--schema", SCHEMA]
    assert_refused(memsim(*args, "--no-progress"), str(other_profiles[case]), needle)


def test_schema_of_another_dataset(built: Path, tmp_path: Path) -> None:
    assert_refused(memsim(*audit_args(built, SCHEMA_ZH)), str(SCHEMA_ZH))
    edited = tmp_path / "daily_life.en.yaml"
    edited.write_text(SCHEMA.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    proc = memsim(*audit_args(built, edited))
    assert_refused(proc, f"{edited}: not the schema file the dataset was generated from")
