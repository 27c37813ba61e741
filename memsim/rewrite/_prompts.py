"""Prompts for LLM rewrites, as per-locale data: ``prompts/<code>.yaml`` next to this
file maps key for key onto :class:`RewritePrompts`, in the data's language.

Guarantees: a request depends only on the prompt data, the text, the persona and the
attempt number (so the same inputs give the same request, hence the same cache key,
and a retry of a rejected rewrite is a different request); the text to rewrite sits
between ``<message>`` / ``<question>`` tags on lines of its own.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from functools import lru_cache
from pathlib import Path

from pydantic import BaseModel, ConfigDict, model_validator

from memsim._yaml import safe_load
from memsim.llm import ChatRequest
from memsim.profile import Entity
from memsim.schema import Schema, persona_attributes
from memsim.verbalize import LocaleData, render_value, value_at
from memsim.verbalize._locale import LOCALE_PATH_ENV, locale_dirs
from memsim.verbalize._render import template_fields

PROMPTS_DIR = Path(__file__).parent / "prompts"


class RewritePrompts(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    code: str
    system: str
    """Instructions for rewriting a message; ``{persona}``."""
    question_system: str
    """Instructions for rephrasing a question; ``{persona}``."""
    persona: str
    """How the persona is introduced; ``{fields}``."""
    persona_field: str
    """One clause per persona attribute of the user (``{label}``, ``{value}``, the value
    with its unit); the schema says which attributes (``persona: true``)."""
    persona_join: str
    message: str
    """The user turn for a message; ``{text}``."""
    question: str
    """The user turn for a question; ``{text}``."""
    retry: str
    """Appended to the user turn from the second attempt on; ``{attempt}`` (2, 3, ...)."""

    @model_validator(mode="after")
    def _tokens(self) -> RewritePrompts:
        allowed = {
            "system": {"persona"},
            "question_system": {"persona"},
            "persona": {"fields"},
            "persona_field": {"label", "value"},
            "message": {"text"},
            "question": {"text"},
            "retry": {"attempt"},
        }
        for name, tokens in allowed.items():
            found = set(template_fields(getattr(self, name)))
            if found - tokens:
                raise ValueError(f"{name}: unknown tokens {sorted(found - tokens)}")
        return self

    def persona_text(
        self, user: Entity | None, schema: Schema, loc: LocaleData, when: dt.datetime
    ) -> str:
        if user is None:
            return ""
        clauses = []
        for name in persona_attributes(schema):
            if name in user.facts:
                attr = schema.attributes_of(user.kind)[name]
                value = render_value(user.facts[name], value_at(user.facts[name], when), loc, when)
                value = loc.with_unit_of(value, attr.unit)
                label = attr.label.get(loc.code, name.replace("_", " "))
                clauses.append(self.persona_field.format(label=label, value=value))
        return self.persona.format(fields=self.persona_join.join(clauses)) if clauses else ""

    def message_request(
        self, text: str, persona: str, attempt: int, temperature: float, max_tokens: int
    ) -> ChatRequest:
        return self._request(
            self.system, self.message, text, persona, attempt, temperature, max_tokens
        )

    def question_request(
        self, text: str, persona: str, attempt: int, temperature: float, max_tokens: int
    ) -> ChatRequest:
        return self._request(
            self.question_system, self.question, text, persona, attempt, temperature, max_tokens
        )

    def _request(
        self,
        system: str,
        turn: str,
        text: str,
        persona: str,
        attempt: int,
        temperature: float,
        max_tokens: int,
    ) -> ChatRequest:
        user = turn.format(text=text)
        if attempt > 0:
            user += "\n\n" + self.retry.format(attempt=attempt + 1)
        return ChatRequest.system_user(
            system.format(persona=persona).strip(), user, temperature, max_tokens
        )


def prompt_files(code: str) -> list[Path]:
    """Where a locale's prompts may be, in search order: ``<code>.prompts.yaml`` in the
    folders of MEMSIM_LOCALE_PATH, then the bundled ``prompts/<code>.yaml``."""
    extra = [d / f"{code}.prompts.yaml" for d in locale_dirs()[1:]]
    return [*extra, PROMPTS_DIR / f"{code}.yaml"]


@lru_cache(maxsize=8)
def load_prompts(code: str) -> tuple[RewritePrompts, str]:
    """The prompts of a locale (the first file found) and the sha256 of that file."""
    path = next((p for p in prompt_files(code) if p.exists()), None)
    if path is None:
        known = ", ".join(sorted(p.stem for p in PROMPTS_DIR.glob("*.yaml")))
        raise ValueError(
            f"no LLM rewrite prompts for locale '{code}' (bundled: {known}); add "
            f"{code}.prompts.yaml to a folder of {LOCALE_PATH_ENV} or "
            f"rewrite_prompts to the locale data"
        )
    data = path.read_bytes()
    prompts = RewritePrompts.model_validate(safe_load(data, str(path)))
    if prompts.code != code:
        raise ValueError(f"{path}: code is '{prompts.code}', expected '{code}'")
    return prompts, hashlib.sha256(data).hexdigest()


def prompts_for(loc: LocaleData) -> tuple[RewritePrompts, str]:
    """The rewrite prompts of a locale's data: its language's file with the data's
    ``rewrite_prompts`` (a schema's overlay, for instance) over it, and their sha256."""
    prompts, digest = load_prompts(loc.code)
    if not loc.rewrite_prompts:
        return prompts, digest
    merged = RewritePrompts.model_validate(prompts.model_dump() | loc.rewrite_prompts)
    extra = json.dumps(loc.rewrite_prompts, sort_keys=True, ensure_ascii=False)
    return merged, hashlib.sha256((digest + extra).encode()).hexdigest()
