"""Subcommands in their own modules are imported only when run or listed by --help."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from memsim.cli import main

LAZY = ("memsim.cli._audit", "memsim.cli._bench", "memsim.cli._export", "memsim.cli._merge")


def test_importing_the_cli_imports_no_subcommand_module() -> None:
    code = (
        "import json, sys, memsim.cli\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith('memsim.'))))\n"
        "print(json.dumps(sorted(m for m in sys.modules if m in ('numpy', 'memsim.schema'))))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.splitlines()
    assert not set(LAZY) & set(json.loads(out[0]))
    assert json.loads(out[1]) == []


def test_help_lists_every_command_and_each_help_works() -> None:
    runner = CliRunner()
    listed = runner.invoke(main, ["--help"])
    assert listed.exit_code == 0
    commands = listed.output.split("Commands:", 1)[1].split()
    for name in ("audit", "bench", "export", "generate", "graph", "ls", "merge", "profiles"):
        assert name in commands
        shown = runner.invoke(main, [name, "--help"])
        assert shown.exit_code == 0, shown.output
        assert f"Usage: main {name}" in shown.output or f"{name} [OPTIONS]" in shown.output


def test_an_unknown_command_is_refused() -> None:
    result = CliRunner().invoke(main, ["nonsense"])
    assert result.exit_code == 2
    assert "No such command" in result.output


def test_validating_and_loading_a_schema_imports_neither_networkx_nor_scipy() -> None:
    # each costs every process that loads a schema ~0.1 s CPU; only d-separation,
    # drawing and sampling a gaussian need them, and import them where they do
    code = (
        "import json, sys\n"
        "from memsim.cli import main\n"
        "from memsim.graph import BRNet\n"
        "from memsim.schema import load_schema\n"
        "net = BRNet(load_schema('schemas/daily_life.en.yaml'))\n"
        "assert net.edges() and len(net) > 100\n"
        "main(['schema', 'validate', 'schemas/daily_life.zh.yaml'], standalone_mode=False)\n"
        "print(json.dumps(sorted(m for m in ('networkx', 'scipy') if m in sys.modules)))"
    )
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=root
    ).stdout.splitlines()
    assert json.loads(out[-1]) == []
