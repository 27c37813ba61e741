"""Stage 6: QA items. Each kind is one module whose docstring states its guarantees."""

from memsim.qa import (
    abstention,
    aggregative,
    assistant_said,
    comparative,
    conditional,
    knowledge_update,
    noisy,
    post_processing,
    simple,
    temporal,
)
from memsim.qa._choices import ValuePool, assign_letters, normalise, numeric_options, pick_distinct
from memsim.qa._context import ORDERED_TYPES, SCENARIOS, QAContext
from memsim.qa._plan import plan_problems, planned_scenarios, scenario_reasons
from memsim.qa._registry import QA_KINDS, QAKind
from memsim.qa._setup import make_context
from memsim.qa._types import LETTERS, Draft, FactRef, Hearsay, Message, Statement
from memsim.schema import Schema

KIND_ORDER = (
    "simple",
    "conditional",
    "comparative",
    "aggregative",
    "post_processing",
    "noisy",
    "knowledge_update",
    "temporal",
    "abstention",
)
HISTORY_KINDS = ("knowledge_update", "temporal")
ASSISTANT_KINDS = ("assistant_said",)
"""Kinds whose evidence an assistant turn states: made only for multi-session histories
(``memsim generate --history-tokens``), which add them to the default kinds."""
"""Kinds that ask about values changing over time: a schema with no ``changes:`` has none."""


def default_kinds(schema: Schema) -> tuple[str, ...]:
    """The kinds generated when none are named: every kind the schema can ask in some
    scenario (``planned_scenarios``; the history kinds need an attribute that changes,
    ``memsim schema validate`` says why a kind is left out)."""
    return tuple(k for k in KIND_ORDER if planned_scenarios(schema, k))


__all__ = [
    "ASSISTANT_KINDS",
    "HISTORY_KINDS",
    "KIND_ORDER",
    "LETTERS",
    "ORDERED_TYPES",
    "QA_KINDS",
    "SCENARIOS",
    "Draft",
    "FactRef",
    "Hearsay",
    "Message",
    "QAContext",
    "QAKind",
    "Statement",
    "ValuePool",
    "abstention",
    "aggregative",
    "assign_letters",
    "assistant_said",
    "comparative",
    "conditional",
    "default_kinds",
    "knowledge_update",
    "make_context",
    "noisy",
    "normalise",
    "numeric_options",
    "pick_distinct",
    "plan_problems",
    "planned_scenarios",
    "post_processing",
    "scenario_reasons",
    "simple",
    "temporal",
]
