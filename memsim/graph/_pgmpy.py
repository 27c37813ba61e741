"""The discrete part of a BRNet as a pgmpy ``DiscreteBayesianNetwork``.

pgmpy is used for checking (``check_model``), exact inference and BIF/XMLBIF export;
sampling is ours. Node and state names are made safe for BIF (``[A-Za-z0-9_]``);
:class:`PgmpyNetwork` keeps the mapping back to node ids and values.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import numpy as np

from memsim._io import atomic_write_text
from memsim.graph._brnet import BRNet
from memsim.graph._conditionals import DiscreteConditionals

ExportFormat = Literal["bif", "xmlbif"]


class MissingExtraError(ImportError):
    """An optional dependency is not installed; the message says which extra to install."""


def import_pgmpy() -> Any:
    try:
        import pgmpy.models
    except ImportError as exc:
        raise MissingExtraError(
            "this needs pgmpy, an optional extra: pip install 'memsim[pgm]'"
        ) from exc
    return pgmpy


def safe_name(text: str) -> str:
    name = re.sub(r"[^A-Za-z0-9_]+", "_", text).strip("_") or "x"
    return name if name[0].isalpha() else f"v_{name}"


def _safe_states(values: tuple[str, ...]) -> list[str]:
    out: list[str] = []
    for value in values:
        name = safe_name(value)
        while name in out:
            name += "_"
        out.append(name)
    return out


@dataclass(frozen=True)
class PgmpyNetwork:
    model: Any
    """pgmpy.models.DiscreteBayesianNetwork"""
    names: dict[str, str]
    """node id -> pgmpy variable name"""
    states: dict[str, dict[str, str]]
    """node id -> value -> pgmpy state name"""

    def state_of(self, nid: str, value: str) -> str:
        return self.states[nid][value]


def to_pgmpy(net: BRNet) -> PgmpyNetwork:
    """Build the discrete network (every categorical node and its CPD) and check it."""
    import_pgmpy()
    from pgmpy.factors.discrete import TabularCPD
    from pgmpy.models import DiscreteBayesianNetwork

    nodes = net.discrete_nodes()
    names = {n.id: safe_name(n.id) for n in nodes}
    if len(set(names.values())) != len(names):
        raise ValueError("two node ids map to the same pgmpy name")
    states = {n.id: dict(zip(n.values, _safe_states(n.values), strict=True)) for n in nodes}
    model = DiscreteBayesianNetwork()
    model.add_nodes_from(names.values())
    model.add_edges_from((names[p], names[n.id]) for n in nodes for p in n.parents)
    conditionals = DiscreteConditionals(net)
    for node in nodes:
        parents = [net[p] for p in node.parents]
        dims = [len(p.values) for p in parents]
        # every parent assignment, the first parent varying slowest (pgmpy's column order)
        grid = np.indices(dims).reshape(len(dims), -1) if dims else np.zeros((0, 1), dtype=np.int64)
        codes = {p.id: grid[i] for i, p in enumerate(parents)}
        table = conditionals.probs(node, codes, grid.shape[1])
        state_names = {names[node.id]: list(states[node.id].values())}
        state_names |= {names[p.id]: list(states[p.id].values()) for p in parents}
        model.add_cpds(
            TabularCPD(
                names[node.id],
                len(node.values),
                table.T,
                evidence=[names[p.id] for p in parents] or None,
                evidence_card=dims or None,
                state_names=state_names,
            )
        )
    model.check_model()
    return PgmpyNetwork(model, names, states)


def export_network(net: BRNet, path: str | Path, fmt: ExportFormat) -> None:
    """Write the discrete network as BIF or XMLBIF, atomically."""
    pg = to_pgmpy(net)
    from pgmpy.readwrite import BIFWriter, XMLBIFWriter

    path = Path(path)
    writer = BIFWriter(pg.model) if fmt == "bif" else XMLBIFWriter(pg.model)
    atomic_write_text(path, str(writer))
