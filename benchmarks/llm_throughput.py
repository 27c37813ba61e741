"""LLM path throughput and calls per question, against the fake chat server.

The fake server (memsim.llm.testing) runs in a child process on 127.0.0.1 and answers
every request after a fixed latency (default 200 ms), as a remote model would; the
client runs in this process, through the official SDK, with a fresh on-disk cache.

1. Requests per second at concurrency 1, 8, 32 and 64 for each backend, against the
   ideal concurrency / latency (what a client with no overhead of its own would get).
2. A dataset run (`generate_dataset` with the rewrite pass, questions paraphrased):
   calls per question and per message, wall time; then the same with one reply in ten
   spoiled (facts dropped, changed or invented), to show what verification retries cost.
   For comparison, MemSim's own pipeline makes about 8.7 sequential LLM calls per
   trajectory plus 36 per profile.

    python benchmarks/llm_throughput.py
    python benchmarks/llm_throughput.py --latency 0.1 --per-type 100 --backends openai
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _machine import machine

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = ROOT / "schemas" / "daily_life.en.yaml"
MEMSIM_CALLS = (8.7, 36)
"""MemSim: sequential calls per trajectory, and per profile."""


def serve(latency: float, spoil_every: int) -> None:
    """Child mode: run a fake server, print its base URL, stop when stdin closes."""
    from memsim.llm.testing import FakeChatServer, Fault, Rule

    kinds = ("drop", "change", "invent")
    rules = (
        [Rule(Fault(k), every=spoil_every * 3, offset=i, times=None) for i, k in enumerate(kinds)]
        if spoil_every
        else []
    )
    with FakeChatServer(latency=latency, rules=rules) as server:
        print(server.base_url, flush=True)
        sys.stdin.read()


class Server:
    def __init__(self, latency: float, spoil_every: int = 0) -> None:
        cmd = [sys.executable, __file__, "--serve", str(latency), "--spoil-every", str(spoil_every)]
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert self.proc.stdout is not None
        self.base_url = self.proc.stdout.readline().strip()

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(timeout=30)


def throughput(backend: str, base_url: str, concurrency: int, n: int) -> float:
    from memsim.llm import ChatRequest, make_client

    requests = [
        ChatRequest(
            (
                ("system", "Rewrite the message in the user's voice. " * 20),
                (
                    "user",
                    f"<message>\nMy cousin is {i % 90 + 10} and lives in Denver ({i}).\n</message>",
                ),
            ),
            max_tokens=128,
        )
        for i in range(n)
    ]
    with (
        tempfile.TemporaryDirectory() as cache,
        make_client(
            backend, "fake", base_url=base_url, concurrency=concurrency, cache_dir=cache
        ) as client,
    ):
        client.complete_all(requests[:concurrency])  # warm-up: connections, imports
        start = time.perf_counter()
        client.complete_all(requests[concurrency:])
        elapsed = time.perf_counter() - start
        assert client.stats.failures == 0
    return (n - concurrency) / elapsed


def dataset_run(
    base_url: str, per_type: int, concurrency: int, tmp: Path, name: str
) -> dict[str, float]:
    from memsim.dataset import GenerateOptions, generate_dataset, plan
    from memsim.graph import BRNet
    from memsim.profile import write_profiles
    from memsim.rewrite import RewriteOptions
    from memsim.sampling import ProfileSampler
    from memsim.schema import load_schema

    schema = load_schema(SCHEMA)
    options = GenerateOptions(per_type=per_type, verbalizer="openai")
    profiles = tmp / "profiles"
    if not profiles.exists():
        sampled = ProfileSampler(BRNet(schema)).profiles(0, 0, len(plan(options)))
        write_profiles(sampled, profiles, {"schema": {"name": schema.name}, "seed": 0, "start": 0})
    rewrite = RewriteOptions(
        backend="openai",
        model="fake",
        base_url=base_url,
        concurrency=concurrency,
        cache_dir=str(tmp / f"cache-{name}"),
        paraphrase_questions=True,
    )
    start = time.perf_counter()
    counts = generate_dataset(schema, SCHEMA, profiles, tmp / name, options, rewrite=rewrite)
    elapsed = time.perf_counter() - start
    run, data = counts["llm"]["run"], counts["llm"]["dataset"]
    messages = data["messages"]
    return {
        "questions": counts["trajectories"],
        "messages": counts["messages"],
        "with_facts": messages.get("llm", 0) + messages.get("template_fallback", 0),
        "calls": run["calls"],
        "rejected": data["rejected"],
        "fallbacks": messages.get("template_fallback", 0),
        "seconds": elapsed,
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--latency", type=float, default=0.2, help="seconds per reply")
    parser.add_argument("--concurrency", default="1,8,32,64")
    parser.add_argument("--backends", default="openai,zhipuai")
    parser.add_argument("--per-type", type=int, default=50, help="dataset run: questions per kind")
    parser.add_argument("--dataset-concurrency", type=int, default=32)
    parser.add_argument("--serve", type=float, help=argparse.SUPPRESS)
    parser.add_argument("--spoil-every", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve is not None:
        serve(args.serve, args.spoil_every)
        return

    print("machine:", machine("openai", "zhipuai", "httpx", "memsim"))
    print(f"fake server: latency {args.latency * 1000:.0f} ms per reply, in a child process\n")
    header = (
        f"{'backend':>8} {'concurrency':>11} {'requests':>9} {'req/s':>8} {'ideal':>8} "
        f"{'of ideal':>9}"
    )
    print(header)
    print("-" * len(header))
    server = Server(args.latency)
    try:
        for backend in args.backends.split(","):
            for c in (int(x) for x in args.concurrency.split(",")):
                n = c + max(40, 8 * c)
                rate = throughput(backend, server.base_url, c, n)
                ideal = c / args.latency
                print(
                    f"{backend:>8} {c:>11} {n - c:>9} {rate:>8.1f} {ideal:>8.1f} "
                    f"{rate / ideal:>8.0%}",
                    flush=True,
                )
    finally:
        server.close()

    print(
        f"\ndataset run: openai backend, concurrency {args.dataset_concurrency}, "
        "questions paraphrased"
    )
    header = (
        f"{'replies':>16} {'questions':>9} {'messages':>8} {'calls':>6} {'calls/q':>8} "
        f"{'calls/msg':>9} {'rejected':>8} {'fallbacks':>9} {'wall s':>7}"
    )
    print(header)
    print("-" * len(header))
    with tempfile.TemporaryDirectory(prefix="memsim-llm-bench-") as tmp:
        for label, spoil in (("faithful", 0), ("1 in 10 spoiled", 10)):
            server = Server(args.latency, spoil)
            try:
                r = dataset_run(
                    server.base_url, args.per_type, args.dataset_concurrency, Path(tmp), f"d{spoil}"
                )
            finally:
                server.close()
            print(
                f"{label:>16} {r['questions']:>9} {r['messages']:>8} {r['calls']:>6} "
                f"{r['calls'] / r['questions']:>8.2f} {r['calls'] / r['messages']:>9.2f} "
                f"{r['rejected']:>8} {r['fallbacks']:>9} {r['seconds']:>7.1f}",
                flush=True,
            )
    per_q, per_profile = MEMSIM_CALLS
    print(
        f"\nMemSim's pipeline: {per_q} sequential calls per trajectory + {per_profile} per "
        f"profile; here: the calls above run {args.dataset_concurrency} at a time, none per "
        "profile.\n"
        f"calls/msg counts every message (chit-chat makes no call); "
        f"calls/q includes the question paraphrase."
    )


if __name__ == "__main__":
    main()
