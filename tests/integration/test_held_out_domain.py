"""A domain written from the README alone, as a new user would (tests/data/shopping.en.yaml
and shopping.zh.yaml: a shopper, gift recipients, orders, a headset, a pickup point; no
overlay; and garden.en.yaml: a gardener, plot neighbours, sowings, an apple tree, a
garden centre, with numbers and dates compared within a stated margin): it validates, generates every QA kind (the history kinds too: its attributes
change) in every scenario its plan gives, audits with no error, and its questions speak
of its own kinds, not of daily life's."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from tests.integration._domain_run import run_domain

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"
DAILY = {code: ROOT / "schemas" / f"daily_life.{code}.yaml" for code in ("en", "zh")}
OWN_WORDS = {
    "shopping.en": ("order", "headset", "pickup point", "membership tier", "gift budget"),
    "shopping.zh": ("订单", "耳机", "取件点", "会员等级", "礼物预算"),
    "garden.en": ("sowing", "apple tree", "garden centre", "plot", "watering routine"),
}
PER_TYPE = 12


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
    _, records = run_domain(schema_path, tmp_path, PER_TYPE)

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
