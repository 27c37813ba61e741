"""A domain written from the README alone, as a new user would (tests/data/shopping.en.yaml
and shopping.zh.yaml: a shopper, gift recipients, orders, a headset, a pickup point; no
overlay; and garden.en.yaml: a gardener, plot neighbours, sowings, an apple tree, a
garden centre, with numbers and dates compared within a stated margin): it validates, generates every QA kind (the history kinds too: its attributes
change) in every scenario its plan gives, audits with no error, and its questions speak
of its own kinds, not of daily life's."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from memsim.qa import KIND_ORDER, default_kinds, planned_scenarios
from memsim.schema import load_schema

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"
DAILY = {code: ROOT / "schemas" / f"daily_life.{code}.yaml" for code in ("en", "zh")}
OWN_WORDS = {
    "shopping.en": ("order", "headset", "pickup point", "membership tier", "gift budget"),
    "shopping.zh": ("订单", "耳机", "取件点", "会员等级", "礼物预算"),
    "garden.en": ("sowing", "apple tree", "garden centre", "plot", "watering routine"),
}
PER_TYPE = 12


def _memsim(*args: str) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, "-m", "memsim", *args]
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, f"{' '.join(cmd)}\n{proc.stdout}\n{proc.stderr}"
    return proc


def _daily_life_words(code: str) -> set[str]:
    """The labels of daily life's kinds ("relative", "colleague", "work event"), less the
    words any domain says ("place": events "take place")."""
    doc = yaml.safe_load(DAILY[code].read_text(encoding="utf-8"))
    labels = {e["label"][code].casefold() for e in doc["entities"].values() if "label" in e}
    return labels - {"place", "item", "user", "地点", "物品", "用户"}


@pytest.mark.parametrize("name", ["shopping.en", "shopping.zh", "garden.en"])
def test_a_new_users_domain_generates_every_kind_and_audits_clean(
    name: str, tmp_path: Path
) -> None:
    schema_path = DATA / f"{name}.yaml"
    code = name.rsplit(".", 1)[1]
    _memsim("schema", "validate", str(schema_path))
    n = len(KIND_ORDER) * PER_TYPE
    _memsim("profiles", "--schema", str(schema_path), "--n", str(n), "--out", str(tmp_path / "p"))
    _memsim(
        "generate", "--schema", str(schema_path), "--profiles", str(tmp_path / "p"),
        "--out", str(tmp_path / "d"), "--per-type", str(PER_TYPE), "--no-progress",
    )  # fmt: skip
    _memsim(
        "audit", str(tmp_path / "d"), "--profiles", str(tmp_path / "p"), "--schema",
        str(schema_path), "--report", str(tmp_path / "a"), "--no-progress",
    )  # fmt: skip
    schema = load_schema(schema_path)
    assert default_kinds(schema) == KIND_ORDER
    lines = (tmp_path / "d" / "dataset.jsonl").read_text(encoding="utf-8").splitlines()
    records = [json.loads(line) for line in lines]
    made = {(r["type"], r["scenario"]) for r in records}
    assert made == {(k, s) for k in KIND_ORDER for s in planned_scenarios(schema, k)}
    report = json.loads((tmp_path / "a" / "report.json").read_text(encoding="utf-8"))
    errors = [f for f in report["findings"] if f["severity"] == "error"]
    assert report["verdict"]["errors"] == 0, errors[:5]

    # daily life's kind labels, less those this schema says itself (a coworker, 同事)
    own = schema_path.read_text(encoding="utf-8").casefold()
    daily = {w for w in _daily_life_words(code) if w not in own}
    assert len(daily) >= 3
    questions = " ".join(r["QA"]["question"] for r in records).casefold()
    bound = r"\b" if code == "en" else ""
    assert not {w for w in daily if re.search(rf"{bound}{re.escape(w)}s?{bound}", questions)}
    # the questions name this domain's kinds as the schema refers to them
    for word in OWN_WORDS[name]:
        assert word in questions, word
