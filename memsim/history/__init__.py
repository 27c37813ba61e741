"""Multi-session histories: conversations with assistant turns, assembled from
evidence sessions and shared filler sessions to a token budget, with the evidence at a
chosen depth, streamed to disk with flat memory.

    write_history_dataset(schema, schema_path, profiles, out, options,
                          HistoryOptions(tokens=128_000, depths=(0.0, 0.5, 1.0)))
    for record in read_histories(out):      # expanded: every session, in order
        ...
"""

from memsim.formats._store import STORE_FILE
from memsim.history._assemble import (
    DEPTH_BUCKETS,
    TOLERANCE,
    BudgetError,
    assemble,
    depth_bucket,
    record_tokens,
)
from memsim.history._assistant import assistant_problems, turn_problems
from memsim.history._llm import AssistantLLM, AssistantWriter, open_writer
from memsim.history._pool import FillerPool, PoolSession, fact_key
from memsim.history._sessions import NoConversationError, conversation_of, into_sessions
from memsim.history._store import SessionStore, expand, read_histories, stored_session
from memsim.history._write import (
    HISTORY_PRESETS,
    HistoryOptions,
    token_count,
    write_history_dataset,
)

__all__ = [
    "DEPTH_BUCKETS",
    "HISTORY_PRESETS",
    "STORE_FILE",
    "TOLERANCE",
    "AssistantLLM",
    "AssistantWriter",
    "BudgetError",
    "FillerPool",
    "HistoryOptions",
    "NoConversationError",
    "PoolSession",
    "SessionStore",
    "assemble",
    "assistant_problems",
    "conversation_of",
    "depth_bucket",
    "expand",
    "fact_key",
    "into_sessions",
    "open_writer",
    "read_histories",
    "record_tokens",
    "stored_session",
    "token_count",
    "turn_problems",
    "write_history_dataset",
]
