"""Outputs that cannot be written (a read-only folder) fail before any work with a
clear message and exit 2, and leave nothing behind; folders of the user's own files
are never replaced."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hostile_run import SCHEMA, as_unprivileged, assert_refused, audit_args, memsim


@pytest.fixture
def read_only(tmp_path: Path) -> Iterator[Path]:
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o555)
    yield folder
    folder.chmod(0o755)


def _commands(small: Path, out: Path) -> dict[str, list[str | Path]]:
    return {
        "profiles": ["profiles", "--schema", SCHEMA, "--n", 3, "--out", out],
        "generate": [
            "generate", "--schema", SCHEMA, "--profiles", small / "profiles",
            "--out", out, "--per-type", 1, "--no-progress",
        ],
        "audit --report": [*audit_args(small), "--check", "error_markers", "--report", out],
        "bench --out": [
            "bench", small / "dataset", "--mechanisms", "none", "--reader", "lexical",
            "--noise", "1", "--out", out, "--no-progress",
        ],
        "rewrite": [
            "generate", "--schema", SCHEMA, "--profiles", small / "profiles",
            "--out", out, "--per-type", 1, "--no-progress", "--verbalizer", "openai",
            "--model", "m", "--base-url", "http://127.0.0.1:9/v1",
        ],
    }  # fmt: skip


@pytest.mark.parametrize(
    "command", ["profiles", "generate", "audit --report", "bench --out", "rewrite"]
)
def test_read_only_output_folder(small: Path, read_only: Path, command: str) -> None:
    out = read_only / "out"
    env = {**os.environ, "OPENAI_API_KEY": "sk-test"}
    proc = memsim(*_commands(small, out)[command], env=env, prefix=as_unprivileged())
    assert_refused(proc, f"cannot write {out}", "Permission denied")
    assert list(read_only.iterdir()) == []


def test_output_inside_a_file(small: Path, tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("mine", encoding="utf-8")
    proc = memsim("profiles", "--schema", SCHEMA, "--n", 3, "--out", blocker / "p")
    assert_refused(proc, "cannot write")
    assert blocker.read_text(encoding="utf-8") == "mine"


def test_folder_of_other_files_is_never_replaced(small: Path, tmp_path: Path) -> None:
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("keep", encoding="utf-8")
    for args in _commands(small, mine).values():
        assert_refused(
            memsim(*args, env={**os.environ, "OPENAI_API_KEY": "sk-test"}), "not a memsim"
        )
    assert [p.name for p in mine.iterdir()] == ["notes.txt"]
