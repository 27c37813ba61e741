"""Stage 2: the BRNet (causal graph over entity-slot attributes) and its pgmpy twin."""

from memsim.graph._brnet import BRNet, Node
from memsim.graph._conditionals import DiscreteConditionals, inverse_cdf
from memsim.graph._exact import ExactPosterior
from memsim.graph._pgmpy import (
    ExportFormat,
    MissingExtraError,
    PgmpyNetwork,
    export_network,
    import_pgmpy,
    safe_name,
    to_pgmpy,
)
from memsim.graph._render import attribute_graph, render_network

__all__ = [
    "BRNet",
    "DiscreteConditionals",
    "ExactPosterior",
    "ExportFormat",
    "MissingExtraError",
    "Node",
    "PgmpyNetwork",
    "attribute_graph",
    "export_network",
    "import_pgmpy",
    "inverse_cdf",
    "render_network",
    "safe_name",
    "to_pgmpy",
]
