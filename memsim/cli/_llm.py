"""The LLM options of ``memsim generate`` and the accounting it prints.

API keys come from the environment only (``OPENAI_API_KEY``, ``ZHIPUAI_API_KEY``),
never from the command line, where other users of the machine could read them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import click

if TYPE_CHECKING:
    from memsim.rewrite import RewriteOptions

F = TypeVar("F", bound=Callable[..., Any])
VERBALIZERS = ("template", "openai", "zhipuai")


def llm_options(command: F) -> F:
    """Add --verbalizer, --model, --base-url, --concurrency, --cache and
    --paraphrase-questions to a click command."""
    options = [
        click.option(
            "--verbalizer",
            type=click.Choice(VERBALIZERS),
            default="template",
            show_default=True,
            help="template: offline phrasings. openai / zhipuai: rewrite each message that "
            "states facts with that chat API (verified; the template is kept when a "
            "rewrite fails). Keys: OPENAI_API_KEY / ZHIPUAI_API_KEY.",
        ),
        click.option(
            "--model", help="Chat model for an LLM verbalizer (e.g. gpt-4o-mini, glm-4-flash)."
        ),
        click.option(
            "--base-url",
            help="OpenAI-compatible server (vLLM, Ollama: http://localhost:11434/v1) or "
            "ZhipuAI endpoint; default: the service's own.",
        ),
        click.option(
            "--concurrency",
            type=click.IntRange(min=1, max=1024),
            default=8,
            show_default=True,
            help="LLM requests at once; the output is the same for any number.",
        ),
        click.option(
            "--cache",
            "cache_dir",
            type=click.Path(file_okay=False),
            help="LLM reply cache (resume, reruns) [default: $MEMSIM_CACHE_DIR or "
            "~/.cache/memsim/llm].",
        ),
        click.option(
            "--paraphrase-questions",
            is_flag=True,
            help="Also rephrase questions about one attribute of one entity (verified to "
            "keep the entity and the attribute).",
        ),
    ]
    for option in reversed(options):
        command = option(command)
    return command


def rewrite_options(
    verbalizer: str,
    model: str | None,
    base_url: str | None,
    concurrency: int,
    cache_dir: str | None,
    paraphrase_questions: bool,
) -> RewriteOptions | None:
    """None for the template verbalizer; else the rewrite pass's options."""
    if verbalizer == "template":
        given = {
            "--model": model,
            "--base-url": base_url,
            "--paraphrase-questions": paraphrase_questions or None,
        }
        used = [name for name, value in given.items() if value]
        if used:
            raise click.UsageError(f"{', '.join(used)} need an LLM --verbalizer (openai, zhipuai)")
        return None
    if not model:
        raise click.UsageError(f"--verbalizer {verbalizer} needs --model NAME")
    from memsim.rewrite import RewriteOptions

    return RewriteOptions(
        backend=verbalizer,
        model=model,
        base_url=base_url,
        concurrency=concurrency,
        cache_dir=cache_dir,
        paraphrase_questions=paraphrase_questions,
    )


def accounting_lines(llm: dict[str, Any]) -> list[str]:
    """The run's and the data's LLM counts, for the screen."""
    run, data = llm["run"], llm["dataset"]
    msgs = data["messages"]
    lines = [
        f"LLM {llm['backend']}/{llm['model']}: {run['requests']} requests, "
        f"{run['calls']} calls, {run['cache_hits']} cache hits, {run['retries']} retries, "
        f"{run['failures']} failures; {run['prompt_tokens']} prompt + "
        f"{run['completion_tokens']} completion tokens this run",
        f"messages: {msgs.get('llm', 0)} rewritten, {msgs.get('template_fallback', 0)} "
        f"template fallbacks, {msgs.get('template', 0)} chit-chat kept",
        f"rejected rewrites: {data['rejected']} {_counts(data['rejected_by_reason'])}; "
        f"fallbacks: {_counts(data['fallbacks'])}",
    ]
    if data["questions"]:
        q = data["questions"]
        lines.append(
            f"questions: {q.get('llm', 0)} paraphrased, {q.get('template_fallback', 0)} "
            f"fallbacks, {q.get('template', 0)} kept"
        )
    return lines


def _counts(counts: dict[str, int]) -> str:
    return "(" + ", ".join(f"{k} {v}" for k, v in counts.items()) + ")" if counts else "(none)"
