"""Write and read-back time and size of the longmemeval, locomo and hf exports, and the
figures of the real LoCoMo file that the README quotes.

A native dataset (``dataset.jsonl``) is read into records once; each format writes them
into a temporary folder (timed), then reads the folder back (timed). For the LoCoMo file
(default ../shared/locomo/locomo10.json): conversations, sessions, turns, questions per
category, evidence ids that name no turn (and how many look like several ids run
together), category-5 items that carry an answer, and the read time.

    python benchmarks/formats.py data/daily_life.en/dataset
    python benchmarks/formats.py data/daily_life.en/dataset --locomo ../shared/locomo/locomo10.json
"""

from __future__ import annotations

import argparse
import re
import shutil
import tempfile
import time
from collections import Counter
from pathlib import Path

import orjson
from _machine import machine

import memsim.formats.hf
import memsim.formats.locomo
import memsim.formats.longmemeval  # noqa: F401  (each registers its format)
from memsim.formats import FORMATS, ExportInfo
from memsim.records import Record, record_from_json

ROOT = Path(__file__).resolve().parents[1]


def native_records(folder: Path) -> list[Record]:
    with (folder / "dataset.jsonl").open("rb") as fh:
        return [record_from_json(orjson.loads(line)) for line in fh]


def size(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def exports(records: list[Record], manifest: dict[str, object], profiles: Path | None) -> None:
    print(f"{'format':<12} {'write':>8} {'read':>8} {'MB':>8} {'records read':>13}")
    for name in ("longmemeval", "locomo", "hf"):
        out = Path(tempfile.mkdtemp(prefix=f"memsim-export-{name}-"))
        try:
            fmt = FORMATS.get(name)
            info = ExportInfo(manifest=manifest, profiles=profiles)
            start = time.perf_counter()
            fmt.write(records, out, info)
            wrote = time.perf_counter() - start
            start = time.perf_counter()
            count = sum(1 for _ in fmt.read(out))
            read = time.perf_counter() - start
            mb = size(out) / 1e6
            print(f"{name:<12} {wrote:>7.2f}s {read:>7.2f}s {mb:>8.2f} {count:>13,}")
        finally:
            shutil.rmtree(out, ignore_errors=True)


def locomo_figures(path: Path) -> None:
    start = time.perf_counter()
    records = list(FORMATS.get("locomo").read(path))
    seconds = time.perf_counter() - start
    conversations = {r.extra["sample_id"]: r for r in records}
    sessions = sum(len(r.sessions) for r in conversations.values())
    turns = sum(len(r.turns) for r in conversations.values())
    categories = Counter(r.extra["category"] for r in records)
    missing = [e for r in records for e in r.extra.get("missing_evidence", [])]
    run_together = [e for e in missing if len(re.findall(r"D\d+:\d+", e)) > 1]
    answered = sum("answer_given" in r.extra for r in records)
    print(f"\n{path}: read in {seconds:.2f} s")
    print(f"conversations {len(conversations)}, sessions {sessions}, turns {turns:,}")
    print(
        f"questions {len(records):,}: "
        + ", ".join(f"{c}: {categories[c]}" for c in sorted(categories))
    )
    print(f"evidence ids naming no turn: {len(missing)} ", end="")
    print(f"({len(run_together)} are several ids run together): {missing}")
    print(f"category-5 (unanswerable) items that carry an answer: {answered}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("dataset", type=Path, help="a native dataset folder (dataset.jsonl)")
    parser.add_argument("--profiles", type=Path, help="its profiles folder (LoCoMo speaker names)")
    parser.add_argument(
        "--locomo", type=Path, default=ROOT.parent / "shared" / "locomo" / "locomo10.json"
    )
    args = parser.parse_args()
    print(machine("memsim", "pyarrow", "orjson"))
    manifest_path = args.dataset / "manifest.json"
    manifest = orjson.loads(manifest_path.read_bytes()) if manifest_path.is_file() else {}
    start = time.perf_counter()
    records = native_records(args.dataset)
    print(f"{args.dataset}: {len(records):,} records read in {time.perf_counter() - start:.2f} s\n")
    profiles = args.profiles or (args.dataset.parent / "profiles")
    exports(records, manifest, profiles if profiles.is_dir() else None)
    if args.locomo.is_file():
        locomo_figures(args.locomo)


if __name__ == "__main__":
    main()
