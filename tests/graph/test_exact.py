"""ExactPosterior gives pgmpy's variable-elimination answers without pgmpy."""

from __future__ import annotations

import random
import warnings

import pytest

from memsim.graph import BRNet, ExactPosterior, to_pgmpy
from memsim.schema import load_schema

pytest.importorskip("pgmpy")


@pytest.mark.parametrize("schema", ["schemas/daily_life.en.yaml", "tests/data/tiny.yaml"])
def test_posteriors_match_pgmpy_variable_elimination(schema: str) -> None:
    from pgmpy.inference import VariableElimination

    net = BRNet(load_schema(schema))
    exact = ExactPosterior(net)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        pg = to_pgmpy(net)
    inference = VariableElimination(pg.model)
    rng = random.Random(0)
    nodes = net.discrete_nodes()
    checked = 0
    for _ in range(60):
        node = rng.choice(nodes)
        entity = node.id.rsplit(".", 1)[0]
        same = [n for n in nodes if n.id.startswith(entity + ".") and n.id != node.id]
        chosen = rng.sample(same, min(len(same), rng.randint(0, 2)))
        evidence = {n.id: rng.choice(n.values) for n in chosen}
        ours = exact.query(node.id, evidence)
        if ours and all(p != p for p in ours.values()):
            continue  # impossible evidence
        factor = inference.query(
            [pg.names[node.id]],
            evidence={pg.names[k]: pg.state_of(k, v) for k, v in evidence.items()} or None,
            show_progress=False,
        )
        back = {state: value for value, state in pg.states[node.id].items()}
        for state, p in zip(factor.state_names[pg.names[node.id]], factor.values, strict=True):
            assert ours[back[state]] == pytest.approx(float(p), abs=1e-12)
        checked += 1
    assert checked > 30
