"""Editing a prior in the YAML moves the sampled frequencies accordingly."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from memsim.graph import BRNet
from memsim.sampling import ProfileSampler
from memsim.schema import parse_schema

TINY = (Path(__file__).parents[1] / "data" / "tiny.yaml").read_text()
N = 40_000


def frequencies(text: str, nid: str) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    net = BRNet(parse_schema(text))
    columns = ProfileSampler(net).sample_batch(seed=3, start=0, stop=N).columns
    return np.bincount(columns[nid], minlength=len(net[nid].values)) / N, columns


def test_prior_edit_moves_frequencies() -> None:
    before, _ = frequencies(TINY, "user.education")
    edited = TINY.replace("probs: [0.4, 0.4, 0.2]", "probs: [0.1, 0.3, 0.6]")
    after, _ = frequencies(edited, "user.education")
    np.testing.assert_allclose(before, [0.4, 0.4, 0.2], atol=0.015)
    np.testing.assert_allclose(after, [0.1, 0.3, 0.6], atol=0.015)


def test_copy_probability_edit_moves_agreement() -> None:
    rates = []
    for p in (0.0, 0.6, 0.9):
        text = TINY.replace("sources: {user.work_city: 0.6}", f"sources: {{user.work_city: {p}}}")
        _, columns = frequencies(text, "relative[0].work_city")
        rates.append((columns["relative[0].work_city"] == columns["user.work_city"]).mean())
    expected = [p + (1 - p) / 3 for p in (0.0, 0.6, 0.9)]
    np.testing.assert_allclose(rates, expected, atol=0.015)


def test_edit_leaves_unrelated_nodes_unchanged() -> None:
    """Common random numbers: a node's draws do not depend on other nodes' priors."""
    _, before = frequencies(TINY, "user.education")
    edited = TINY.replace("probs: [0.4, 0.4, 0.2]", "probs: [0.1, 0.3, 0.6]")
    _, after = frequencies(edited, "user.education")
    assert (before["user.work_city"] == after["user.work_city"]).all()
    assert (before["relative[0].relation"] == after["relative[0].relation"]).all()
    assert not (before["user.education"] == after["user.education"]).all()
