"""Stage 6: QA items. Each kind is one module whose docstring states its guarantees."""

from memsim.qa import (
    abstention,
    aggregative,
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
from memsim.qa._registry import QA_KINDS, QAKind
from memsim.qa._setup import make_context
from memsim.qa._types import LETTERS, Draft, FactRef, Message, Statement

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

__all__ = [
    "KIND_ORDER",
    "LETTERS",
    "ORDERED_TYPES",
    "QA_KINDS",
    "SCENARIOS",
    "Draft",
    "FactRef",
    "Message",
    "QAContext",
    "QAKind",
    "Statement",
    "ValuePool",
    "abstention",
    "aggregative",
    "assign_letters",
    "comparative",
    "conditional",
    "knowledge_update",
    "make_context",
    "noisy",
    "normalise",
    "numeric_options",
    "pick_distinct",
    "post_processing",
    "simple",
    "temporal",
]
