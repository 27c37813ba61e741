"""The LLM rewrite pass end to end, in-process, through both official SDKs against the
fake chat server on 127.0.0.1: faithful rewrites reach the data; faults (5xx, 429 with
Retry-After, stalls past the timeout, malformed bodies, replies that drop, change or
invent facts or leak the prompt) never do; reruns hit the cache and give the same
bytes; the accounting matches the server's log."""

from __future__ import annotations

import datetime as dt
import json
import re
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from rewrite_run import SCHEMA, audit_findings, generate, read_records

from memsim.cli import main
from memsim.llm import LLMConfigError
from memsim.llm.testing import CONTENT_FAULTS, FakeChatServer, Fault, LogEntry, Rule
from memsim.profile import Profile
from memsim.qa import make_context
from memsim.rewrite import RUNS_LOG, LLMUnavailableError, RewriteOptions, rewrite_vocabulary
from memsim.schema import load_schema
from memsim.verbalize import value_at
from memsim.verify import StatedFact, check_rewrite

BACKENDS = ("openai", "zhipuai")
CJK = re.compile(r"[\u4e00-\u9fff]")
TEXT_KEYS = {"message", "verbalizer", "template"}
QUESTION_KEYS = {"question", "verbalizer", "template"}


def options(backend: str, server: FakeChatServer, cache: Path, **kw: Any) -> RewriteOptions:
    return RewriteOptions(
        backend=backend,
        model="fake-model",
        base_url=server.base_url,
        cache_dir=str(cache),
        paraphrase_questions=True,
        **kw,
    )


def without(d: dict[str, Any], keys: set[str]) -> dict[str, Any]:
    return {k: v for k, v in d.items() if k not in keys}


def assert_only_text_changed(llm: list[dict[str, Any]], tpl: list[dict[str, Any]]) -> None:
    """The LLM changed message and question wording only: never an answer, an option,
    a label, a time, a place or a fact id."""
    assert len(llm) == len(tpl)
    for a, b in zip(llm, tpl, strict=True):
        assert without(a, {"message_list", "QA"}) == without(b, {"message_list", "QA"})
        assert without(a["QA"], QUESTION_KEYS) == without(b["QA"], QUESTION_KEYS)
        assert [without(m, TEXT_KEYS) for m in a["message_list"]] == [
            without(m, TEXT_KEYS) for m in b["message_list"]
        ]


def independent_problems(
    records: list[dict[str, Any]], profiles_dir: Path, schema_path: Path = SCHEMA
) -> list[str]:
    """Every 'llm' message re-checked with memsim.verify from the profile JSON."""
    schema = load_schema(schema_path)
    ctx = make_context(schema, 0)
    vocab = rewrite_vocabulary(ctx)
    noise = {p.id: p for p in ctx.noise_profiles}
    found = []
    for rec in records:
        profile = Profile.from_json(
            json.loads((profiles_dir / f"{rec['profile_id']}.json").read_text())
        )
        for m in rec["message_list"]:
            if m["verbalizer"] != "llm":
                continue
            when = dt.datetime.fromisoformat(m["time"])
            facts = []
            for fid in m["facts"]:
                owner = profile
                if ":" in fid:
                    pid, fid = fid.split(":", 1)
                    owner = noise[pid]
                entity = owner.entity(fid.rsplit(".", 1)[0])
                fact = entity.facts[fid.rsplit(".", 1)[1]]
                facts.append(StatedFact(entity, fact, value_at(fact, when), when))
            problems = check_rewrite(m["template"], m["message"], facts, ctx.loc, vocab)
            found += [f"{m['message']!r}: {p}" for p in problems]
    return found


def all_texts(records: list[dict[str, Any]]) -> list[str]:
    return [m["message"] for r in records for m in r["message_list"]] + [
        r["QA"]["question"] for r in records
    ]


@pytest.mark.parametrize("backend", BACKENDS)
def test_faithful_rewrites_reach_the_data_and_reruns_hit_the_cache(
    backend: str, tmp_path: Path, profiles_dir: Path, template_records: list[dict[str, Any]]
) -> None:
    cache = tmp_path / "cache"
    with FakeChatServer() as server:
        counts = generate(profiles_dir, tmp_path / "a" / "dataset", options(backend, server, cache))
        log = server.entries()
        records = read_records(tmp_path / "a" / "dataset")
        assert_only_text_changed(records, template_records)
        for rec, tpl in zip(records, template_records, strict=True):
            for m, t in zip(rec["message_list"], tpl["message_list"], strict=True):
                if m["facts"]:
                    assert m["verbalizer"] == "llm" and m["template"] == t["message"]
                    assert t["message"] in m["message"] != t["message"]  # framed, kept whole
                else:
                    assert m == t  # chit-chat is kept
            qa, kind = rec["QA"], rec["type"]
            if kind in ("simple", "conditional", "noisy") and rec["scenario"] != "hybrid":
                assert qa["verbalizer"] == "llm" and qa["template"] in qa["question"]
            else:
                assert qa == tpl["QA"]
        assert independent_problems(records, profiles_dir) == []

        # MemDaily's layout carries the rewritten text and nothing of ours
        memdaily = json.loads((tmp_path / "a" / "dataset" / "memdaily.json").read_text())
        flat = [
            m
            for s in memdaily.values()
            for items in s.values()
            for it in items
            for m in it["message_list"]
        ]
        assert sorted(m["message"] for m in flat) == sorted(
            m["message"] for r in records for m in r["message_list"]
        )
        assert all(set(m) == {"mid", "message", "time", "place"} for m in flat)

        # accounting: the manifest (what the data needed) and the run (what was called)
        llm = json.loads((tmp_path / "a" / "dataset" / "manifest.json").read_text())["llm"]
        data, run = llm["dataset"], counts["llm"]["run"]
        n_facts = sum(bool(m["facts"]) for r in records for m in r["message_list"])
        n_chat = sum(not m["facts"] for r in records for m in r["message_list"])
        n_questions = sum(r["QA"]["verbalizer"] == "llm" for r in records)
        assert data["messages"] == {"llm": n_facts, "template": n_chat}
        assert data["questions"]["llm"] == n_questions
        assert data["requests"] == run["requests"] == n_facts + n_questions
        assert data["rejected"] == 0 and data["fallbacks"] == {}
        assert run["calls"] == len(log) == run["requests"] - run["cache_hits"]
        assert run["retries"] == run["failures"] == 0
        assert run["prompt_tokens"] == sum(e.prompt_tokens for e in log)
        assert run["completion_tokens"] == sum(e.completion_tokens for e in log)
        assert {e.body["model"] for e in log} == {"fake-model"}
        assert llm["backend"] == backend and llm["prompts"]["locale"] == "en"

        # a rerun with the same cache makes no call and writes the same bytes
        again = generate(
            profiles_dir, tmp_path / "b" / "dataset", options(backend, server, cache, concurrency=3)
        )
        assert len(server.entries()) == len(log)
    assert again["llm"]["run"]["calls"] == 0
    assert again["llm"]["run"]["cache_hits"] == again["llm"]["run"]["requests"]
    for name in (
        "dataset.jsonl",
        "memdaily.json",
        "manifest.json",
        "data_card.md",
        "data_card.csv",
    ):
        assert (tmp_path / "a" / "dataset" / name).read_bytes() == (
            tmp_path / "b" / "dataset" / name
        ).read_bytes(), name
    runs = (cache / RUNS_LOG).read_text().splitlines()
    assert [json.loads(r)["run"]["calls"] for r in runs] == [len(log), 0]


FAULT_KINDS = [
    Fault("http", status=503),
    Fault("http", status=429, retry_after=0.3),
    Fault("stall", seconds=4.0),
    Fault("malformed_json"),
    Fault("not_json"),
    Fault("empty_content"),
    Fault("drop"),
    Fault("change"),
    Fault("invent"),
    Fault("invent_name"),
    Fault("leak"),
    Fault("http", status=400),
]
# one request in 31 gets each fault (12 of 31 get one); transport faults hit the first
# arrival only (the retry succeeds); spoiled replies and 400s come every time
FAULTS = [
    Rule(f, every=31, offset=i, times=1 if i < 6 else None) for i, f in enumerate(FAULT_KINDS)
]


@pytest.mark.parametrize("backend", BACKENDS)
def test_faults_never_reach_the_data(
    backend: str, tmp_path: Path, profiles_dir: Path, template_records: list[dict[str, Any]]
) -> None:
    with FakeChatServer(rules=FAULTS) as server:
        counts = generate(
            profiles_dir,
            tmp_path / "dataset",
            options(backend, server, tmp_path / "cache", timeout=1.5, max_retries=3),
        )
        time.sleep(4.0)  # stalled handlers log themselves when they wake up
        log = server.entries()
    records = read_records(tmp_path / "dataset")
    assert_only_text_changed(records, template_records)
    outcomes = {e.outcome for e in log}
    assert set(CONTENT_FAULTS) | {"http", "stall", "malformed_json", "not_json"} <= outcomes

    # every message is a verified rewrite or exactly the template sentence
    paths = {"llm": 0, "template_fallback": 0, "template": 0}
    for rec, tpl in zip(records, template_records, strict=True):
        for m, t in zip(rec["message_list"], tpl["message_list"], strict=True):
            paths[m["verbalizer"]] += 1
            if m["verbalizer"] != "llm":
                assert m["message"] == t["message"] and "template" not in m
        if rec["QA"]["verbalizer"] != "llm":
            assert rec["QA"]["question"] == tpl["QA"]["question"]
    assert paths["llm"] and paths["template_fallback"] and paths["template"]
    assert independent_problems(records, profiles_dir) == []

    # no spoiled reply, and nothing it invented, is anywhere in the data
    texts = set(all_texts(records))
    spoiled: list[LogEntry] = [e for e in log if e.outcome in CONTENT_FAULTS]
    assert spoiled and not any(e.text in texts for e in spoiled)
    blob = json.dumps(records)
    for invented in ("Zelda", "shanghai", "Here is the rewritten", "Guess what happened"):
        assert invented not in blob
    # and the audit, re-deriving every answer and re-reading every message, is clean
    assert audit_findings(tmp_path / "dataset", profiles_dir, tmp_path / "audit") == []

    # accounting matches the server's log
    data, run = counts["llm"]["dataset"], counts["llm"]["run"]
    transient = [
        e
        for e in log
        if e.outcome in ("http", "stall", "malformed_json", "not_json", "empty_content")
        and e.status != 400
    ]
    refused = {e.digest for e in log if e.status == 400}
    assert run["calls"] == len(log)
    assert run["retries"] == len(transient)
    assert run["retry_reasons"]["http_429"] == sum(e.status == 429 for e in log)
    assert run["retry_reasons"]["timeout"] == sum(e.outcome == "stall" for e in log)
    assert run["failures"] == len(refused) == data["fallbacks"]["failed"]
    assert data["failed_by_reason"] == {"http_400": len(refused)}
    assert data["rejected"] == len(spoiled)
    assert data["rejected_by_reason"]["meta_text"] >= sum(e.outcome == "leak" for e in log)
    assert data["rejected_by_reason"]["drops"] >= sum(e.outcome == "drop" for e in log)
    assert run["prompt_tokens"] == sum(e.prompt_tokens for e in log)
    assert run["completion_tokens"] == sum(e.completion_tokens for e in log)
    assert data["messages"]["template_fallback"] == paths["template_fallback"]
    assert data["messages"]["llm"] == paths["llm"]


def test_a_service_that_keeps_failing_stops_the_run(tmp_path: Path, profiles_dir: Path) -> None:
    down = Rule(Fault("http", status=500), times=None)
    out = tmp_path / "dataset"
    with FakeChatServer(rules=[down]) as server:
        with pytest.raises(LLMUnavailableError, match=r"failed (3[2-9]|[4-9]\d) requests in a row"):
            generate(
                profiles_dir, out, options("openai", server, tmp_path / "cache", max_retries=0)
            )
        called = len(server.entries())
    assert 32 <= called < 100  # stopped early, not after trying every message
    assert not out.exists() and list(tmp_path.iterdir()) == [tmp_path / "cache"]


def test_a_bad_key_stops_the_run(tmp_path: Path, profiles_dir: Path) -> None:
    out = tmp_path / "dataset"
    with FakeChatServer(api_key="right") as server, pytest.raises(LLMConfigError, match="401"):
        generate(profiles_dir, out, options("zhipuai", server, tmp_path / "cache"))
    assert not out.exists()


def test_chinese_data_gets_chinese_prompts(tmp_path: Path) -> None:
    schema = SCHEMA.with_name("daily_life.zh.yaml")
    profiles = tmp_path / "profiles"
    args = ["profiles", "--schema", str(schema), "--n", "18", "--out", str(profiles)]
    assert CliRunner().invoke(main, [*args, "--no-progress"]).exit_code == 0
    # every fourth request's first reply adds a place name: no number, no capital
    invent = Rule(Fault("invent_name"), every=4)
    with FakeChatServer(rules=[invent]) as server:
        generate(
            profiles,
            tmp_path / "dataset",
            options("zhipuai", server, tmp_path / "cache"),
            2,
            schema,
        )
        log = server.entries()
    records = read_records(tmp_path / "dataset")
    assert any(e.outcome == "invent_name" for e in log)
    assert "乌鲁木齐" not in json.dumps(records, ensure_ascii=False)
    assert audit_findings(tmp_path / "dataset", profiles, tmp_path / "audit", schema) == []
    assert log and all(CJK.search(e.body["messages"][0]["content"]) for e in log)
    assert all("年龄" in e.body["messages"][0]["content"] for e in log)  # the persona, in Chinese
    paths = [m["verbalizer"] for r in records for m in r["message_list"] if m["facts"]]
    assert paths.count("llm") >= 0.9 * len(paths)
    assert set(paths) <= {"llm", "template_fallback"}
    assert independent_problems(records, profiles, schema) == []
