"""Stage 5b: LLM verbalizers. Template messages (and, optionally, questions) are
rewritten colloquially in the user's voice by a chat model, through
:mod:`memsim.llm`; every rewrite is verified by :mod:`memsim.verify` and replaced by
the template sentence when it fails. The LLM never writes answers, options or labels.
"""

from memsim.rewrite._checks import (
    message_problems,
    question_phrases,
    question_problems,
    rewrite_vocabulary,
    stated_facts,
)
from memsim.rewrite._pass import (
    LLMUnavailableError,
    RewriteAccount,
    RewriteOptions,
    Rewriter,
    clean,
)
from memsim.rewrite._prompts import RewritePrompts, load_prompts, prompts_for
from memsim.rewrite._run import (
    RUNS_LOG,
    cache_folder,
    log_run,
    open_rewriter,
    with_llm_postfix,
)

__all__ = [
    "RUNS_LOG",
    "LLMUnavailableError",
    "RewriteAccount",
    "RewriteOptions",
    "RewritePrompts",
    "Rewriter",
    "cache_folder",
    "clean",
    "load_prompts",
    "log_run",
    "message_problems",
    "open_rewriter",
    "prompts_for",
    "question_phrases",
    "question_problems",
    "rewrite_vocabulary",
    "stated_facts",
    "with_llm_postfix",
]
