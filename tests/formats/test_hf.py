"""hf: native -> Parquet folder -> records gives the same records; ``datasets`` loads the
folder offline with typed features and the right rows per config; the bytes are stable;
pyarrow is imported only when used; bad files are FormatErrors naming file and field."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from hypothesis import given
from record_strategies import SETTINGS, fixed_records, records

from memsim.formats import FORMATS, ExportInfo, FormatError
from memsim.formats.hf import config_name
from memsim.records import Record

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")
HF = FORMATS.get("hf")
MANIFEST = {"memsim_version": "0.1.0", "schema": {"name": "daily_life", "version": "1.0.0"},
            "options": {"seed": 0}}  # fmt: skip


def _export(out: Path, recs: list[Record]) -> list[str]:
    out.mkdir(exist_ok=True)
    return HF.write(recs, out, ExportInfo(title="memsim test", locale="en", manifest=MANIFEST))


@SETTINGS
@given(recs=records())
def test_native_to_hf_and_back_gives_the_same_records(
    tmp_path_factory: pytest.TempPathFactory, recs: list[Record]
) -> None:
    out = tmp_path_factory.mktemp("hf") / "out"
    files = _export(out, recs)
    assert files[-1] == "README.md" and all((out / f).is_file() for f in files)
    assert HF.detect(out)
    assert sorted(HF.read(out), key=lambda r: r.tid) == recs


def test_config_names_are_safe_file_names() -> None:
    assert config_name("post_processing") == "post_processing"
    assert config_name("single-session-user") == "single-session-user"
    assert config_name("a b/c") == "a_b_c" and config_name("") == "untyped"
    assert config_name("all") == "all_"  # the name of the config over every file


def test_the_bytes_do_not_change_between_runs(tmp_path: Path) -> None:
    recs = fixed_records(30)
    first, second = tmp_path / "a", tmp_path / "b"
    assert _export(first, recs) == _export(second, recs)
    for name in _export(first, recs):
        assert (first / name).read_bytes() == (second / name).read_bytes(), name


def test_the_card_declares_configs_features_and_figures(tmp_path: Path) -> None:
    _export(tmp_path / "out", fixed_records(12))
    text = (tmp_path / "out" / "README.md").read_text("utf-8")
    assert text.startswith("---\n") and "&id" not in text
    front = yaml.safe_load(text.split("---\n")[1])
    assert front["license"] == "apache-2.0" and front["language"] == ["en"]
    assert front["task_categories"] == ["question-answering"] and front["size_categories"] == [
        "n<1K"
    ]
    configs = {c["config_name"]: c for c in front["configs"]}
    assert configs["all"]["default"] is True
    assert configs["all"]["data_files"] == [{"split": "test", "path": "data/*-test.parquet"}]
    assert (
        configs["post_processing"]["data_files"][0]["path"] == "data/post_processing-test.parquet"
    )
    sizes = {i["config_name"]: i["splits"][0]["num_examples"] for i in front["dataset_info"]}
    assert sizes == {"all": 12, "simple": 2, "conditional": 2, "comparative": 2,
                     "aggregative": 2, "post_processing": 2, "noisy": 2}  # fmt: skip
    assert "| all | 12 | 12 | 36 | 3.00 | 12 |" in text
    assert "Made by memsim 0.1.0 from schema daily_life 1.0.0, seed 0." in text


LOAD = """
import json, sys, datasets
folder = sys.argv[1]
out = {}
for config in ("all", "simple", "noisy"):
    ds = datasets.load_dataset(folder, config, split="test")
    out[config] = ds.num_rows
features = ds.features
out["tid"] = repr(features["tid"])
out["turn_id"] = repr(features["sessions"].feature["turns"].feature["id"])
out["evidence"] = repr(features["qa"]["evidence"])
out["provenance"] = sorted(features["qa"]["provenance"])
out["gold"] = ds[0]["qa"]["gold"]
out["first"] = ds[0]["sessions"][0]["turns"][1]["purpose"]
print(json.dumps(out))
"""


def test_datasets_loads_the_folder_offline_with_typed_features(tmp_path: Path) -> None:
    pytest.importorskip("datasets")
    _export(tmp_path / "out", fixed_records(12))
    env = {**os.environ, "HF_DATASETS_OFFLINE": "1", "HF_HUB_OFFLINE": "1",
           "HF_HOME": str(tmp_path / "hf_home"), "HF_HUB_DISABLE_TELEMETRY": "1"}  # fmt: skip
    done = subprocess.run(
        [sys.executable, "-c", LOAD, str(tmp_path / "out")],
        env=env, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Ignoring part of dataset_info" not in done.stderr
    loaded = json.loads(done.stdout.strip().splitlines()[-1])
    assert (loaded["all"], loaded["simple"], loaded["noisy"]) == (12, 2, 2)
    assert loaded["tid"] == loaded["turn_id"] == "Value('int64')"
    assert loaded["evidence"] == "List(Value('int64'))"
    assert "fact_ids" in loaded["provenance"] and loaded["first"] == "evidence"
    assert loaded["gold"] == "B"


def test_pyarrow_is_imported_only_when_the_format_is_used(tmp_path: Path) -> None:
    code = (
        "import sys; import memsim.formats.hf; assert 'pyarrow' not in sys.modules;"
        "sys.modules['pyarrow'] = None\n"
        "from pathlib import Path\n"
        "from memsim.formats import FORMATS, ExportInfo\n"
        "try:\n    FORMATS.get('hf').write([], Path(sys.argv[1]), ExportInfo())\n"
        "except ImportError as exc:\n    print(exc)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True, check=True
    )
    assert "pip install 'memsim[hf]'" in done.stdout
    assert not any(tmp_path.iterdir())


def _rewrite(path: Path, change: object) -> None:
    table = pq.read_table(path)
    pq.write_table(change(table), path)  # type: ignore[operator]


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda t: t.drop_columns(["qa"]), "qa"),
        (lambda t: t.set_column(t.schema.get_field_index("tid"), "tid", pa.array([str(v) for v in t["tid"].to_pylist()])), "tid"),
        (lambda t: t.set_column(t.schema.get_field_index("scenario"), "scenario", pa.array([None] * t.num_rows, pa.string())), "scenario"),
        (lambda t: t.set_column(t.schema.get_field_index("qa"), "qa", pa.array([{**q, "question": None} for q in t["qa"].to_pylist()], t.schema.field("qa").type)), "qa.question"),
        (lambda t: t.set_column(t.schema.get_field_index("qa"), "qa", pa.array([{**q, "provenance": {**q["provenance"], "params": "{"}} for q in t["qa"].to_pylist()], t.schema.field("qa").type)), "qa.provenance.params"),
        (lambda t: t.set_column(t.schema.get_field_index("extra"), "extra", pa.array(["{"] * t.num_rows)), "extra"),
    ],
)  # fmt: skip
def test_bad_files_name_the_file_and_the_field(tmp_path: Path, change: object, field: str) -> None:
    _export(tmp_path / "out", fixed_records(6))
    path = tmp_path / "out" / "data" / "noisy-test.parquet"
    _rewrite(path, change)
    with pytest.raises(FormatError) as caught:
        list(HF.read(tmp_path / "out"))
    assert (caught.value.path, caught.value.field) == (str(path), field)


def test_a_file_that_is_not_parquet_is_a_format_error(tmp_path: Path) -> None:
    _export(tmp_path / "out", fixed_records(6))
    (tmp_path / "out" / "data" / "aggregative-test.parquet").write_text("not parquet")
    with pytest.raises(FormatError, match=r"aggregative-test\.parquet: not a Parquet file"):
        list(HF.read(tmp_path / "out"))
    assert not HF.detect(tmp_path) and not HF.detect(tmp_path / "nothing")


def test_records_sharing_a_history_still_share_it_read_back(tmp_path: Path) -> None:
    """As LoCoMo's questions share their conversation's sessions."""
    a, b, c = fixed_records(3)
    b = dataclasses.replace(b, type=a.type, sessions=a.sessions)
    c = dataclasses.replace(c, type=a.type)
    _export(tmp_path / "out", [a, b, c])
    back = list(HF.read(tmp_path / "out"))
    assert back == [a, b, c]
    assert back[0].sessions is back[1].sessions and back[2].sessions is not back[1].sessions
