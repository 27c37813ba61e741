"""Every bad input of the table in tests/README.md ("Hostile inputs"), run through the
CLI: the exit status it gets, a message naming the place, and no traceback."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from hostile_run import ROOT, SCHEMA, assert_refused, audit_args, memsim

TINY = ROOT / "tests" / "data" / "tiny.yaml"
Args = list[str | Path]


def _schema(edit: Callable[[str], str]) -> Callable[[Path, Path], Args]:
    def make(tmp: Path, small: Path) -> Args:
        path = tmp / "s.yaml"
        path.write_text(edit(TINY.read_text(encoding="utf-8")), encoding="utf-8")
        return ["schema", "validate", path]

    return make


def _sub(old: str, new: str) -> Callable[[str], str]:
    def edit(text: str) -> str:
        assert old in text, old
        return text.replace(old, new, 1)

    return edit


def _raw_schema(data: bytes) -> Callable[[Path, Path], Args]:
    def make(tmp: Path, small: Path) -> Args:
        (tmp / "s.yaml").write_bytes(data)
        return ["schema", "validate", tmp / "s.yaml"]

    return make


def _generate(small: Path, *extra: str | Path, profiles: Path | None = None) -> Args:
    return ["generate", "--schema", SCHEMA, "--profiles", profiles or small / "profiles",
            "--out", small / "again", "--per-type", 2, "--no-progress", *extra]  # fmt: skip


def _profile(write: Callable[[Path], object]) -> Callable[[Path, Path], Args]:
    def make(tmp: Path, small: Path) -> Args:
        write(small / "profiles" / "p000001.json")
        return _generate(small)

    return make


def _age(path: Path) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    data["entities"][0]["facts"] = [
        {**f, "value": "forty-two"} if f["attribute"] == "age" else f
        for f in data["entities"][0]["facts"]
    ]
    path.write_text(json.dumps(data), encoding="utf-8")


def _foreign(tmp: Path, small: Path) -> Args:
    proc = memsim("profiles", "--schema", TINY, "--n", 20, "--out", tmp / "tiny")
    assert proc.returncode == 0, proc.stderr
    return _generate(small, profiles=tmp / "tiny")


def _lines(edit: Callable[[list[str]], list[str]]) -> Callable[[Path, Path], Args]:
    def make(tmp: Path, small: Path) -> Args:
        file = small / "dataset" / "dataset.jsonl"
        file.write_text("\n".join(edit(file.read_text(encoding="utf-8").splitlines())) + "\n")
        return [*audit_args(small), "--check", "error_markers"]

    return make


def _other_files(tmp: Path, small: Path) -> Args:
    (tmp / "mine").mkdir()
    (tmp / "mine" / "notes.txt").write_text("keep", encoding="utf-8")
    return ["profiles", "--schema", SCHEMA, "--n", 2, "--out", tmp / "mine"]


def _file_as_out(tmp: Path, small: Path) -> Args:
    (tmp / "file").write_text("mine", encoding="utf-8")
    return ["profiles", "--schema", SCHEMA, "--n", 2, "--out", tmp / "file"]


BIG = "# " + "x" * (5 * 2**20) + "\n"
CASES: dict[str, tuple[Callable[[Path, Path], Args], int, str]] = {
    # schemas
    "missing schema": (lambda t, s: ["schema", "validate", t / "nope.yaml"], 2, "cannot read schema"),
    "empty schema": (_raw_schema(b""), 2, "a schema is a YAML mapping"),
    "binary schema": (_raw_schema(bytes(range(256)) * 4), 2, "s.yaml"),
    "list at top": (_raw_schema(b"- a\n- b\n"), 2, "s.yaml:1:1: a schema is a YAML mapping"),
    "5 MB comment": (_schema(lambda t: t + BIG), 0, "ok"),
    "5 MB value": (_schema(lambda t: t + "junk: " + "y" * (5 * 2**20) + "\n"), 2, "unknown key 'junk'"),
    "unknown dist kind": (_schema(_sub("kind: uniform_int", "kind: poisson")), 2, "s.yaml:"),
    "probs do not sum to 1": (_schema(_sub("[0.4, 0.4, 0.2]", "[0.4, 0.4, 0.4]")), 2, "s.yaml:19:"),
    "negative probability": (_schema(_sub("[0.4, 0.4, 0.2]", "[0.8, 0.4, -0.2]")), 2, "s.yaml:19:"),
    "cycle": (_schema(_sub("dist: {kind: categorical, probs: [0.4, 0.4, 0.2]}", "dist: {kind: table, parents: [occupation], rows: {}}")), 2, "dependency cycle"),
    "unknown parent": (_schema(_sub("parents: [education]", "parents: [salary]")), 2, "salary"),
    "impossible distinct": (_schema(_sub("  relative:\n    count: 2", "  relative:\n    count: 4")), 2, "distinct"),
    "missing table row": (_schema(_sub("          phd: [0.6, 0.4, 0.0]\n", "")), 2, "phd"),
    "duplicate key": (_schema(_sub("    education:\n", "    gender:\n      type: text\n    education:\n")), 2, "duplicate key 'gender'"),
    "future format version": (_schema(_sub("format_version: 1", "format_version: 7")), 2, "s.yaml:1:17: format_version"),
    # profiles
    "missing profiles folder": (lambda t, s: _generate(s, profiles=t / "none"), 2, "no manifest"),
    "truncated profile": (_profile(lambda p: p.write_text('{"id": "p00')), 2, "p000001.json: not a valid profile"),
    "foreign-schema profiles": (_foreign, 2, "profiles were sampled from schema 'tiny'"),
    "hand-broken profile": (_profile(_age), 2, "p000001.json: does not match schema"),
    "profiles without manifest": (lambda t, s: ((s / "profiles" / "manifest.json").unlink(), _generate(s))[1], 2, "no manifest"),
    # option values
    "--n 0": (lambda t, s: ["profiles", "--schema", SCHEMA, "--n", 0, "--out", t / "p"], 2, "--n"),
    "--seed -1": (lambda t, s: _generate(s, "--seed", "-1"), 2, "--seed"),
    "unknown --types": (lambda t, s: _generate(s, "--types", "riddles"), 2, "unknown QA kind"),
    "unknown --format": (lambda t, s: [*audit_args(s), "--format", "xml"], 2, "--format"),
    "unknown --check": (lambda t, s: [*audit_args(s), "--check", "vibes"], 2, "unknown check"),
    "bad --noise": (lambda t, s: ["bench", s / "dataset", "--noise", "lots", "--out", t / "b"], 2, "noise"),
    "--verbalizer without --model": (lambda t, s: _generate(s, "--verbalizer", "openai"), 2, "--model"),
    # outputs
    "output folder of other files": (_other_files, 2, "not a memsim profiles output"),
    "output path is a file": (_file_as_out, 2, "is a file"),
    # dataset lines
    "truncated last line": (_lines(lambda ls: [*ls[:-1], ls[-1][: len(ls[-1]) // 2]]), 2, "not valid JSON"),
    "garbage line": (_lines(lambda ls: [ls[0], "}{ not json", *ls[1:]]), 2, "dataset.jsonl:2: not valid JSON"),
    "line that is a list": (_lines(lambda ls: ["[1, 2]", *ls]), 2, "dataset.jsonl:1: record: must be an object"),
    "record without QA": (_lines(lambda ls: [json.dumps({k: v for k, v in json.loads(ls[0]).items() if k != "QA"}), *ls[1:]]), 2, "dataset.jsonl:1: QA: missing"),
    "tid of the wrong type": (_lines(lambda ls: [ls[0].replace('"tid":0', '"tid":"zero"'), *ls[1:]]), 2, "tid: must be an integer"),
    "missing dataset": (lambda t, s: ["audit", t / "nothing", "--no-progress"], 2, "does not exist"),
}  # fmt: skip


@pytest.mark.parametrize("case", list(CASES))
def test_bad_input(small: Path, tmp_path: Path, case: str) -> None:
    make, code, needle = CASES[case]
    proc = memsim(*make(tmp_path, small))
    assert_refused(proc, needle, code=code)
