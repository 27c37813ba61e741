"""The format classifier's rows as columns (``_Rows``, picked out per pair by masks)
give the same tables, float for float, as the rows listed one by one, on a real
generated dataset; ``_first_seen`` numbers keys as a dict numbers them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from memsim.audit import load_context, open_source
from memsim.audit._classifier import PAIRS, FormatClassifier, Pair, _first_seen, _paired
from memsim.audit._logistic import cross_validated, features, within_auc
from memsim.audit._types import CheckStats

ROOT = Path(__file__).resolve().parents[2]


def _memsim(*args: str) -> None:
    subprocess.run(
        [sys.executable, "-m", "memsim", *args, "--no-progress"],
        cwd=ROOT,
        check=True,
        capture_output=True,
        timeout=600,
    )


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("format_rows")
    schema = str(ROOT / "schemas" / "daily_life.en.yaml")
    _memsim("profiles", "--schema", schema, "--n", "120", "--seed", "0", "--out", str(base / "p"))
    _memsim(
        "generate", "--schema", schema, "--profiles", str(base / "p"), "--out", str(base / "d"),
        "--seed", "0", "--per-type", "12",
    )  # fmt: skip
    return base / "d"


def _one_by_one(
    items: list[tuple[int, str, list[tuple[str, str, str]]]], pair: Pair
) -> dict[str, dict[str, float]]:
    """A pair's table from the rows listed one by one (the classifier's former loop)."""
    feats, labels, groups, kinds, trajectories = [], [], [], [], []
    names: dict[tuple[int, str], int] = {}
    for index, kind, rows in items:
        for text, cls, attr in rows:
            if cls in pair.positive:
                label = 1.0
            elif cls in pair.negative or "*" in pair.negative:
                label = 0.0
            else:
                continue
            feats.append(features(text))
            labels.append(label)
            key = (index, attr if pair.same_attribute else "")
            groups.append(names.setdefault(key, len(names)) if pair.same_attribute else index)
            trajectories.append(index)
            kinds.append(kind)
    y = np.array(labels)
    if y.sum() < 20 or (1 - y).sum() < 20:
        return {}
    g, folds = np.array(groups, dtype=np.int64), np.array(trajectories, dtype=np.int64)
    scores = cross_validated(np.array(feats, dtype=np.float64), y, folds)
    k = np.array(kinds)
    table: dict[str, dict[str, Any]] = {}
    for kind in [*sorted(set(kinds)), "all"]:
        mask = np.ones(len(y), bool) if kind == "all" else k == kind
        value, se, n = within_auc(scores[mask], y[mask], g[mask])
        if n:
            table[kind] = {
                "auc": round(value, 4),
                "chance": 0.5,
                "z": round((value - 0.5) / se, 2),
                "n": n,
                "trajectories": _paired(y[mask], g[mask], folds[mask]),
            }
    return table


def test_the_columns_give_the_tables_of_the_rows_one_by_one(generated: Path) -> None:
    ctx = load_context(open_source(generated))
    stats = CheckStats()
    check = FormatClassifier(ctx, stats)
    for item in ctx.source.items():
        check.visit(item)
    check.finish()
    items = check.sample.items
    assert len(items) > 100
    tables = 0
    for pair in PAIRS:
        expected = _one_by_one(items, pair)
        assert stats.scores.get(pair.name, {}) == expected, pair.name
        tables += bool(expected)
    assert tables >= 3


def test_first_seen_numbers_keys_in_order_of_first_occurrence() -> None:
    keys = np.random.default_rng(7).integers(0, 50, size=400)
    names: dict[int, int] = {}
    expected = [names.setdefault(int(k), len(names)) for k in keys]
    assert _first_seen(keys).tolist() == expected
    assert _first_seen(np.array([], dtype=np.int64)).tolist() == []
