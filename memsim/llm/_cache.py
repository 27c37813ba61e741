"""A persistent cache of chat replies: one SQLite file, WAL mode, one commit per reply.

Guarantees: a reply is on disk (committed) before the caller sees it, so a process
killed at any moment loses only the calls still in flight, and a rerun makes no call
that already completed. Failed calls are never stored (a rerun tries them again).
Several processes may share one cache folder (SQLite serialises the writers).

The default folder is ``$MEMSIM_CACHE_DIR``, else ``$XDG_CACHE_HOME/memsim/llm``,
else ``~/.cache/memsim/llm``: outside the output folder, which is staged and replaced
as a whole (a cache inside it would be deleted by the very run it should resume),
and shared by every dataset made with the same model and prompts.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from pathlib import Path

import orjson

from memsim.llm._types import ChatReply, ChatRequest

CACHE_FILE = "replies.sqlite3"
_SCHEMA = """
CREATE TABLE IF NOT EXISTS replies (
    key TEXT PRIMARY KEY,
    backend TEXT NOT NULL,
    model TEXT NOT NULL,
    request BLOB NOT NULL,
    text TEXT NOT NULL,
    prompt_tokens INTEGER NOT NULL,
    completion_tokens INTEGER NOT NULL,
    finish_reason TEXT,
    created REAL NOT NULL
)
"""


_SELECT = "SELECT text, prompt_tokens, completion_tokens, finish_reason FROM replies WHERE key = ?"


def default_cache_dir() -> Path:
    if os.environ.get("MEMSIM_CACHE_DIR"):
        return Path(os.environ["MEMSIM_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "memsim" / "llm"


class ReplyCache:
    """Replies by key (see :meth:`ChatRequest.key`); thread-safe."""

    def __init__(self, folder: str | Path):
        self.folder = Path(folder)
        self.path = self.folder / CACHE_FILE
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, check_same_thread=False, timeout=30.0)
            self._db.execute("PRAGMA journal_mode=WAL")
            # NORMAL: each commit survives the process being killed (not a power cut),
            # without an fsync per reply.
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute(_SCHEMA)
            self._db.commit()
        except (OSError, sqlite3.Error) as exc:
            raise ValueError(f"{self.path}: cannot open the LLM cache: {exc}") from exc
        self._lock = threading.Lock()

    def get(self, key: str) -> ChatReply | None:
        with self._lock:
            row = self._db.execute(_SELECT, (key,)).fetchone()
        if row is None:
            return None
        return ChatReply(row[0], int(row[1]), int(row[2]), cached=True, finish_reason=row[3])

    def put(
        self, key: str, backend: str, model: str, request: ChatRequest, reply: ChatReply
    ) -> ChatReply:
        """Store and commit one reply; return the stored one. The first reply stored
        for a key wins, so processes sharing a cache agree on every reply."""
        with self._lock:
            self._db.execute(
                "INSERT OR IGNORE INTO replies VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    key,
                    backend,
                    model,
                    orjson.dumps(request.to_json()),
                    reply.text,
                    reply.prompt_tokens,
                    reply.completion_tokens,
                    reply.finish_reason,
                    time.time(),
                ),
            )
            self._db.commit()
            row = self._db.execute(_SELECT, (key,)).fetchone()
        return ChatReply(row[0], int(row[1]), int(row[2]), cached=False, finish_reason=row[3])

    def keys(self) -> set[str]:
        with self._lock:
            return {row[0] for row in self._db.execute("SELECT key FROM replies")}

    def __len__(self) -> int:
        with self._lock:
            return int(self._db.execute("SELECT count(*) FROM replies").fetchone()[0])

    def close(self) -> None:
        with self._lock:
            self._db.close()
