"""Suite-wide setup: the tests never write to the user's own caches."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest


@pytest.fixture(autouse=True, scope="session")
def _private_caches(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    # The bench's vector cache and the LLM reply cache default to ~/.cache/memsim;
    # CLI runs in subprocesses inherit these variables, so they are set in os.environ.
    root = tmp_path_factory.mktemp("caches")
    saved = {k: os.environ.get(k) for k in ("MEMSIM_VECTOR_CACHE", "MEMSIM_CACHE_DIR")}
    os.environ["MEMSIM_VECTOR_CACHE"] = str(root / "vectors")
    os.environ["MEMSIM_CACHE_DIR"] = str(root / "llm")
    yield
    for key, value in saved.items():
        if value is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = value
