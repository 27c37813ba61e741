"""Stage 1: the YAML schema language (pydantic models, loader, whole-schema checks)."""

from memsim.schema._checks import TEMPLATE_TOKENS, Problem, check_probs
from memsim.schema._distance import MARGIN_TYPES, value_distance, within_margin
from memsim.schema._distributions import (
    Categorical,
    Copy,
    DateUniform,
    Derived,
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
from memsim.schema._load import (
    SchemaError,
    load_schema,
    parse_schema,
    schema_warnings,
    yaml_position,
)
from memsim.schema._meaning import (
    ORDERED_TYPES,
    QUESTION_KINDS,
    TRANSFORM_NAMES,
    asked_by,
    describe,
    is_asked,
    is_ordered,
    is_persona,
    is_user,
    location_attribute,
    name_attribute,
    persona_attributes,
    pool_of,
    question_kinds,
    role_of,
    time_attribute,
    transforms_of,
    user_kind,
    with_role,
    word,
    workplace_attribute,
)
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
    "MARGIN_TYPES",
    "ORDERED_TYPES",
    "QUESTION_KINDS",
    "TEMPLATE_TOKENS",
    "TRANSFORM_NAMES",
    "Attribute",
    "Categorical",
    "Change",
    "Copy",
    "DateUniform",
    "Derived",
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
    "asked_by",
    "check_probs",
    "combination",
    "describe",
    "find_schema",
    "is_asked",
    "is_ordered",
    "is_persona",
    "is_user",
    "json_schema",
    "load_schema",
    "location_attribute",
    "name_attribute",
    "node_id",
    "node_parents",
    "parse_schema",
    "persona_attributes",
    "pool_of",
    "question_kinds",
    "resolve_ref",
    "role_of",
    "schema_for_manifest",
    "schema_warnings",
    "slot_id",
    "time_attribute",
    "transforms_of",
    "user_kind",
    "value_distance",
    "with_role",
    "within_margin",
    "word",
    "workplace_attribute",
    "yaml_position",
]
