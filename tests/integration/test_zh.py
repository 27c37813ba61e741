"""A generated Chinese dataset, end to end: made by the CLI as a user makes it, read
by the reader that reads the real MemDaily, with MemDaily's exact time format; every
template message recognised by memsim.verify as stating its facts (and not wrong
values); relative times resolved right; the same files whatever the number of workers.
"""

from __future__ import annotations

import datetime as dt
import json
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from memsim.formats.memdaily import read_memdaily
from memsim.profile import Fact, Profile
from memsim.qa import KIND_ORDER, planned_scenarios
from memsim.schema import load_schema
from memsim.verbalize import load_locale, relative_form, resolve_relative, value_at
from memsim.verify import StatedFact, fact_stated

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = ROOT / "schemas" / "daily_life.zh.yaml"
PER_TYPE = 30
ZH = load_locale("zh")
MEMDAILY_TIME = re.compile(r"^(\d{4})年(\d{2})月(\d{2})日 (周[一二三四五六日]) (\d{2}):(\d{2})$")
WEEKDAYS = ["周一", "周二", "周三", "周四", "周五", "周六", "周日"]
ENGLISH = re.compile(r"\b(?:the|of|and|is|my|at|on|AM|PM|tomorrow|next|this|None)\b")


def _memsim(*args: str) -> None:
    cmd = [sys.executable, "-m", "memsim", *args]
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, f"{' '.join(cmd)}\n{proc.stdout}\n{proc.stderr}"


@pytest.fixture(scope="session")
def zh_runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Profiles, then the same dataset twice: one worker and two."""
    base = tmp_path_factory.mktemp("zh")
    profiles = base / "profiles"
    _memsim("profiles", "--schema", str(SCHEMA), "--n", str(9 * PER_TYPE), "--out", str(profiles))
    out = {"profiles": profiles}
    for name, workers in (("one", "1"), ("two", "2")):
        out[name] = base / f"dataset_{name}"
        _memsim(
            "generate",
            "--schema",
            str(SCHEMA),
            "--profiles",
            str(profiles),
            "--out",
            str(out[name]),
            "--per-type",
            str(PER_TYPE),
            "--workers",
            workers,
            "--no-progress",
        )
    return out


@pytest.fixture(scope="session")
def zh_records(zh_runs: dict[str, Path]) -> list[dict[str, Any]]:
    lines = (zh_runs["one"] / "dataset.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines]


@pytest.fixture(scope="session")
def zh_profiles(zh_runs: dict[str, Path], zh_records: list[dict[str, Any]]) -> dict[str, Profile]:
    ids = {r["profile_id"] for r in zh_records}
    return {
        pid: Profile.from_json(json.loads((zh_runs["profiles"] / f"{pid}.json").read_text()))
        for pid in ids
    }


def test_memdaily_json_is_read_by_the_memdaily_reader(
    zh_runs: dict[str, Path], zh_records: list[dict[str, Any]]
) -> None:
    items = read_memdaily(zh_runs["one"] / "memdaily.json")
    assert len(items) == len(zh_records) == 9 * PER_TYPE
    assert not any(item.flagged for item in items)
    assert Counter(i.type for i in items) == Counter(r["type"] for r in zh_records)
    assert sum(len(i.messages) for i in items) == sum(len(r["message_list"]) for r in zh_records)
    assert {(i.type, i.scenario) for i in items} == {(r["type"], r["scenario"]) for r in zh_records}


def test_every_time_is_written_exactly_as_memdaily_writes_it(
    zh_runs: dict[str, Path], zh_records: list[dict[str, Any]]
) -> None:
    items = read_memdaily(zh_runs["one"] / "memdaily.json")
    native = {(r["type"], r["scenario"]): [] for r in zh_records}  # type: dict[tuple[str, str], list[dict[str, Any]]]
    for r in zh_records:
        native[(r["type"], r["scenario"])].append(r)
    checked = 0
    for item in items:
        record = native[(item.type, item.scenario)][item.tid]
        pairs = [
            (m["time"], n["time"])
            for m, n in zip(item.messages, record["message_list"], strict=True)
        ]
        pairs.append((item.qa["time"], record["QA"]["time"]))
        for shown, iso in pairs:
            m = MEMDAILY_TIME.match(shown)
            assert m, shown
            when = dt.datetime.fromisoformat(iso)
            year, month, day, weekday, hour, minute = m.groups()
            assert dt.datetime(int(year), int(month), int(day), int(hour), int(minute)) == when
            assert WEEKDAYS[when.weekday()] == weekday, shown
            checked += 1
    assert checked > 2000


def test_text_has_no_leftovers_and_no_english(zh_records: list[dict[str, Any]]) -> None:
    problems = []
    for r in zh_records:
        texts = [m["message"] for m in r["message_list"]] + [m["place"] for m in r["message_list"]]
        texts += [r["QA"]["question"], r["QA"]["answer"], *r["QA"]["choices"].values()]
        for text in texts:
            if re.search(r"[{}]|\s{2,}|[。，？！][。，？！]", text) or ENGLISH.search(text):
                problems.append(text)
    assert not problems, problems[:10]


def test_every_template_message_states_its_facts_and_not_wrong_values(
    zh_records: list[dict[str, Any]], zh_profiles: dict[str, Profile]
) -> None:
    stated = wrong = 0
    for record in zh_records:
        profile = zh_profiles[record["profile_id"]]
        for m in record["message_list"]:
            if m["role"] in ("noise", "chit_chat"):
                continue
            said = dt.datetime.fromisoformat(m["time"])
            for fact_id in m["facts"]:
                entity_id, attr = fact_id.rsplit(".", 1)
                entity = profile.entity(entity_id)
                fact = entity.facts[attr]
                value = value_at(fact, said)
                assert fact_stated(m["message"], StatedFact(entity, fact, value, said), ZH), (
                    fact_id,
                    value,
                    m["message"],
                )
                stated += 1
                # a number the message states for its other fact is no wrong value here
                # ("37岁 ... 生日是2月27日" states 27; "xufan41@" holds 41)
                others = {
                    number
                    for other in m["facts"]
                    if other != fact_id
                    for number in re.findall(r"\d+", str(_value_of(profile, other, said)))
                }
                for bad in _wrong_values(fact, value):
                    if fact.type == "integer" and str(bad) in others:
                        continue
                    assert not fact_stated(m["message"], StatedFact(entity, fact, bad, said), ZH), (
                        fact_id,
                        value,
                        bad,
                        m["message"],
                    )
                    wrong += 1
    assert stated > 1500 and wrong > 1000


def _value_of(profile: Profile, fact_id: str, said: dt.datetime) -> Any:
    entity_id, attr = fact_id.rsplit(".", 1)
    return value_at(profile.entity(entity_id).facts[attr], said)


def _wrong_values(fact: Fact, value: Any) -> list[Any]:
    """Values near the true one that a careless recogniser would accept."""
    if fact.type == "integer":
        return [int(value) + d for d in (-10, -1, 1, 2, 10)]
    if fact.type == "month_day":
        day = dt.date(2000, *(int(x) for x in str(value).split("-")))
        return [(day + dt.timedelta(days=d)).strftime("%m-%d") for d in (-1, 1, 31)]
    if fact.type == "datetime":
        when = dt.datetime.fromisoformat(str(value))
        shifts = (dt.timedelta(days=1), dt.timedelta(days=7), dt.timedelta(hours=12))
        shifts += (dt.timedelta(minutes=30), -dt.timedelta(days=7), -dt.timedelta(minutes=30))
        return [(when + s).isoformat(timespec="minutes") for s in shifts]
    text = str(value)
    if sum(c.isdigit() for c in text) >= 4:  # phone, card and ID numbers
        i = max(k for k, c in enumerate(text) if c.isdigit())
        return [text[:i] + str((int(text[i]) + 1) % 10) + text[i + 1 :]]
    return []


def test_relative_times_are_resolved_against_the_message(
    zh_records: list[dict[str, Any]], zh_profiles: dict[str, Profile]
) -> None:
    relative = 0
    for record in zh_records:
        profile = zh_profiles[record["profile_id"]]
        for m in record["message_list"]:
            if m["role"] in ("noise", "chit_chat"):
                continue
            said = dt.datetime.fromisoformat(m["time"])
            for fact_id in m["facts"]:
                fact = profile.fact(fact_id)
                if fact.type != "datetime":
                    continue
                event = dt.datetime.fromisoformat(str(fact.value))
                resolved = resolve_relative(m["message"], said, ZH)
                if relative_form(event, said) is None:
                    assert resolved is None, m["message"]
                else:
                    assert resolved == event.date(), (m["time"], m["message"])
                    relative += 1
    assert relative > 20


def test_same_output_whatever_the_number_of_workers(zh_runs: dict[str, Path]) -> None:
    for name in ("dataset.jsonl", "memdaily.json", "data_card.csv"):
        assert (zh_runs["one"] / name).read_bytes() == (zh_runs["two"] / name).read_bytes(), name


def test_every_kind_and_scenario_is_asked_in_chinese(zh_records: list[dict[str, Any]]) -> None:
    asked = {(r["type"], r["scenario"]) for r in zh_records}
    # every scenario the plan gives (one item and one place: not compared or counted)
    assert asked == {(k, s) for k in KIND_ORDER for s in planned_scenarios(load_schema(SCHEMA), k)}
    for r in zh_records:
        assert r["locale"] == "zh"
        assert re.search(r"[\u4e00-\u9fff]", r["QA"]["question"]), r["QA"]["question"]
        # a comparison that states a margin ends with it: "……谁更高？相差不超过5cm就算一样。"
        question = re.sub(r"相差不超过[^？。]+就算一样。$", "", r["QA"]["question"])
        assert question.endswith("？"), r["QA"]["question"]


REAL = ROOT.parent / "shared" / "memdaily"


@pytest.mark.skipif(
    not REAL.is_dir(),
    reason=f"the MemDaily reference data is not at {REAL} (project machines only)",
)
def test_the_time_format_checked_above_is_memdailys_own() -> None:
    items = read_memdaily(REAL)
    times = [m["time"] for i in items for m in i.messages] + [i.qa["time"] for i in items]
    assert len(times) > 25_000
    assert all(MEMDAILY_TIME.match(t) for t in times), [
        t for t in times if not MEMDAILY_TIME.match(t)
    ][:5]


def test_a_generated_chinese_dataset_audits_clean(zh_runs: dict[str, Path], tmp_path: Path) -> None:
    report = tmp_path / "report"
    cmd = [
        sys.executable,
        "-m",
        "memsim",
        "audit",
        str(zh_runs["one"]),
        "--profiles",
        str(zh_runs["profiles"]),
        "--schema",
        str(SCHEMA),
        "--report",
        str(report),
        "--no-progress",
    ]
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=600)
    found = json.loads((report / "report.json").read_text(encoding="utf-8"))
    errors = [f for f in found["findings"] if f["severity"] == "error"]
    assert not errors, errors[:5]
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert found["checks"]["answer_rederived"]["items"] == 9 * PER_TYPE
    assert found["checks"]["messages_state_facts"]["counts"]["facts checked"] > 1000
