"""CPU seconds of each phase of `memsim generate`, in one process, and what they mean for
its wall time on 2 workers.

`memsim generate --workers 2` runs in stretches. Before the fork, the parent alone
imports memsim and builds the QA context (value pool, noise profiles): one core works,
the other idles. Then the two workers draft the filler rate table's (kind, scenario)
blocks (:func:`memsim.trajectory._rates.draft_block`) while the parent loads the data
card's tokenizer; the parent adds the blocks up into the table
(:func:`memsim.trajectory._rates.rates_from`) while the workers wait; then the workers
make the records (each reads its profile, draws the question, builds the messages)
while the parent writes what they send (dataset.jsonl, memdaily.json, the data card's
token counts). This script times each phase with ``time.process_time`` in one
process, so a loaded machine disturbs the figures little, and prints:

- the rate table's drafts twice: cold (as a worker drafts them, filling the context's
  caches of dealt types, pool supports and the like, which it keeps for its records)
  and warm (the same drafts on filled caches: what the drafts alone cost), and the
  sum of the blocks into the table, apart;
- the records, with the share spent reading and checking profiles;
- the writing, as the parent does it (``write_dataset`` on the records made), the
  tokenizer's loading included;
- the floor of the 2-worker wall time on idle cores that these imply: the serial
  stretches (imports, context, the table's sum) plus the rest spread over 2 cores.

Nothing stays behind (the dataset is written into a temporary folder, then removed).

    python benchmarks/generate_phases.py /path/to/profiles            # en, all 4,500
    python benchmarks/generate_phases.py /path/to/profiles --locale zh --n 1000
"""

from __future__ import annotations

import argparse
import os
import shutil
import tempfile
import time
from pathlib import Path

from _machine import machine

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("profiles", type=Path, help="a profiles folder of the schema")
    parser.add_argument("--locale", default="en")
    parser.add_argument("--per-type", type=int, default=500)
    parser.add_argument("--n", type=int, default=0, help="records made (0: the whole plan)")
    args = parser.parse_args()
    clock = time.process_time
    start = clock()
    from memsim._gc import few_collections
    from memsim.cli import _main  # noqa: F401  (the CLI's imports, as generate has them)
    from memsim.dataset import GenerateOptions, plan
    from memsim.dataset._generate import _context, make_record
    from memsim.dataset._write import write_dataset
    from memsim.profile import load_profile
    from memsim.qa import default_kinds
    from memsim.schema import load_schema
    from memsim.trajectory import _rates

    cpu: dict[str, float] = {"imports": clock() - start}
    print(machine("numpy", "memsim"))
    mark = clock()
    schema = load_schema(ROOT / "schemas" / f"daily_life.{args.locale}.yaml")
    options = GenerateOptions(seed=0, per_type=args.per_type, types=default_kinds(schema))
    ctx = _context(schema, options)  # as generate builds it
    cpu["schema and context"] = clock() - mark
    blocks = _rates.rate_blocks(ctx.schema, ctx.kinds)
    mark = clock()
    with few_collections():  # as the workers draft them
        tallies = [_rates.draft_block(ctx, block) for block in blocks]
        cpu["rate drafts (cold)"] = clock() - mark
        mark = clock()
        _rates.set_rates(ctx, _rates.rates_from(tallies))
        cpu["rate table sum"] = clock() - mark
        mark = clock()
        for block in blocks:  # the same drafts again, on the caches the first filled
            _rates.draft_block(ctx, block)
        warm = clock() - mark
    steps = list(enumerate(plan(options, schema)))[: args.n or None]
    reading = 0.0
    records = []
    mark = clock()
    with few_collections():  # as generate's loop (and its workers) runs
        for tid, (kind, scenario) in steps:
            before = clock()
            profile = load_profile(args.profiles, tid, schema)
            reading += clock() - before
            records.append(make_record(ctx, profile, kind, scenario, tid, options.seed))
    cpu["records"] = clock() - mark
    out = Path(tempfile.mkdtemp(prefix="memsim-phases-"))
    mark = clock()
    try:
        write_dataset(records, out / "dataset", ctx.loc, lambda counts, files: {})
    finally:
        shutil.rmtree(out, ignore_errors=True)
    cpu["writing"] = clock() - mark
    print(f"memsim generate, daily_life.{args.locale}, {len(records)} records, seed 0\n")
    print(f"{'phase':<22} {'CPU s':>7}")
    for name, seconds in cpu.items():
        print(f"{name:<22} {seconds:7.2f}")
    print(f"{'':<22} {'':>7}   of the drafts, on warm caches: {warm:.2f}")
    print(f"{'':<22} {'':>7}   of the records, reading profiles: {reading:.2f}")
    serial = cpu["imports"] + cpu["schema and context"] + cpu["rate table sum"]
    parallel = cpu["rate drafts (cold)"] + cpu["records"] + cpu["writing"]
    print(
        f"\nserial (before the fork, the table's sum) {serial:.2f} s, the rest {parallel:.2f} s "
        "over 2 cores: "
        f"2-worker wall floor {serial + parallel / 2:.2f} s on idle cores "
        f"(load average now {os.getloadavg()[0]:.1f})"
    )


if __name__ == "__main__":
    main()
