"""An audit that could not run a correctness check for lack of ground truth says
which and exits 1, unless --allow-skip accepts it."""

from __future__ import annotations

from pathlib import Path

from hostile_run import assert_refused, memsim


def test_native_without_profiles_is_not_proven(built: Path) -> None:
    args = ["audit", built / "dataset", "--check", "answer_rederived", "--check",
            "error_markers", "--no-progress"]  # fmt: skip
    proc = memsim(*args)
    assert_refused(proc, "not proven: answer_rederived", "--allow-skip", code=1)
    assert_refused(memsim(*args, "--allow-skip"), "0 error(s)", code=0)


def test_memdaily_without_graphs_is_not_proven(built: Path) -> None:
    args = ["audit", "--format", "memdaily", built / "dataset" / "memdaily.json",
            "--check", "memdaily_answers", "--check", "error_markers", "--no-progress"]  # fmt: skip
    assert_refused(memsim(*args), "not proven: memdaily_answers", code=1)
    assert_refused(memsim(*args, "--allow-skip"), "0 error(s)", code=0)


def test_checks_that_do_not_apply_are_not_counted(built: Path) -> None:
    # memdaily_answers does not apply to native records, nor ours to MemDaily files
    proc = memsim(
        "audit", built / "dataset", "--profiles", built / "profiles", "--schema",
        "schemas/daily_life.en.yaml", "--check", "memdaily_answers", "--check",
        "answer_rederived", "--no-progress",
    )  # fmt: skip
    assert_refused(proc, "0 error(s)", code=0)
