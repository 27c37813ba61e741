"""Every notebook under notebooks/ runs top to bottom: its code cells are executed in
order in one namespace, from the repository root, as a reader would run them (no
Jupyter needed; outputs are not compared, each cell's own prints are its check)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_runs(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    code = [("".join(c["source"]), i) for i, c in enumerate(cells) if c["cell_type"] == "code"]
    assert code, f"{path.name} has no code"
    monkeypatch.chdir(ROOT)
    namespace: dict[str, object] = {"__name__": "__notebook__"}
    for source, index in code:
        try:
            exec(compile(source, f"{path.name}[cell {index}]", "exec"), namespace)
        except Exception as exc:  # name the cell that broke
            raise AssertionError(f"{path.name}, cell {index} failed: {exc!r}") from exc
    assert os.path.isdir(str(namespace["WORK"]))


def test_every_notebook_is_saved_without_outputs() -> None:
    """Outputs would go stale with the code; the test above is what keeps them honest."""
    for path in NOTEBOOKS:
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        assert all(not c.get("outputs") for c in cells if c["cell_type"] == "code"), path.name
