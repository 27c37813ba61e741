"""The format classifier's rows as columns (``_Rows``, picked out per pair by masks)
give the same tables, float for float, as the rows listed one by one, on a real
generated dataset; ``_first_seen`` numbers keys as a dict numbers them."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from memsim.audit import load_context, open_source
from memsim.audit._classifier import PAIRS, FormatClassifier, Pair, _first_seen, kind_table
from memsim.audit._logistic import cross_validated, features
from memsim.audit._types import CheckStats
from tests.audit.conftest import generate

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("format_rows")
    schema = ROOT / "schemas" / "daily_life.en.yaml"
    return generate(base, schema, 120, 12, timeout=600) / "d"


def _one_by_one(
    items: list[tuple[int, str, list[tuple[str, str, str]]]], pair: Pair
) -> dict[str, dict[str, float]]:
    """A pair's table from the rows listed one by one (the classifier's former loop),
    scored and tabled by the classifier's own ``kind_table``."""
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
    return kind_table(scores, y, g, folds, np.array(kinds))


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
