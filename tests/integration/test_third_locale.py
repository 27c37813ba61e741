"""A locale is data, not code: a third locale that memsim has never heard of (the
pseudo-locale ``xx`` of tests/data/locales, found through MEMSIM_LOCALE_PATH) and a
tiny schema in it (tests/data/pseudo.yaml) give a whole dataset through the CLI, with
every QA kind and scenario, its own time format, and not one word of English that
memsim's code would have written by itself."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from memsim.formats.memdaily import read_memdaily
from memsim.qa import KIND_ORDER, planned_scenarios
from memsim.schema import load_schema
from memsim.verbalize import load_locale

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"
SCHEMA = DATA / "pseudo.yaml"
PER_TYPE = 16
XX = load_locale(str(DATA / "locales" / "xx.yaml"))
ENGLISH = re.compile(
    r"\b(?:the|of|and|or|is|are|my|at|on|in|a|an|I|what|whose|how|many|more|than|least|"
    r"most|tomorrow|this|next|AM|PM|home|None|years?|they|same|never|told|you|both)\b",
    re.IGNORECASE,
)


def _memsim(*args: str) -> None:
    env = {**os.environ, "MEMSIM_LOCALE_PATH": str(DATA / "locales")}
    cmd = [sys.executable, "-m", "memsim", *args]
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300, env=env)
    assert proc.returncode == 0, f"{' '.join(cmd)}\n{proc.stdout}\n{proc.stderr}"


@pytest.fixture(scope="session")
def pseudo_dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("pseudo")
    _memsim("profiles", "--schema", str(SCHEMA), "--n", str(9 * PER_TYPE), "--out", str(base / "p"))
    _memsim(
        "generate",
        "--schema",
        str(SCHEMA),
        "--profiles",
        str(base / "p"),
        "--out",
        str(base / "d"),
        "--per-type",
        str(PER_TYPE),
        "--no-progress",
    )
    return base / "d"


@pytest.fixture(scope="session")
def pseudo_records(pseudo_dataset: Path) -> list[dict[str, Any]]:
    lines = (pseudo_dataset / "dataset.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines]


def test_every_kind_and_scenario_is_generated(pseudo_records: list[dict[str, Any]]) -> None:
    asked = {(r["type"], r["scenario"]) for r in pseudo_records}
    # every scenario the plan gives (one item and one place: not compared or counted)
    assert asked == {(k, s) for k in KIND_ORDER for s in planned_scenarios(load_schema(SCHEMA), k)}
    assert {r["locale"] for r in pseudo_records} == {"xx"}


def test_no_leftover_tokens_and_no_english_of_memsims_own(
    pseudo_records: list[dict[str, Any]],
) -> None:
    problems = []
    for r in pseudo_records:
        texts = [m["message"] for m in r["message_list"]] + [m["place"] for m in r["message_list"]]
        texts += [r["QA"]["question"], r["QA"]["answer"], *r["QA"]["choices"].values()]
        for text in texts:
            # e-mail addresses are romanised on purpose: take them out first
            bare = re.sub(r"\S+@\S+", "", text)
            if re.search(r"[{}]|\s{2,}|\s[.,!?]", text) or ENGLISH.search(bare):
                problems.append(text)
    assert not problems, problems[:10]


def test_the_locales_own_conventions_are_used(
    pseudo_dataset: Path, pseudo_records: list[dict[str, Any]]
) -> None:
    items = read_memdaily(pseudo_dataset / "memdaily.json")
    assert len(items) == len(pseudo_records)
    shorts = "|".join(XX.calendar.weekdays_short)
    time = re.compile(rf"^\d{{2}}/\d{{2}}/2024 (?:{shorts})\. \d{{2}}h\d{{2}}$")
    times = [m["time"] for i in items for m in i.messages] + [i.qa["time"] for i in items]
    assert all(time.match(t) for t in times), [t for t in times if not time.match(t)][:5]
    text = " ".join(m["message"] for r in pseudo_records for m in r["message_list"])
    questions = " ".join(r["QA"]["question"] for r in pseudo_records)
    assert re.search(r"\d{2}h\d{2}", text)  # the 24-hour clock of the locale
    assert " / " in questions  # its hybrid joiner
    assert any(" | " in r["QA"]["answer"] for r in pseudo_records if r["scenario"] == "hybrid")
    units = [o for r in pseudo_records for o in r["QA"]["choices"].values() if "\u00a0" in o]
    assert units  # "36 ýéáŕš" with its non-breaking space, from with_unit
    places = {m["place"] for r in pseudo_records for m in r["message_list"]}
    at_events = places - {XX.home}  # the user has no work city: home, or at an event
    # messages come before the events they state (plans), so few are sent at an event
    assert XX.home in places
    assert all(re.fullmatch(r"ţĥé \S.* \(\S.*\)", p) for p in at_events), at_events
