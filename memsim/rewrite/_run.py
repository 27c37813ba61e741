"""Setting up and recording one rewrite run.

The run's own counts (calls made, cache hits, retries, failures, tokens spent) depend
on what an earlier run left in the cache, so they are not part of the output (which
must be the same bytes for a fresh and a resumed run): they are shown on screen and
appended, one JSON line per run, to ``runs.jsonl`` in the cache folder.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import orjson

from memsim.llm import default_cache_dir, make_client
from memsim.qa import make_context
from memsim.rewrite._pass import RewriteOptions, Rewriter
from memsim.schema import Schema

RUNS_LOG = "runs.jsonl"
T = TypeVar("T")


@contextmanager
def open_rewriter(
    schema: Schema, seed: int, profiles: Path, options: RewriteOptions
) -> Iterator[Rewriter]:
    """A rewriter with its client (closed on exit) and the generation context."""
    client = make_client(
        options.backend,
        options.model,
        base_url=options.base_url,
        concurrency=options.concurrency,
        timeout=options.timeout,
        max_retries=options.max_retries,
        cache_dir=options.cache_dir,
    )
    try:
        yield Rewriter(client, make_context(schema, seed), profiles, options)
    finally:
        client.close()


def with_llm_postfix(bar: Iterable[T], rewriter: Rewriter) -> Iterator[T]:
    """Iterate a progress bar, showing the LLM counts beside it (when it is a tqdm bar)."""
    show = getattr(bar, "set_postfix_str", None)
    for item in bar:
        if show is not None:
            stats, account = rewriter.client.stats, rewriter.account
            show(
                f"calls {stats.calls}, cache hits {stats.cache_hits}, retries {stats.retries}, "
                f"rejected {account.rejected}, fallbacks {sum(account.fallbacks.values())}",
                refresh=False,
            )
        yield item


def cache_folder(options: RewriteOptions) -> Path:
    return Path(options.cache_dir) if options.cache_dir else default_cache_dir()


def log_run(rewriter: Rewriter, out: Path) -> dict[str, Any]:
    """Append this run's counts to the cache folder's runs.jsonl; return them."""
    entry = {
        "time": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "out": str(out.resolve()),
        **rewriter.options.to_json(),
        "run": rewriter.client.stats.to_json(),
        "dataset": rewriter.account.to_json(),
    }
    with open(cache_folder(rewriter.options) / RUNS_LOG, "ab") as log:
        log.write(orjson.dumps(entry) + b"\n")
    return entry
