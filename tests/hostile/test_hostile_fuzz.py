"""Fuzzing: schema YAML, profile JSON and dataset JSONL mutated at random (bytes and
structure), then the CLI run in-process. Whatever the mutation, the command ends in a
clean exit (0 if the mutation was harmless, 1 with an audit finding, 2 with a message),
never an unhandled exception or a traceback."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

from click.testing import CliRunner
from hostile_run import ROOT, SCHEMA
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memsim.cli import main

TINY = ROOT / "tests" / "data" / "tiny.yaml"
EXAMPLES = int(os.environ.get("MEMSIM_FUZZ_EXAMPLES", "0"))
"""0: 25 fixed examples per test (the suite stays under a minute); more: that many
random ones (a longer hunt)."""
FUZZ = settings(
    max_examples=EXAMPLES or 25,
    deadline=None,
    derandomize=not EXAMPLES,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
JUNK = st.text(alphabet="{}[]&*!|>:-#'\"\n\t 0123456789aZ\x00é中", min_size=1, max_size=8)
JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**20), 10**20) | st.floats() | st.text(max_size=6),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=6,
)


def run(*args: str | Path) -> None:
    result = CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=True)
    crashed = result.exception is not None and not isinstance(result.exception, SystemExit)
    assert not crashed, f"{type(result.exception).__name__}: {result.exception}\n{result.output}"
    assert "Traceback" not in result.output, result.output
    assert result.exit_code in (0, 1, 2), result.output


@st.composite
def text_mutation(draw: st.DrawFn, text: str) -> str:
    """A few edits: delete a span, insert junk, duplicate or swap a line."""
    for _ in range(draw(st.integers(1, 3))):
        if not text:
            break
        at = draw(st.integers(0, len(text) - 1))
        op = draw(st.sampled_from(["delete", "insert", "duplicate", "truncate"]))
        if op == "delete":
            text = text[:at] + text[at + draw(st.integers(1, 40)) :]
        elif op == "insert":
            text = text[:at] + draw(JUNK) + text[at:]
        elif op == "duplicate":
            lines = text.splitlines(keepends=True)
            i = draw(st.integers(0, len(lines) - 1))
            text = "".join(lines[: i + 1] + lines[i:])
        else:
            text = text[:at]
    return text


@st.composite
def json_mutation(draw: st.DrawFn, data: Any) -> Any:
    """Replace or delete the value at a random path of a JSON document."""
    data = json.loads(json.dumps(data))
    node: Any = data
    parent: Any = None
    key: Any = None
    for _ in range(draw(st.integers(1, 6))):
        if isinstance(node, dict) and node:
            choice: Any = draw(st.sampled_from(sorted(node)))
        elif isinstance(node, list) and node:
            choice = draw(st.integers(0, len(node) - 1))
        else:
            break
        parent, key = node, choice
        node = node[choice]
        if not isinstance(node, (dict, list)) or draw(st.booleans()):
            break
    if key is None:
        return draw(JSON)
    if draw(st.booleans()) and isinstance(parent, dict):
        del parent[key]
    else:
        parent[key] = draw(JSON)
    return data


@FUZZ
@given(st.data())
def test_mutated_schema(data: st.DataObject) -> None:
    text = data.draw(text_mutation(TINY.read_text(encoding="utf-8")))
    with tempfile.TemporaryDirectory() as tmp:
        schema = Path(tmp) / "s.yaml"
        schema.write_text(text, encoding="utf-8", errors="surrogatepass")
        run("schema", "validate", schema)


def _small_copy(built: Path, tmp: Path, lines: int = 3) -> Path:
    folder = tmp / "d"
    shutil.copytree(built / "dataset", folder / "dataset")
    shutil.copytree(built / "profiles", folder / "profiles")
    jsonl = folder / "dataset" / "dataset.jsonl"
    jsonl.write_text("".join(jsonl.read_text(encoding="utf-8").splitlines(keepends=True)[:lines]))
    manifest = json.loads((folder / "dataset" / "manifest.json").read_text(encoding="utf-8"))
    manifest.pop("counts"), manifest.pop("sha256")  # a cut copy, on purpose
    (folder / "dataset" / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    return folder


CHECKS = ["answer_rederived", "messages_state_facts", "messages_faithful", "error_markers",
          "timestamps_increasing", "options_distinct", "evidence_targets"]  # fmt: skip


def _audit(folder: Path) -> None:
    checks = [a for c in CHECKS for a in ("--check", c)]
    run("audit", folder / "dataset", "--profiles", folder / "profiles", "--schema", SCHEMA,
        *checks, "--no-progress")  # fmt: skip


@FUZZ
@given(st.data())
def test_mutated_profile(built: Path, data: st.DataObject) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = _small_copy(built, Path(tmp))
        record = json.loads((folder / "dataset" / "dataset.jsonl").read_text().splitlines()[0])
        path = folder / "profiles" / f"{record['profile_id']}.json"
        if data.draw(st.booleans()):
            mutated = data.draw(json_mutation(json.loads(path.read_text(encoding="utf-8"))))
            path.write_text(json.dumps(mutated), encoding="utf-8")
        else:
            path.write_text(data.draw(text_mutation(path.read_text(encoding="utf-8"))))
        _audit(folder)


@FUZZ
@given(st.data())
def test_mutated_dataset(built: Path, data: st.DataObject) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = _small_copy(built, Path(tmp))
        jsonl = folder / "dataset" / "dataset.jsonl"
        lines = jsonl.read_text(encoding="utf-8").splitlines()
        i = data.draw(st.integers(0, len(lines) - 1))
        if data.draw(st.booleans()):
            lines[i] = json.dumps(data.draw(json_mutation(json.loads(lines[i]))))
        else:
            lines[i] = data.draw(text_mutation(lines[i]))
        jsonl.write_text("\n".join(lines) + "\n", encoding="utf-8")
        _audit(folder)
