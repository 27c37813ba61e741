"""The audit's report is the same whatever the number of worker processes."""

from __future__ import annotations

import json
from pathlib import Path

from memsim.audit import load_context, open_source, run_audit
from memsim.audit._parallel import share

SCHEMA = Path(__file__).resolve().parents[2] / "schemas" / "daily_life.en.yaml"


def _report_bytes(dataset_dir: Path, profiles_dir: Path, workers: int) -> bytes:
    ctx = load_context(open_source(str(dataset_dir)), str(profiles_dir), str(SCHEMA))
    report = run_audit(ctx, workers=workers)
    report.seconds = 0.0  # wall-clock time, the one field that differs between runs
    return json.dumps(report.to_json(), sort_keys=True, ensure_ascii=False).encode()


def test_the_report_is_byte_identical_for_1_2_and_3_workers(
    dataset_dir: Path, profiles_dir: Path
) -> None:
    one = _report_bytes(dataset_dir, profiles_dir, 1)
    assert _report_bytes(dataset_dir, profiles_dir, 2) == one
    assert _report_bytes(dataset_dir, profiles_dir, 3) == one


def test_checks_are_shared_out_by_cost_and_every_check_runs_once() -> None:
    from memsim.audit import CHECKS
    from memsim.audit._parallel import COST, DEFAULT_COST

    checks = [CHECKS.get(n) for n in CHECKS.names()]
    groups = share(checks, 2)
    assert sorted(n for g in groups for n in g) == sorted(CHECKS.names())
    loads = [sum(COST.get(n, DEFAULT_COST) for n in g) for g in groups]
    assert abs(loads[0] - loads[1]) <= max(COST.values())  # longest-first greedy bound
    assert len(share(checks, 1)) == 1
    assert len(share(checks, 99)) == len(checks)
