"""The corruption catalogue: every way a message can say more or other than its facts
is an audit error (``messages_faithful``), in template and in LLM messages, in English
and in Chinese; the clean datasets audit with 0 errors."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hostile_run import SCHEMA, SCHEMA_ZH, assert_refused, memsim

from memsim.llm.testing import FakeChatServer

Corrupt = Callable[[str], str]


def _bump_number(text: str) -> str:
    return re.sub(r"\d+", lambda m: str(int(m.group()) + 7), text, count=1)


_CHANGE_EN = re.compile(r"(?:Since|after|with) [^.:]*? on [A-Z][a-z]+ (\d{1,2}), \d{4}")
_CHANGE_ZH = re.compile(r"(?:自从|新情况，|这是)\d{4}年\d{1,2}月(\d{1,2})日")


def _move_change_day(pattern: re.Pattern[str]) -> Corrupt:
    """The day of a change said explicitly moved by one (a week's shift in the first
    number once passed: only the sentence after the change's words was compared)."""

    def move(text: str) -> str:
        found = pattern.search(text)
        assert found is not None
        day = int(found.group(1))
        return text[: found.start(1)] + str(day + 1 if day < 28 else day - 1) + text[found.end(1) :]

    return move


EN: dict[str, tuple[Corrupt, Callable[[str], bool]]] = {
    "appended invented sentence": (lambda t: t + " I moved to Atlantis with 98765 cousins.", bool),
    "appended invented person": (lambda t: t + " My friend Bartholomew agrees.", bool),
    "appended invented place": (lambda t: t + " I was in Tokyo then.", bool),
    "appended invented number": (lambda t: t + " It cost me 250 dollars.", bool),
    "appended invented date": (lambda t: t + " That was on March 3, 2021.", bool),
    "appended known city": (lambda t: t + " We met in Chicago.", lambda t: "Chicago" not in t),
    "swapped number": (_bump_number, lambda t: re.search(r"\d", t) is not None),
    "moved change day": (_move_change_day(_CHANGE_EN), lambda t: bool(_CHANGE_EN.search(t))),
    "negation prepended": (lambda t: "It's not true that " + t[0].lower() + t[1:], bool),
    "negation inside": (lambda t: t.replace(" is ", " is not ", 1), lambda t: " is " in t),
    "don't appended": (lambda t: t + " I don't think so, though.", bool),
    "self-correction": (lambda t: t + " No wait, 31.", bool),
    "correction word": (lambda t: t + " Actually, scratch that.", bool),
    "prompt leak": (lambda t: "Here is the rewritten message: " + t, bool),
}
ZH: dict[str, tuple[Corrupt, Callable[[str], bool]]] = {
    "zh appended invented sentence": (lambda t: t + "我搬到了亚特兰蒂斯，有98765个表亲。", bool),
    "zh appended invented place": (lambda t: t + "那时我在东京。", bool),
    "zh appended invented number": (lambda t: t + "花了我250块钱。", bool),
    "zh swapped number": (_bump_number, lambda t: re.search(r"\d", t) is not None),
    "zh moved change day": (_move_change_day(_CHANGE_ZH), lambda t: bool(_CHANGE_ZH.search(t))),
    "zh negation": (lambda t: "其实不是这样：" + t, bool),
    "zh denial appended": (lambda t: t + "我没有骗你。", bool),
    "zh self-correction": (lambda t: t + "不对，是31。", bool),
    "zh correction word": (lambda t: t + "我是说错了。", bool),
    "zh appended known city": (lambda t: t + "我们在上海见过面。", lambda t: "上海" not in t),
}


def _llm_dataset(folder: Path, schema: Path) -> Path:
    """A dataset whose messages the fake LLM rewrote (faithfully) and memsim verified."""
    profiles, out = folder / "profiles", folder / "llm_dataset"
    with FakeChatServer() as server:
        proc = memsim(
            "generate", "--schema", schema, "--profiles", profiles, "--out", out,
            "--per-type", 10, "--no-progress", "--verbalizer", "openai", "--model", "fake",
            "--base-url", server.base_url, "--cache", folder / "cache",
            env={**os.environ, "OPENAI_API_KEY": "sk-fake"},
        )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    return out


def _corrupt(
    dataset: Path, catalogue: dict[str, tuple[Corrupt, Callable[[str], bool]]], path: str
) -> dict[str, tuple[int, int]]:
    """Each corruption applied to one message (of verbalizer ``path``) of its own
    trajectory; (tid, mid) of each."""
    file = dataset / "dataset.jsonl"
    records: list[dict[str, Any]] = [json.loads(line) for line in file.read_text().splitlines()]
    done: dict[str, tuple[int, int]] = {}
    kinds = iter(catalogue.items())
    kind, (corrupt, fits) = next(kinds)
    for record in records:
        for m in record["message_list"]:
            if m["facts"] and m.get("verbalizer") == path and fits(m["message"]):
                m["message"] = corrupt(m["message"])
                done[kind] = (record["tid"], m["mid"])
                break
        else:
            continue
        try:
            kind, (corrupt, fits) = next(kinds)
        except StopIteration:
            break
    assert len(done) == len(catalogue), f"no message to corrupt for {set(catalogue) - set(done)}"
    file.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records))
    return done


def _findings(folder: Path) -> set[tuple[int, int]]:
    report = json.loads((folder / "report" / "report.json").read_text(encoding="utf-8"))
    found = set()
    for f in report["findings"]:
        if f["check"] != "messages_faithful":
            continue
        mid = int(re.match(r"message (\d+)", f["message"]).group(1))  # type: ignore[union-attr]
        found.add((f["tid"], mid))
    return found


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("path", ["template", "llm"])
def test_every_corruption_is_an_audit_error(
    built: Path, built_zh: Path, tmp_path: Path, lang: str, path: str
) -> None:
    import shutil

    source, schema, catalogue = (built, SCHEMA, EN) if lang == "en" else (built_zh, SCHEMA_ZH, ZH)
    folder = Path(shutil.copytree(source, tmp_path / lang))
    dataset = folder / "dataset" if path == "template" else _llm_dataset(folder, schema)
    clean = memsim(
        "audit", dataset, "--profiles", folder / "profiles", "--schema", schema,
        "--check", "messages_faithful", "--check", "messages_state_facts", "--no-progress",
    )  # fmt: skip
    assert_refused(clean, "0 error(s)", code=0)
    planted = _corrupt(dataset, catalogue, path)
    proc = memsim(
        "audit", dataset, "--profiles", folder / "profiles", "--schema", schema,
        "--check", "messages_faithful", "--report", folder / "report", "--no-progress",
    )  # fmt: skip
    assert_refused(proc, code=1)
    missed = {kind for kind, at in planted.items() if at not in _findings(folder)}
    assert not missed, f"not caught in {lang} {path} messages: {sorted(missed)}"
