"""memsim._io: outputs appear whole or not at all, never replace a user's folder, and
get the permissions a plain open()/mkdir() would give."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from memsim._io import MANIFEST, OutputExistsError, atomic_output_dir, atomic_write_bytes, dumps


@pytest.fixture
def umask_022() -> Iterator[None]:
    old = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(old)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_written_files_and_folders_follow_the_umask(tmp_path: Path, umask_022: None) -> None:
    atomic_write_bytes(tmp_path / "a.json", b"{}")
    assert mode(tmp_path / "a.json") == 0o644
    with atomic_output_dir(tmp_path / "out", "thing") as stage:
        (stage / MANIFEST).write_bytes(dumps({"kind": "thing"}))
    assert mode(tmp_path / "out") == 0o755


def test_a_failed_run_leaves_nothing_behind(tmp_path: Path) -> None:
    with pytest.raises(RuntimeError), atomic_output_dir(tmp_path / "out", "thing") as stage:
        (stage / "half.json").write_bytes(b"{")
        raise RuntimeError("boom")
    assert list(tmp_path.iterdir()) == []


def test_a_users_folder_is_never_replaced(tmp_path: Path) -> None:
    out = tmp_path / "mine"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    with pytest.raises(OutputExistsError), atomic_output_dir(out, "thing"):
        pass
    assert (out / "notes.txt").read_text() == "mine"


def test_an_earlier_output_of_the_same_kind_is_replaced_whole(tmp_path: Path) -> None:
    out = tmp_path / "out"
    for n in (1, 2):
        with atomic_output_dir(out, "thing") as stage:
            (stage / MANIFEST).write_bytes(dumps({"kind": "thing", "n": n}))
            (stage / f"file{n}").write_bytes(b"x")
    assert sorted(p.name for p in out.iterdir()) == sorted([MANIFEST, "file2"])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


def test_leftovers_of_a_killed_run_are_cleaned_up(tmp_path: Path) -> None:
    import subprocess
    import sys

    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        capture_output=True,
        text=True,
        check=True,
    )
    pid = int(dead.stdout)  # that process has exited
    stale = tmp_path / f".out.{pid}.abc123.partial"
    stale.mkdir()
    (stale / "half.json").write_bytes(b"{")
    running = tmp_path / f".out.{os.getpid()}.zzz.partial"  # a run still going: kept
    running.mkdir()
    other = tmp_path / f".other.{pid}.abc.partial"  # another output's: not ours to touch
    other.mkdir()
    with atomic_output_dir(tmp_path / "out", "thing") as stage:
        (stage / MANIFEST).write_bytes(dumps({"kind": "thing"}))
    assert not stale.exists() and running.exists() and other.exists()
