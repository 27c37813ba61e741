"""Histories to a token budget at scale: tokens assembled per second and peak memory.

For each budget (32k, 128k, 1M tokens of o200k_base) one `memsim generate
--history-tokens N` run on the default schema, in a fresh process (so its peak RSS is
its own): the filler pool is built once (about 3x the budget, each session written
once to sessions.jsonl), then every question's history is assembled and streamed to
disk. Printed per budget: questions, the time to build the pool, the time to make the
histories (evidence records, sessions, assembly, writing) and, of it, the assembly
(filler drawn, placed, timed, the record written) in wall and CPU seconds, tokens of
history per second (assembled/s: per CPU second of assembly, the figure the target
names, since wall time on a shared machine measures the load), the bytes on disk, and
the process's peak RSS, each beside its target.

    python benchmarks/history_scale.py
    python benchmarks/history_scale.py --budgets 32000,1000000 --per-type 10
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

from _machine import machine

from memsim.qa import ASSISTANT_KINDS, KIND_ORDER

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = ROOT / "schemas" / "daily_life.en.yaml"
TARGET_RATE = 10_000_000
"""Tokens of history assembled per CPU second (issue 17 item 4)."""
TARGET_RSS_MB = 1024
"""Peak RSS of a whole run, whatever the budget (issue 14: flat memory)."""

CHILD = r"""
import json, resource, sys
from pathlib import Path
from memsim.dataset import GenerateOptions
from memsim.history import HistoryOptions, write_history_dataset
from memsim.qa import ASSISTANT_KINDS, default_kinds
from memsim.schema import load_schema

schema_path, profiles, out, per_type, budget = sys.argv[1:6]
schema = load_schema(schema_path)
kinds = default_kinds(schema) + ASSISTANT_KINDS  # as memsim generate --history-tokens
counts = write_history_dataset(
    schema, Path(schema_path), Path(profiles), Path(out),
    GenerateOptions(seed=0, per_type=int(per_type), types=kinds),
    HistoryOptions(int(budget)),
)
rss_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"counts": counts, "rss_mb": rss_kb / 1024}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--budgets", default="32000,128000,1000000")
    parser.add_argument("--per-type", type=int, default=5, help="questions per QA kind")
    args = parser.parse_args()
    budgets = [int(b) for b in args.budgets.split(",")]
    print(machine())
    with tempfile.TemporaryDirectory(prefix="memsim-history-scale-") as tmp:
        base = Path(tmp)
        memsim = [sys.executable, "-m", "memsim"]
        n = (len(KIND_ORDER) + len(ASSISTANT_KINDS)) * args.per_type
        subprocess.run(
            [*memsim, "profiles", "--schema", str(SCHEMA), "--n", str(n), "--out",
             str(base / "profiles")],
            check=True, capture_output=True,
        )  # fmt: skip
        print(
            f"targets (issue 17 item 4, issue 14): at least {TARGET_RATE / 1e6:.0f}M tokens "
            f"assembled per second (CPU) at 128k; peak RSS under {TARGET_RSS_MB:,} MB at 1M"
        )
        print(
            f"{'budget':>10} {'questions':>9} {'pool s':>7} {'histories s':>11} "
            f"{'tokens/s':>12} {'assembly s':>10} {'CPU s':>7} {'assembled/s':>12} "
            f"{'on disk MB':>10} {'peak RSS MB':>11}  vs target"
        )
        for budget in budgets:
            out = base / f"d{budget}"
            proc = subprocess.run(
                [sys.executable, "-c", CHILD, str(SCHEMA), str(base / "profiles"), str(out),
                 str(args.per_type), str(budget)],
                check=True, capture_output=True, text=True, cwd=ROOT,
            )  # fmt: skip
            result = json.loads(proc.stdout.strip().splitlines()[-1])
            counts = result["counts"]
            questions = counts["trajectories"]
            seconds = counts["seconds"]
            tokens = sum(
                json.loads(line)["history"]["tokens"]
                for line in (out / "dataset.jsonl").read_text().splitlines()
            )
            disk = sum(f.stat().st_size for f in out.iterdir()) / 1e6
            rate = tokens / max(seconds["assembly_cpu"], 1e-9)
            verdict = [
                f"rate {'met' if rate >= TARGET_RATE else 'MISSED'}",
                f"RSS {'met' if result['rss_mb'] < TARGET_RSS_MB else 'MISSED'}",
            ]
            print(
                f"{budget:>10,} {questions:>9} {seconds['pool']:>7.1f} "
                f"{seconds['histories']:>11.1f} {tokens / seconds['histories']:>12,.0f} "
                f"{seconds['assembly']:>10.2f} {seconds['assembly_cpu']:>7.2f} {rate:>12,.0f} "
                f"{disk:>10.1f} {result['rss_mb']:>11.0f}  {', '.join(verdict)}"
            )


if __name__ == "__main__":
    main()
