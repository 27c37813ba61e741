"""Requests too large for what they read or where they write are refused at once,
before any work, naming the limit and what is available."""

from __future__ import annotations

import time
from pathlib import Path

from hostile_run import N_PROFILES, SCHEMA, assert_refused, memsim

from memsim.qa import default_kinds
from memsim.schema import load_schema


def test_per_type_beyond_the_profiles_is_refused_at_once(small: Path) -> None:
    began = time.perf_counter()
    proc = memsim(
        "generate", "--schema", SCHEMA, "--profiles", small / "profiles",
        "--out", small / "big", "--per-type", 1_000_000_000, "--no-progress",
    )  # fmt: skip
    assert time.perf_counter() - began < 30  # the issue saw 62 s, then the kernel's kill
    kinds = len(default_kinds(load_schema(SCHEMA)))
    assert_refused(
        proc, "--per-type 1000000000", f"{kinds * 1_000_000_000:,} profiles",
        f"holds {N_PROFILES}", f"--per-type {N_PROFILES // kinds} or less",
    )  # fmt: skip
    assert not (small / "big").exists()


def test_profiles_beyond_the_disk_are_refused_at_once(tmp_path: Path) -> None:
    proc = memsim("profiles", "--schema", SCHEMA, "--n", 10**14, "--out", tmp_path / "p")
    assert_refused(proc, "--n 100,000,000,000,000 profiles need about", "GiB free")
    assert list(tmp_path.iterdir()) == []


def test_absurd_workers_and_concurrency_are_option_errors(small: Path) -> None:
    proc = memsim(
        "generate", "--schema", SCHEMA, "--profiles", small / "profiles",
        "--out", small / "w", "--workers", 100000,
    )  # fmt: skip
    assert_refused(proc, "--workers")
    proc = memsim(
        "bench", small / "dataset", "--reader", "llm", "--concurrency", 10**9, "--out", small / "b"
    )
    assert_refused(proc, "--concurrency")
