"""The sampler agrees with pgmpy's exact inference; exports read back identically."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pgmpy", reason="pgmpy is the optional [pgm] extra")

from pgmpy.inference import VariableElimination
from pgmpy.readwrite import BIFReader, XMLBIFReader

from memsim.graph import BRNet, PgmpyNetwork, export_network, to_pgmpy
from memsim.sampling import ProfileSampler
from memsim.schema import load_schema

ROOT = Path(__file__).parents[2]
TINY = ROOT / "tests" / "data" / "tiny.yaml"
DEFAULT = ROOT / "schemas" / "daily_life.en.yaml"
N = 200_000
SIGMAS = 5.0
"""Each frequency must lie within 5 standard errors, sqrt(p(1-p)/n), of pgmpy's exact
probability (plus 1e-9 for p in {0, 1}). With a few hundred cells per test the chance
that a correct sampler fails is below 1e-4."""


def within_bound(freq: np.ndarray, exact: np.ndarray, n: int) -> np.ndarray:
    return np.abs(freq - exact) <= SIGMAS * np.sqrt(exact * (1 - exact) / n) + 1e-9


@pytest.fixture(scope="module")
def tiny() -> tuple[BRNet, PgmpyNetwork, dict[str, np.ndarray]]:
    net = BRNet(load_schema(TINY))
    columns = ProfileSampler(net).sample_batch(seed=11, start=0, stop=N).columns
    return net, to_pgmpy(net), columns


def exact_marginal(
    pg: PgmpyNetwork, net: BRNet, nid: str, evidence: dict[str, str] | None = None
) -> np.ndarray:
    ev = {pg.names[k]: pg.state_of(k, v) for k, v in (evidence or {}).items()}
    factor = VariableElimination(pg.model).query(
        [pg.names[nid]], evidence=ev or None, show_progress=False
    )
    states = factor.state_names[pg.names[nid]]
    return np.array([factor.values[states.index(pg.state_of(nid, v))] for v in net[nid].values])


def test_pgmpy_network_passes_check_model(tiny: tuple) -> None:
    net, pg, _ = tiny
    assert pg.model.check_model()
    assert sorted(pg.model.nodes()) == sorted(pg.names[n.id] for n in net.discrete_nodes())


def test_every_discrete_marginal_matches_exact_inference(tiny: tuple) -> None:
    net, pg, columns = tiny
    for node in net.discrete_nodes():
        exact = exact_marginal(pg, net, node.id)
        freq = np.bincount(columns[node.id], minlength=len(node.values)) / N
        assert within_bound(freq, exact, N).all(), (node.id, freq, exact)


def test_conditional_matches_exact_inference(tiny: tuple) -> None:
    net, pg, columns = tiny
    education = net["user.education"]
    phd = columns["user.education"] == education.values.index("phd")
    exact = exact_marginal(pg, net, "user.occupation", {"user.education": "phd"})
    freq = np.bincount(columns["user.occupation"][phd], minlength=3) / phd.sum()
    assert within_bound(freq, exact, int(phd.sum())).all()
    assert exact[net["user.occupation"].values.index("cook")] == 0.0


def test_copy_and_distinct_match_exact_inference(tiny: tuple) -> None:
    net, pg, columns = tiny
    # the relative's work city copies the user's with p=0.6, else uniform over 3 cities
    same = (columns["relative[0].work_city"] == columns["user.work_city"]).mean()
    assert abs(same - (0.6 + 0.4 / 3)) < SIGMAS * np.sqrt(0.73 * 0.27 / N)
    # the second relative's relation is never the first's
    assert not (columns["relative[0].relation"] == columns["relative[1].relation"]).any()
    exact = exact_marginal(pg, net, "relative[1].relation", {"relative[0].relation": "father"})
    assert exact[0] == 0.0 and exact[1:].sum() == pytest.approx(1.0)


@pytest.mark.parametrize("fmt, reader", [("bif", BIFReader), ("xmlbif", XMLBIFReader)])
def test_export_reads_back_with_identical_cpds(tmp_path: Path, fmt: str, reader: type) -> None:
    net = BRNet(load_schema(TINY))
    pg = to_pgmpy(net)
    out = tmp_path / f"net.{fmt}"
    export_network(net, out, fmt)  # type: ignore[arg-type]
    back = reader(str(out)).get_model()
    assert sorted(back.nodes()) == sorted(pg.model.nodes())
    assert sorted(back.edges()) == sorted(pg.model.edges())
    for cpd in pg.model.get_cpds():
        assert cpd_entries(back.get_cpds(cpd.variable)) == pytest.approx(
            cpd_entries(cpd), abs=1e-12
        )


def cpd_entries(cpd: object) -> dict[tuple[tuple[str, str], ...], float]:
    """A CPD as {((variable, state), ...): probability}, independent of axis order."""
    factor = cpd.to_factor()  # type: ignore[attr-defined]
    names = factor.variables
    grid = itertools.product(*(factor.state_names[v] for v in names))
    return {
        tuple(sorted(zip(names, combo, strict=True))): float(
            factor.get_value(**dict(zip(names, combo, strict=True)))
        )
        for combo in grid
    }


@pytest.mark.skipif(not DEFAULT.exists(), reason="default schema not written yet")
def test_default_schema_occupation_given_phd_matches_exact_inference() -> None:
    net = BRNet(load_schema(DEFAULT))
    pg = to_pgmpy(net)
    assert pg.model.check_model()
    n = 100_000
    columns = ProfileSampler(net).sample_batch(seed=5, start=0, stop=n).columns
    education = net["user.education"]
    phd_value = next(v for v in education.values if v.lower() == "phd")
    phd = columns["user.education"] == education.values.index(phd_value)
    exact = exact_marginal(pg, net, "user.occupation", {"user.education": phd_value})
    k = len(net["user.occupation"].values)
    freq = np.bincount(columns["user.occupation"][phd], minlength=k) / phd.sum()
    assert within_bound(freq, exact, int(phd.sum())).all()
    for nid in ("colleague[0].work_city", "relative[1].relation", "user.occupation"):
        exact = exact_marginal(pg, net, nid)
        freq = np.bincount(columns[nid], minlength=len(net[nid].values)) / n
        assert within_bound(freq, exact, n).all(), nid
