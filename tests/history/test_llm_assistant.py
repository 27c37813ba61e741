"""LLM-written assistant turns against the fake chat server (a real HTTP server on
127.0.0.1): kept replies are verified, invented facts are rejected, and a rerun is
answered from the cache."""

from __future__ import annotations

from pathlib import Path

import pytest
from histories import ENGLISH

from memsim.dataset import GenerateOptions
from memsim.history import (
    AssistantLLM,
    HistoryOptions,
    assistant_problems,
    read_histories,
    write_history_dataset,
)
from memsim.llm.testing import FakeChatServer, Fault, Rule
from memsim.records import ASSISTANT
from memsim.schema import load_schema


def _generate(profiles: Path, out: Path, server: FakeChatServer, cache: Path) -> dict[str, object]:
    config = AssistantLLM("openai", "fake-model", server.base_url, 8, str(cache))
    return write_history_dataset(
        load_schema(str(ENGLISH)), ENGLISH, profiles, out, GenerateOptions(per_type=1),
        HistoryOptions(2500, (0.5,), assistant=config),
    )  # fmt: skip


def test_llm_assistant_turns_are_verified(
    english_profiles: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import memsim.history._pool as pool

    monkeypatch.setattr(pool, "MIN_POOL_TOKENS", 2000)  # a small pool: fewer calls
    monkeypatch.setattr(pool, "POOL_FACTOR", 2.0)
    invent = Rule(Fault("invent"), every=4, times=None)
    with FakeChatServer(rules=[invent]) as server:
        counts = _generate(english_profiles, tmp_path / "a", server, tmp_path / "cache")
        calls = len(server.entries())
    turns = counts["assistant_turns"]
    assert isinstance(turns, dict)
    assert turns["kept"] > 0 and turns["rejected"] > 0
    from memsim.audit._context import ProfileStore
    from memsim.verbalize import load_locale

    store, loc = ProfileStore(english_profiles), load_locale("en")
    llm_turns = 0
    for record in read_histories(tmp_path / "a"):
        for _, turn in record.iter_turns():
            if turn.speaker == ASSISTANT:
                assert "Zelda" not in turn.text
                llm_turns += turn.verbalizer.startswith("llm:")
        assert record.profile_id is not None
        own = [s for s in record.sessions if s.id.startswith("t")]
        mine = type(record)(record.tid, record.type, record.scenario, tuple(own), record.qa)
        assert assistant_problems(mine, store.get(record.profile_id), loc) == []
    assert llm_turns > 0
    # the same run again: every reply from the cache, the same bytes
    with FakeChatServer(rules=[invent]) as server:
        _generate(english_profiles, tmp_path / "b", server, tmp_path / "cache")
        assert len(server.entries()) == 0 < calls
    for name in ("dataset.jsonl", "sessions.jsonl"):
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()
