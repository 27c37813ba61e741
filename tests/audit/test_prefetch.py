"""The audit reads profiles ahead in batches (``ProfileStore.prefetch``): the same report
as reading them one by one, each profile read once, none read when no running check needs
them, and a missing profile still stops the audit at the item that names it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import memsim.audit._context as context
from memsim.audit import AuditInputError, load_context, open_source, run_audit
from tests.audit.conftest import ROOT, generate

SCHEMA = ROOT / "schemas" / "daily_life.en.yaml"
PROFILE_CHECKS = ["answer_rederived", "noise_facts", "values_in_force"]


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return generate(tmp_path_factory.mktemp("prefetch"), SCHEMA, n=40, per_type=4)


def _report(base: Path, profiles: Path | None = None) -> dict[str, Any]:
    ctx = load_context(open_source(base / "d"), profiles or base / "p", SCHEMA)
    report = run_audit(ctx, PROFILE_CHECKS).to_json()
    report["verdict"].pop("seconds")
    return report


def test_batches_give_the_report_of_one_by_one_reads_each_profile_once(
    data: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    reads: list[str] = []
    read = context.read_profile

    def counted(path: Path, schema: Any) -> Any:
        reads.append(path.name)
        return read(path, schema)

    monkeypatch.setattr(context, "read_profile", counted)
    monkeypatch.setattr("memsim.audit._framework.PREFETCH", 8)
    batched = _report(data)
    assert len(reads) == len(set(reads)) > 8  # several batches, no re-read
    monkeypatch.setattr("memsim.audit._framework.PREFETCH", 1)
    assert _report(data) == batched


def test_no_profile_is_read_when_no_running_check_needs_one(
    data: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    reads: list[Path] = []
    monkeypatch.setattr(context, "read_profile", lambda path, schema: reads.append(path))
    ctx = load_context(open_source(data / "d"), data / "p", SCHEMA)
    report = run_audit(ctx, ["timestamps_increasing", "options_distinct"])
    assert reads == []
    assert report.items > 0


def test_a_missing_profile_still_stops_the_audit_naming_it(data: Path, tmp_path: Path) -> None:
    profiles = tmp_path / "p"
    profiles.mkdir()
    names = sorted(p.name for p in (data / "p").iterdir())
    for name in names:
        (profiles / name).write_bytes((data / "p" / name).read_bytes())
    gone = profiles / "p000005.json"
    gone.unlink()
    with pytest.raises(AuditInputError, match=r"p000005\.json: missing \(the dataset names"):
        _report(data, profiles)
