"""Every call the rewrite pass makes into :mod:`memsim.verify`, in one place, so that
verification and the audit judge rewrites by the same code.

- a message rewrite is accepted iff ``check_rewrite(template, rewrite, facts, loc,
  vocabulary)`` finds nothing, with ``facts`` the message's facts at the time it is
  said (noise facts from the noise profile they come from) and ``vocabulary`` from
  :func:`rewrite_vocabulary`;
- a question paraphrase is accepted iff ``check_rewrite`` finds nothing (no facts) and
  every phrase the question is built on (the entity's name, the attribute's label, a
  condition's label and value) that the template question states is still stated.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence

from memsim.profile import Profile
from memsim.qa import QAContext, ValuePool
from memsim.records import Record, Turn
from memsim.schema import Schema
from memsim.verbalize import LocaleData, value_at
from memsim.verify import StatedFact, Vocabulary, check_rewrite, text_stated, vocabulary_for

REASON_KINDS = (
    "empty",
    "runs on",
    "drops",
    "new number",
    "new value",
    "new name",
    "meta text",
    "retraction",
    "truncated",
)


def rewrite_vocabulary(ctx: QAContext) -> Vocabulary:
    """The schema's categorical values plus every text value of the value pool (names,
    employers, event names...): values a rewrite may not bring in."""
    return pool_vocabulary(ctx.schema, ctx.loc, ctx.pool)


def pool_vocabulary(schema: Schema, loc: LocaleData, pool: ValuePool) -> Vocabulary:
    """:func:`rewrite_vocabulary` from its parts (the audit rebuilds the pool from the
    generation seed and judges LLM messages with the same vocabulary)."""
    extra: set[str] = set()
    for (kind, attr), values in pool.values.items():
        if schema.attributes_of(kind)[attr].type == "text":
            extra.update(str(v) for v in values)
    return vocabulary_for(schema, loc, sorted(extra))


def stated_facts(message: Turn, profile: Profile, noise: Mapping[str, Profile]) -> list[StatedFact]:
    """The facts a message states, with their values at the message's time. Noise
    facts (``p001000123:relative[0].age``) come from their own profile."""
    when = dt.datetime.fromisoformat(message.time)
    out = []
    for fact_id in message.facts:
        owner = profile
        if ":" in fact_id:
            source, fact_id = fact_id.split(":", 1)
            owner = noise[source]
        entity_id, attr = fact_id.rsplit(".", 1)
        entity = owner.entity(entity_id)
        fact = entity.facts[attr]
        out.append(StatedFact(entity, fact, value_at(fact, when), when))
    return out


def message_problems(
    template: str, rewrite: str, facts: Sequence[StatedFact], ctx: QAContext, vocab: Vocabulary
) -> list[str]:
    return check_rewrite(template, rewrite, facts, ctx.loc, vocab)


def question_phrases(record: Record, profile: Profile, ctx: QAContext) -> list[str]:
    """What a paraphrase of this record's question must keep, or [] when it is not
    paraphrased. Only questions that ask one attribute of one entity as it is (simple,
    conditional, noisy) are: the wording of comparisons, counts, transforms and hybrids
    carries exact meaning ("more than" vs "at least", "the last 3 digits") that a
    paraphrase could change without any check noticing."""
    provenance = record.qa.provenance
    if provenance is None:
        return []
    params = provenance.params
    if provenance.transform != "identity" or not {"entity", "attribute"} <= set(params):
        return []
    if record.type == "abstention":
        return []  # its answerable questions must read exactly as its unanswerable ones
    entity = profile.entity(params["entity"])
    phrases = [ctx.label(entity, params["attribute"])]
    if not ctx.is_user(entity):  # the user is "I": the question says "my ..."
        phrases.append(ctx.who(entity))
    if "condition" in params:
        phrases += [ctx.label(entity, params["condition"]), str(params["condition_value"])]
    return phrases


def question_problems(
    template: str, paraphrase: str, phrases: Sequence[str], ctx: QAContext, vocab: Vocabulary
) -> list[str]:
    reasons = check_rewrite(template, paraphrase, (), ctx.loc, vocab)
    reasons += [
        f"drops {p!r}"
        for p in phrases
        if text_stated(template, p, ctx.loc) and not text_stated(paraphrase, p, ctx.loc)
    ]
    return reasons


def reason_kind(reason: str) -> str:
    """The bucket a rejection reason is counted under in the manifest."""
    for kind in REASON_KINDS:
        if reason.startswith(kind):
            return kind.replace(" ", "_")
    return "other"
