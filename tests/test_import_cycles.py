"""No import cycle between the stages of the pipeline, late imports included, and none
between the modules of the command line.

Imports are read from the source (``ast``), so an import inside a function counts as
much as one at the top: a cycle hidden by a late import is still a cycle.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import networkx as nx
import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "memsim"
STAGES = sorted(p.name for p in PACKAGE.iterdir() if (p / "__init__.py").is_file())


def imports(file: Path) -> set[str]:
    """Every memsim module ``file`` imports (absolute imports; memsim uses no others)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(file.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
    return {m for m in found if m.startswith("memsim.")}


def stage_of(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in STAGES else None


def stage_graph() -> nx.DiGraph:
    graph = nx.DiGraph()
    graph.add_nodes_from(STAGES)
    for stage in STAGES:
        for file in (PACKAGE / stage).rglob("*.py"):
            for module in imports(file):
                other = stage_of(module)
                if other is not None and other != stage:
                    graph.add_edge(stage, other)
    return graph


def test_no_cycle_between_stages() -> None:
    cycles = list(nx.simple_cycles(stage_graph()))
    assert cycles == [], f"import cycles between stages: {cycles}"


def test_rewrite_and_dataset_do_not_import_each_other_both_ways() -> None:
    graph = stage_graph()
    assert not (graph.has_edge("rewrite", "dataset") and graph.has_edge("dataset", "rewrite"))


def test_no_cycle_between_cli_modules() -> None:
    graph = nx.DiGraph()
    for file in (PACKAGE / "cli").glob("*.py"):
        name = f"memsim.cli.{file.stem}" if file.stem != "__init__" else "memsim.cli"
        graph.add_node(name)
        for module in imports(file):
            if module.startswith("memsim.cli.") and module.count(".") == 2:
                graph.add_edge(name, module)
    cycles = [c for c in nx.simple_cycles(graph) if "memsim.cli" not in c]
    assert cycles == [], f"import cycles in the CLI: {cycles}"


@pytest.mark.parametrize("stage", STAGES)
def test_each_stage_imports_alone(stage: str) -> None:
    """A fresh interpreter imports the stage first: no partial-module errors that a
    cycle would cause depending on which module is imported first."""
    code = f"import memsim.{stage}"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
