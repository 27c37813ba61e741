"""MemDaily's data card beside a memsim dataset's, both computed by the same code.

Both datasets are read by the ``memdaily`` format's reader (MemDaily's per-type files
with the release's filter ``drop_flagged``; ours from its ``memdaily.json``) and
counted by ``memsim.dataset.data_card`` with one tokenizer, so every figure is
comparable: trajectories, messages, questions, messages per trajectory and tokens per
message (mean ± population standard deviation), per question type.

    make dataset LOCALE=zh && make compare-memdaily LOCALE=zh
    python benchmarks/data_cards.py --ours data/daily_life.zh/dataset/memdaily.json
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from importlib.metadata import version
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_OURS = ROOT / "data" / "daily_life.zh" / "dataset" / "memdaily.json"
DEFAULT_MEMDAILY = ROOT.parent / "shared" / "memdaily"


def side_by_side(ours: object, theirs: object) -> str:
    """One table: each type's figures for memsim and for MemDaily."""
    from memsim.dataset import DataCard

    assert isinstance(ours, DataCard) and isinstance(theirs, DataCard)
    mine = {r.type: r for r in (*ours.rows, ours.total)}
    other = {r.type: r for r in (*theirs.rows, theirs.total)}
    lines = [
        "| Type | Trajectories (memsim / MemDaily) | Messages | Questions "
        "| Tokens / message (memsim) | Tokens / message (MemDaily) |",
        "|:-----|---:|---:|---:|---:|---:|",
    ]
    for name in [*mine] + [t for t in other if t not in mine]:
        a, b = mine.get(name), other.get(name)
        shown = "**Total**" if name == "total" else name

        def pair(field: str, a: object = a, b: object = b) -> str:
            x = f"{getattr(a, field):,}" if a else "-"
            y = f"{getattr(b, field):,}" if b else "-"
            return f"{x} / {y}"

        def tokens(row: object) -> str:
            if not row or row.tokens_mean is None:  # type: ignore[attr-defined]
                return "-"
            return f"{row.tokens_mean:.2f} ± {row.tokens_std:.2f}"  # type: ignore[attr-defined]

        lines.append(
            f"| {shown} | {pair('trajectories')} | {pair('messages')} | {pair('questions')} "
            f"| {tokens(a)} | {tokens(b)} |"
        )
    return "\n".join(lines) + "\n"


def machine() -> list[str]:
    rows = [
        ("platform", platform.platform()),
        ("cpus", str(os.cpu_count())),
        ("python", platform.python_version()),
        ("memsim", version("memsim")),
        ("bpe-openai", version("bpe-openai")),
    ]
    return ["== machine", *(f"  {k:10s} {v}" for k, v in rows)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ours", type=Path, default=DEFAULT_OURS, help="our memdaily.json")
    parser.add_argument(
        "--memdaily", type=Path, default=DEFAULT_MEMDAILY, help="MemDaily's folder (read-only)"
    )
    parser.add_argument("--tokenizer", default="o200k_base")
    args = parser.parse_args(argv)

    from memsim.dataset import data_card
    from memsim.formats import FORMATS

    for path, hint in (
        (args.ours, "run `make dataset LOCALE=zh` first"),
        (args.memdaily, "MemDaily is not on this machine"),
    ):
        if not path.exists():
            print(f"data_cards: {path} does not exist ({hint})", file=sys.stderr)
            return 2
    start = time.perf_counter()
    memdaily = FORMATS.get("memdaily")
    theirs = data_card((r for r in memdaily.read(args.memdaily) if not r.flags), args.tokenizer)
    ours = data_card(memdaily.read(args.ours), args.tokenizer)
    took = time.perf_counter() - start
    print(ours.to_markdown(f"memsim: {args.ours}"))
    print(theirs.to_markdown(f"MemDaily: {args.memdaily} (flagged items dropped)"))
    print("# Side by side\n")
    print(side_by_side(ours, theirs))
    print("\n".join(machine()))
    print(f"  read and counted both in {took:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
