"""`memsim generate --verbalizer ...` as real processes: a run killed with SIGKILL
mid-way and rerun gives the bytes of an uninterrupted run and repeats no completed
call; without either SDK the core imports and the template pipeline works."""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from rewrite_run import PER_TYPE, ROOT, SCHEMA

from memsim.llm.testing import FakeChatServer, LogEntry

CONCURRENCY = 4
FILES = ("dataset.jsonl", "memdaily.json", "manifest.json", "data_card.md", "data_card.csv")


def generate_args(profiles: Path, out: Path, *extra: str) -> list[str]:
    return [
        "generate",
        "--schema",
        str(SCHEMA),
        "--profiles",
        str(profiles),
        "--out",
        str(out),
        "--per-type",
        str(PER_TYPE),
        "--no-progress",
        *extra,
    ]


def llm_args(
    server: FakeChatServer, cache: Path, backend: str = "openai", concurrency: int = CONCURRENCY
) -> list[str]:
    return [
        "--verbalizer",
        backend,
        "--model",
        "fake-model",
        "--base-url",
        server.base_url,
        "--concurrency",
        str(concurrency),
        "--cache",
        str(cache),
    ]


def run(args: list[str], prelude: str = "") -> subprocess.CompletedProcess[str]:
    code = f"{prelude}\nimport sys\nfrom memsim.cli import main\nsys.exit(main())"
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )


def cached_messages(cache: Path) -> set[str]:
    with sqlite3.connect(cache / "replies.sqlite3") as db:
        rows = db.execute("SELECT request FROM replies").fetchall()
    return {json.dumps(json.loads(r[0])["messages"]) for r in rows}


def sent_messages(entry: LogEntry) -> str:
    return json.dumps([[m["role"], m["content"]] for m in entry.body["messages"]])


@pytest.mark.parametrize("backend", ["openai", "zhipuai"])
def test_killed_run_resumes_with_the_same_bytes(
    backend: str, tmp_path: Path, profiles_dir: Path
) -> None:
    with FakeChatServer(latency=0.02) as server:
        ref = run(
            generate_args(
                profiles_dir,
                tmp_path / "ref" / "dataset",
                *llm_args(server, tmp_path / "c1", backend, concurrency=9),
            )
        )  # the reference: another concurrency, one process
        assert ref.returncode == 0, ref.stderr
        needed = len(server.entries())  # every distinct request, called once

        out = tmp_path / "resumed" / "dataset"
        # resumed with template records made in 2 worker processes: the same bytes again
        args = generate_args(
            profiles_dir, out, *llm_args(server, tmp_path / "c2", backend), "--workers", "2"
        )
        code = "import sys\nfrom memsim.cli import main\nsys.exit(main())"
        proc = subprocess.Popen(
            [sys.executable, "-c", code, *args],
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            server.wait_for(needed + needed // 3, timeout=120)
        finally:
            proc.send_signal(signal.SIGKILL)
            proc.wait()
        time.sleep(0.3)  # requests the killed process left in flight are answered and logged
        killed_at = len(server.entries())
        assert not out.exists()  # nothing half-written in its place
        first = server.entries()[needed:killed_at]
        cached = cached_messages(tmp_path / "c2")
        assert 0 < len(cached) < needed  # killed mid-run
        assert len(first) - len(cached) <= CONCURRENCY  # only calls in flight were lost

        rerun = run(args)
        assert rerun.returncode == 0, rerun.stderr
        second = server.entries()[killed_at:]
    assert not {sent_messages(e) for e in second} & cached  # no completed call repeated
    assert len(second) == needed - len(cached)
    assert f"{len(cached)} cache hits" in rerun.stdout
    for name in FILES:
        assert (out / name).read_bytes() == (tmp_path / "ref" / "dataset" / name).read_bytes(), name
    leftovers = [p.name for p in out.parent.iterdir() if p != out]
    assert all(p.startswith(".dataset.") and p.endswith(".partial") for p in leftovers)


BLOCK_SDKS = """
import sys
class _BlockSDKs:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("openai", "zhipuai"):
            raise ModuleNotFoundError(f"No module named {name!r} (blocked)", name=name)
        return None
sys.meta_path.insert(0, _BlockSDKs())
for _sdk in ("openai", "zhipuai"):
    try:
        __import__(_sdk)
    except ImportError:
        pass
    else:
        raise SystemExit(f"{_sdk} was not blocked")
"""


def test_core_works_without_either_sdk(tmp_path: Path) -> None:
    imports = BLOCK_SDKS + (
        "import memsim, memsim.llm, memsim.llm.testing, memsim.rewrite, memsim.dataset, "
        "memsim.cli\nassert not {'openai', 'zhipuai'} & set(sys.modules)\nprint('imported')"
    )
    done = subprocess.run([sys.executable, "-c", imports], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0 and "imported" in done.stdout, done.stderr

    # make dataset's commands, small
    assert run(["schema", "validate", str(SCHEMA)], BLOCK_SDKS).returncode == 0
    profiles = tmp_path / "profiles"
    made = run(
        ["profiles", "--schema", str(SCHEMA), "--n", "18", "--out", str(profiles), "--no-progress"],
        BLOCK_SDKS,
    )
    assert made.returncode == 0, made.stderr
    args = generate_args(profiles, tmp_path / "dataset")
    args[args.index("--per-type") + 1] = "2"
    made = run([*args, "--workers", "2"], BLOCK_SDKS)
    assert made.returncode == 0, made.stderr
    assert "wrote 18 trajectories" in made.stdout

    # an LLM verbalizer says what to install, exit status 2, nothing written
    for backend in ("openai", "zhipuai"):
        out = tmp_path / f"llm_{backend}"
        args = generate_args(
            profiles,
            out,
            "--verbalizer",
            backend,
            "--model",
            "m",
            "--base-url",
            "http://127.0.0.1:9/v1",
        )
        args[args.index("--per-type") + 1] = "2"
        refused = run(args, BLOCK_SDKS)
        assert refused.returncode == 2
        assert "pip install 'memsim[llm]'" in refused.stderr and backend in refused.stderr
        assert not out.exists()


def test_llm_options_need_an_llm_verbalizer_and_a_model(tmp_path: Path, profiles_dir: Path) -> None:
    no_model = run(generate_args(profiles_dir, tmp_path / "x", "--verbalizer", "openai"))
    assert no_model.returncode == 2 and "--model" in no_model.stderr
    stray = run(generate_args(profiles_dir, tmp_path / "x", "--model", "m"))
    assert stray.returncode == 2 and "need an LLM --verbalizer" in stray.stderr
    assert not (tmp_path / "x").exists()
