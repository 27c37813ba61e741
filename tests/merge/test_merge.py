"""``memsim merge``: 3 shards of profiles and of a dataset, made by real processes,
merge into folders byte-identical to one machine's; bad shard sets are refused with
exit status 2 and nothing written."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]
SCHEMA = ROOT / "schemas" / "daily_life.en.yaml"
TYPES = "simple,comparative,noisy"
PER_TYPE = 10
N = 3 * PER_TYPE  # one profile per trajectory
FORMATS = "memdaily,longmemeval,locomo"


def memsim(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "memsim", *map(str, args)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )


def ok(*args: str | Path) -> None:
    result = memsim(*args)
    assert result.returncode == 0, result.stderr


def generate(profiles: Path, out: Path, *extra: str, seed: int = 5) -> None:
    ok(
        "generate", "--schema", SCHEMA, "--profiles", profiles, "--out", out,
        "--seed", str(seed), "--per-type", str(PER_TYPE), "--types", TYPES,
        "--formats", FORMATS, "--no-progress", *extra,
    )  # fmt: skip


def files_of(folder: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One machine's profiles and dataset, and 3 shards of each (the dataset shards
    read the profile shards, as machines without a shared disk would)."""
    root = tmp_path_factory.mktemp("shards")
    profiles = ("profiles", "--schema", SCHEMA, "--n", str(N), "--seed", "2", "--no-progress")
    ok(*profiles, "--out", root / "whole_profiles")
    generate(root / "whole_profiles", root / "whole_dataset")
    for i in range(3):
        ok(*profiles, "--out", root / f"profiles_{i}", "--shard", f"{i}/3")
        generate(root / f"profiles_{i}", root / f"dataset_{i}", "--shard", f"{i}/3")
    return root


def test_three_profile_shards_merge_byte_identically(runs: Path, tmp_path: Path) -> None:
    shards = [runs / f"profiles_{i}" for i in (2, 0, 1)]  # any order
    ok("merge", *shards, "--out", tmp_path / "merged")
    whole = files_of(runs / "whole_profiles")
    assert len(whole) == N + 1  # the profiles and the manifest
    assert files_of(tmp_path / "merged") == whole


def test_three_dataset_shards_merge_byte_identically(runs: Path, tmp_path: Path) -> None:
    sizes = [
        len((runs / f"dataset_{i}" / "dataset.jsonl").read_bytes().splitlines()) for i in range(3)
    ]
    assert sizes == [10, 10, 10]
    ok("merge", *(runs / f"dataset_{i}" for i in range(3)), "--out", tmp_path / "merged")
    whole = files_of(runs / "whole_dataset")
    for name in ("dataset.jsonl", "memdaily.json", "longmemeval.json", "locomo.json",
                 "manifest.json", "data_card.md"):  # fmt: skip
        assert name in whole
    assert files_of(tmp_path / "merged") == whole


def test_a_shard_reads_the_whole_profiles_folder_too(runs: Path, tmp_path: Path) -> None:
    generate(runs / "whole_profiles", tmp_path / "d1", "--shard", "1/3")
    made = (tmp_path / "d1" / "dataset.jsonl").read_bytes()
    assert made == (runs / "dataset_1" / "dataset.jsonl").read_bytes()


def refused(*args: str | Path, says: str, out: Path) -> None:
    result = memsim("merge", *args, "--out", out)
    assert result.returncode == 2, result.stdout
    assert says in result.stderr
    assert not out.exists()  # nothing half-written


def test_missing_shard(runs: Path, tmp_path: Path) -> None:
    refused(runs / "dataset_0", runs / "dataset_2", says="missing shard(s) 1/3 (items 10..19)",
            out=tmp_path / "m")  # fmt: skip


def test_overlapping_shards(runs: Path, tmp_path: Path) -> None:
    again = tmp_path / "again_1"
    shutil.copytree(runs / "dataset_1", again)
    refused(*(runs / f"dataset_{i}" for i in range(3)), again, says="overlapping shards",
            out=tmp_path / "m")  # fmt: skip


def test_shard_of_another_seed(runs: Path, tmp_path: Path) -> None:
    generate(runs / "profiles_1", tmp_path / "other", "--shard", "1/3", seed=6)
    refused(runs / "dataset_0", tmp_path / "other", runs / "dataset_2",
            says="options.seed is 6 there and 5 here", out=tmp_path / "m")  # fmt: skip


def test_shard_of_other_formats(runs: Path, tmp_path: Path) -> None:
    ok("generate", "--schema", SCHEMA, "--profiles", runs / "profiles_1", "--out",
       tmp_path / "other", "--seed", "5", "--per-type", str(PER_TYPE), "--types", TYPES,
       "--no-progress", "--shard", "1/3")  # fmt: skip
    refused(runs / "dataset_0", tmp_path / "other", runs / "dataset_2",
            says="shard.formats", out=tmp_path / "m")  # fmt: skip


def test_edited_shard(runs: Path, tmp_path: Path) -> None:
    cut = tmp_path / "cut_1"
    shutil.copytree(runs / "dataset_1", cut)
    lines = (cut / "dataset.jsonl").read_bytes().splitlines(keepends=True)
    (cut / "dataset.jsonl").write_bytes(b"".join(lines[:-1]))
    refused(runs / "dataset_0", cut, runs / "dataset_2", says="does not match the sha256",
            out=tmp_path / "m")  # fmt: skip


def test_kinds_and_whole_runs_do_not_merge(runs: Path, tmp_path: Path) -> None:
    refused(runs / "dataset_0", runs / "profiles_1", says="different kinds", out=tmp_path / "m")
    refused(runs / "whole_dataset", says="not a shard", out=tmp_path / "m")


def test_a_failed_merge_leaves_an_earlier_output_alone(runs: Path, tmp_path: Path) -> None:
    out = tmp_path / "merged"
    ok("merge", *(runs / f"profiles_{i}" for i in range(3)), "--out", out)
    before = files_of(out)
    result = memsim("merge", runs / "profiles_0", "--out", out)
    assert result.returncode == 2 and "missing shard(s)" in result.stderr
    assert files_of(out) == before


def test_audit_of_a_shard_is_the_audit_of_its_slice(runs: Path, tmp_path: Path) -> None:
    import json

    args = ("--schema", SCHEMA, "--no-progress")
    whole = memsim("audit", runs / "whole_dataset", "--profiles", runs / "whole_profiles",
                   *args, "--shard", "1/3", "--report", tmp_path / "sliced")  # fmt: skip
    # 0 or 1: the statistical checks may find an error on 10 items (39 pairs of
    # messages), and then in both runs alike; 2 would be a failure to audit
    assert whole.returncode in (0, 1), whole.stderr
    assert "shard 1/3: items 10..19" in whole.stdout
    alone = memsim("audit", runs / "dataset_1", "--profiles", runs / "profiles_1", *args,
                   "--report", tmp_path / "alone")  # fmt: skip
    assert alone.returncode == whole.returncode, alone.stderr
    sliced = json.loads((tmp_path / "sliced" / "report.json").read_text())
    own = json.loads((tmp_path / "alone" / "report.json").read_text())
    assert sliced["input"]["items"] == own["input"]["items"] == 10
    assert sliced["findings"] == own["findings"]
    for name, result in own["checks"].items():
        if name != "manifest_matches":  # a slice's manifest counts are not compared
            assert sliced["checks"][name] == result, name
    refused(tmp_path / "sliced", says="audit reports do not merge", out=tmp_path / "m")


def test_bench_of_a_shard_is_the_bench_of_its_slice(runs: Path, tmp_path: Path) -> None:
    args = ("--mechanisms", "bm25,recent_k", "--noise", "1", "--no-timings", "--no-vector-cache")
    ok("bench", runs / "whole_dataset", *args, "--shard", "1/3", "--out", tmp_path / "sliced")
    ok("bench", runs / "dataset_1", *args, "--out", tmp_path / "alone")
    results = [(tmp_path / d / "results.json").read_bytes() for d in ("sliced", "alone")]
    assert results[0] == results[1]
    refused(tmp_path / "sliced", says="bench results do not merge", out=tmp_path / "m")
