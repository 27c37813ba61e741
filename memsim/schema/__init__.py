"""Stage 1: the YAML schema language (pydantic models, loader, whole-schema checks)."""

from memsim.schema._checks import TEMPLATE_TOKENS, Problem, check_probs
from memsim.schema._distributions import (
    Categorical,
    Copy,
    DateUniform,
    Digits,
    Distribution,
    Email,
    Gaussian,
    PersonName,
    Phone,
    Probs,
    Table,
    Template,
    UniformInt,
    combination,
)
from memsim.schema._find import find_schema, schema_for_manifest
from memsim.schema._load import SchemaError, load_schema, parse_schema
from memsim.schema._models import FORMAT_VERSION, Attribute, Change, EntityKind, Schema, Timeline
from memsim.schema._refs import NodeKey, all_node_keys, node_id, node_parents, resolve_ref, slot_id


def json_schema() -> dict[str, object]:
    """A JSON Schema of the schema language, for editors to validate and complete files."""
    doc = Schema.model_json_schema()
    doc["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    doc["title"] = "memsim schema"
    return doc


__all__ = [
    "FORMAT_VERSION",
    "TEMPLATE_TOKENS",
    "Attribute",
    "Categorical",
    "Change",
    "Copy",
    "DateUniform",
    "Digits",
    "Distribution",
    "Email",
    "EntityKind",
    "Gaussian",
    "NodeKey",
    "PersonName",
    "Phone",
    "Problem",
    "Probs",
    "Schema",
    "SchemaError",
    "Table",
    "Template",
    "Timeline",
    "UniformInt",
    "all_node_keys",
    "check_probs",
    "combination",
    "find_schema",
    "json_schema",
    "load_schema",
    "node_id",
    "node_parents",
    "parse_schema",
    "resolve_ref",
    "schema_for_manifest",
    "slot_id",
]
