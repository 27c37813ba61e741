"""``memsim export`` and ``generate --formats``: the MemDaily folder alone re-derives its
answers (and catches a planted wrong one), the output is atomic and deterministic."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest
from formats_run import SCHEMA, memsim

from memsim.formats import FORMATS


@pytest.fixture(scope="module")
def exported(made: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("export") / "memdaily"
    result = memsim("export", made / "dataset", "--to", "memdaily", "--out", out)
    assert result.returncode == 0, result.stderr
    assert "wrote 60 records from native as memdaily" in result.stdout
    return out


def test_the_folder_holds_memdaily_graphs_and_a_manifest(exported: Path, made: Path) -> None:
    assert sorted(p.name for p in exported.iterdir()) == [
        "graphs.json",
        "manifest.json",
        "memdaily.json",
    ]
    manifest = orjson.loads((exported / "manifest.json").read_bytes())
    assert manifest["kind"] == "export" and manifest["format"] == "memdaily"
    assert manifest["graphs_by"] == "position" and manifest["counts"] == {"records": 60}
    assert manifest["schema"]["locale"] == "en"
    # the same memdaily.json as generate wrote beside dataset.jsonl
    assert (exported / "memdaily.json").read_bytes() == (
        made / "dataset" / "memdaily.json"
    ).read_bytes()
    graphs = orjson.loads((exported / "graphs.json").read_bytes())
    assert [g["gid"] for g in graphs] == list(range(60))
    assert all(isinstance(g["user_profile"], dict) for g in graphs)
    assert all(isinstance(g["relation_profiles"], list) for g in graphs)


def test_export_is_deterministic_and_replaces_its_own_output(exported: Path, made: Path) -> None:
    before = {p.name: p.read_bytes() for p in exported.iterdir()}
    again = memsim("export", made / "dataset", "--to", "memdaily", "--out", exported)
    assert again.returncode == 0, again.stderr
    assert {p.name: p.read_bytes() for p in exported.iterdir()} == before


def audit(folder: Path, *extra: str | Path) -> tuple[int, dict[str, Any], str]:
    report = folder.parent / f"{folder.name}-report"
    result = memsim("audit", folder, "--report", report, "--no-progress", *extra)
    data = orjson.loads((report / "report.json").read_bytes()) if report.is_dir() else {}
    return result.returncode, data, result.stdout + result.stderr


def test_the_folder_alone_audits_clean_re_deriving_answers(exported: Path) -> None:
    status, report, out = audit(exported)
    assert status == 0, out
    answers = report["checks"]["memdaily_answers"]
    scores = answers["scores"]["all"]
    # 30 simple, conditional and noisy questions, hybrids in two parts: 36 parts
    assert scores["derived"] >= 25 and scores.get("wrong", 0) == 0, scores
    for kind in ("simple", "conditional", "noisy"):
        assert any(key.startswith(f"{kind}/") for key in answers["scores"])


def plant(exported: Path, tmp_path: Path, move_answer: bool) -> Path:
    """A copy of the folder whose first simple/roles item points at another option
    (with ``move_answer``, its open answer follows, so only the profile can tell)."""
    out = tmp_path / "planted"
    out.mkdir()
    for file in exported.iterdir():
        (out / file.name).write_bytes(file.read_bytes())
    data = orjson.loads((out / "memdaily.json").read_bytes())
    qa = data["simple"]["roles"][0]["QA"]
    wrong = next(letter for letter in "ABCD" if letter != qa["ground_truth"])
    qa["ground_truth"] = wrong
    if move_answer:
        qa["answer"] = qa["choices"][wrong]
    (out / "memdaily.json").write_bytes(orjson.dumps(data))
    return out


@pytest.mark.parametrize("move_answer", [False, True])
def test_a_planted_wrong_answer_exits_1(exported: Path, tmp_path: Path, move_answer: bool) -> None:
    status, report, out = audit(plant(exported, tmp_path, move_answer))
    assert status == 1, out
    failed = "memdaily_answers" if move_answer else "ground_truth_letter"
    assert report["checks"][failed]["findings"]["error"] >= 1


def test_a_profiles_folder_with_memdaily_data_is_refused(exported: Path, made: Path) -> None:
    status, _, out = audit(exported, "--profiles", made / "profiles")
    assert status == 2
    assert "only serves native data" in out and "Traceback" not in out


def test_every_format_reads_back_what_native_wrote(exported: Path, made: Path) -> None:
    native = list(FORMATS.get("native").read(made / "dataset"))
    back = list(FORMATS.get("memdaily").read(exported))
    assert len(back) == len(native)
    for ours, theirs in zip(native, back, strict=True):
        assert (theirs.type, theirs.scenario) == (ours.type, ours.scenario)
        assert [t.text for t in theirs.turns] == [t.text for t in ours.turns]
        assert theirs.qa.options == ours.qa.options and theirs.qa.gold == ours.qa.gold
        assert theirs.qa.answer == ours.qa.answer and theirs.qa.evidence == ours.qa.evidence


def test_ls_formats_lists_the_registry() -> None:
    result = memsim("ls", "formats")
    assert result.returncode == 0
    assert {"native", "memdaily"} <= set(result.stdout.split())


def test_generate_formats(made: Path, tmp_path: Path) -> None:
    args = ["generate", "--schema", SCHEMA, "--profiles", made / "profiles",
            "--per-type", "2", "--no-progress"]  # fmt: skip
    none = memsim(*args, "--out", tmp_path / "a", "--formats", "native")
    assert none.returncode == 0, none.stderr
    assert not (tmp_path / "a" / "memdaily.json").exists()
    manifest = orjson.loads((tmp_path / "a" / "manifest.json").read_bytes())
    assert manifest["files"] == ["dataset.jsonl"]
    bad = memsim(*args, "--out", tmp_path / "b", "--formats", "memdaily,nope")
    assert bad.returncode == 2 and "unknown format(s) ['nope']" in bad.stderr
    assert not (tmp_path / "b").exists()


def test_a_broken_memdaily_file_exits_2_naming_the_field(exported: Path, tmp_path: Path) -> None:
    data = orjson.loads((exported / "memdaily.json").read_bytes())
    del data["simple"]["roles"][1]["QA"]["choices"]
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "memdaily.json").write_bytes(orjson.dumps(data))
    for command in (["audit", bad], ["export", bad, "--to", "native", "--out", tmp_path / "n"]):
        result = memsim(*command)
        assert result.returncode == 2, result.stderr
        assert "memdaily.json: $.simple.roles[1].QA.choices: missing" in result.stderr
        assert "Traceback" not in result.stderr


def test_memdaily_to_native_and_back_keeps_the_bytes(exported: Path, tmp_path: Path) -> None:
    native = tmp_path / "native"
    to_native = memsim("export", exported, "--to", "native", "--out", native)
    assert to_native.returncode == 0, to_native.stderr
    back = tmp_path / "back"
    to_memdaily = memsim("export", native, "--to", "memdaily", "--out", back)
    assert to_memdaily.returncode == 0, to_memdaily.stderr
    assert (back / "memdaily.json").read_bytes() == (exported / "memdaily.json").read_bytes()
    assert not (back / "graphs.json").exists()  # no profiles: nothing to write it from
