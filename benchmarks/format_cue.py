"""Is the two-fact message what lets a format classifier tell evidence from filler?

Evidence messages state one fact; a quarter of filler messages state two. This fits the
audit's own format classifier (memsim.audit's logistic regression on format features,
cross-validated by trajectory, AUC within trajectories) on evidence vs filler messages of
a native dataset twice: with every filler message, and with the one-fact filler only.
If the AUC does not fall without the two-fact messages, they are not the cue.

    python benchmarks/format_cue.py data/daily_life.en/dataset
    python benchmarks/format_cue.py data/daily_life.zh/dataset --trajectories 3000
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import numpy as np
from _machine import machine

from memsim.audit._logistic import cross_validated, features, within_auc


def auc(records: list[dict[str, Any]], one_fact_filler_only: bool) -> tuple[float, float, int]:
    rows, labels, groups = [], [], []
    for index, record in enumerate(records):
        for m in record["message_list"]:
            if m["role"] == "filler":
                if one_fact_filler_only and len(m["facts"]) > 1:
                    continue
                label = 0.0
            elif m["role"] == "evidence":
                label = 1.0
            else:
                continue
            rows.append(features(m["message"]))
            labels.append(label)
            groups.append(index)
    y = np.array(labels)
    g = np.array(groups, dtype=np.int64)
    scores = cross_validated(np.array(rows, dtype=np.float64), y, g)
    return within_auc(scores, y, g)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("dataset", type=Path, help="a native dataset folder")
    parser.add_argument(
        "--trajectories", type=int, default=1500, help="a seeded sample of this many"
    )
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    lines = (args.dataset / "dataset.jsonl").read_text(encoding="utf-8").splitlines()
    records = [json.loads(line) for line in lines if line.strip()]
    rng = np.random.default_rng(args.seed)
    picked = rng.choice(len(records), size=min(args.trajectories, len(records)), replace=False)
    sample = [records[int(i)] for i in picked]
    print(machine("numpy", "memsim"))
    print(f"{args.dataset}: {len(sample)} of {len(records)} trajectories\n")
    print(f"{'filler compared':<28} {'AUC':>6} {'SE':>6} {'pairs':>8}")
    for label, only_one in (("every filler message", False), ("one-fact filler only", True)):
        value, se, pairs = auc(sample, only_one)
        print(f"{label:<28} {value:>6.3f} {se:>6.3f} {pairs:>8,}")


if __name__ == "__main__":
    main()
