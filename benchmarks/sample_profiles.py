"""Profile sampling throughput and peak memory, and a comparison with pgmpy's sampler.

    .venv/bin/python benchmarks/sample_profiles.py                 # 1k, 10k, 100k profiles
    .venv/bin/python benchmarks/sample_profiles.py --quick         # smoke run: 200, 2k
    .venv/bin/python benchmarks/sample_profiles.py --schema tests/data/tiny.yaml

Every (mode, N) measurement runs in a fresh child process (this script with the hidden
``--one`` option), so its peak RSS (``ru_maxrss``) belongs to that measurement alone. The
child prints one JSON line; the parent collects them and prints the tables. See
benchmarks/README.md for how to read the output.
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import json
import os
import platform
import resource
import shutil
import subprocess
import sys
import tempfile
import time
import warnings
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SCHEMA = "schemas/daily_life.en.yaml"
FALLBACK_SCHEMA = "tests/data/tiny.yaml"
DEFAULT_SIZES = "1000,10000,100000"
QUICK_SIZES = "200,2000"
QUICK_PGMPY_N = 2000
REPEATS = 3
WARMUP_N = 20
"""Profiles drawn (untimed) before each timed run: loads Faker's name lists and
fills the caches, one-off costs that would otherwise swamp the smallest N."""


# --- helpers -------------------------------------------------------------------------
def resolve_schema(path: str | None) -> Path:
    if path is None:
        default = ROOT / DEFAULT_SCHEMA
        return default if default.exists() else ROOT / FALLBACK_SCHEMA
    p = Path(path)
    if not p.exists() and not p.is_absolute() and (ROOT / p).exists():
        p = ROOT / p
    if not p.exists():
        sys.exit(f"sample_profiles.py: error: no schema at {path}")
    return p


def shown(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(ROOT))
    except ValueError:
        return str(path)


def maxrss_kib() -> int:
    """Peak resident set size of this process so far (Linux reports KiB)."""
    return int(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)


def load_net(schema_path: Path) -> Any:
    from memsim.graph import BRNet
    from memsim.schema import load_schema

    return BRNet(load_schema(schema_path))


def pkg_version(name: str) -> str:
    try:
        return version(name)
    except PackageNotFoundError:
        return "not installed"


def mem_total() -> str:
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                kib = int(line.split()[1])
                return f"{kib / 2**20:.1f} GiB"
    except OSError:
        pass
    return "unknown"


def filesystem_of(path: Path) -> str:
    """The mount point and type holding ``path`` (from /proc/mounts), e.g. '/ (ext4)'."""
    best = ("", "unknown")
    try:
        target = str(path.resolve())
        for line in Path("/proc/mounts").read_text().splitlines():
            parts = line.split()
            if len(parts) < 3:
                continue
            mount, fstype = parts[1], parts[2]
            inside = target == mount or target.startswith(mount.rstrip("/") + "/")
            if inside and len(mount) >= len(best[0]):
                best = (mount, fstype)
    except OSError:
        pass
    return f"{best[0] or '?'} ({best[1]})"


def cpu_since(start: resource.struct_rusage) -> dict[str, float]:
    """User and system CPU seconds of this process since ``start`` (a ``getrusage``):
    system time is mostly file creation, which other processes' I/O slows down."""
    now = resource.getrusage(resource.RUSAGE_SELF)
    return {"user": now.ru_utime - start.ru_utime, "sys": now.ru_stime - start.ru_stime}


def tree_bytes(folder: Path) -> int:
    return sum(entry.stat().st_size for entry in os.scandir(folder) if entry.is_file())


# --- child: one measurement ------------------------------------------------------------
def run_one(
    mode: str, n: int, schema_path: Path, seed: int, batch_size: int, tmp_root: str | None
) -> dict[str, Any]:
    """One timed run in this (fresh) process; returns the figures as a dict."""
    from memsim import __version__
    from memsim.sampling import ProfileSampler

    net = load_net(schema_path)
    sampler = ProfileSampler(net)
    result: dict[str, Any] = {"mode": mode, "n": n}

    if mode == "columns":
        sampler.sample_batch(seed, 0, WARMUP_N)
        result["setup_kib"] = maxrss_kib()
        t0, c0 = time.perf_counter(), resource.getrusage(resource.RUSAGE_SELF)
        for lo in range(0, n, batch_size):
            sampler.sample_batch(seed, lo, min(n, lo + batch_size))
        result["seconds"] = time.perf_counter() - t0
        result.update(cpu_since(c0))
    elif mode == "disk":
        from memsim.profile import write_profiles

        schema = net.schema
        manifest = {
            "schema": {
                "name": schema.name,
                "version": schema.version,
                "sha256": hashlib.sha256(schema_path.read_bytes()).hexdigest(),
            },
            "seed": seed,
            "start": 0,
            "n": n,
            "memsim_version": __version__,
        }
        tmp = Path(tempfile.mkdtemp(prefix="memsim-bench-", dir=tmp_root))
        try:
            warmup = sampler.profiles(seed, 0, WARMUP_N, batch_size)
            write_profiles(warmup, tmp / "warmup", manifest)
            result["setup_kib"] = maxrss_kib()
            out = tmp / "profiles"
            t0, c0 = time.perf_counter(), resource.getrusage(resource.RUSAGE_SELF)
            count = write_profiles(sampler.profiles(seed, 0, n, batch_size), out, manifest)
            result["seconds"] = time.perf_counter() - t0
            result.update(cpu_since(c0))
            if count != n:
                raise RuntimeError(f"wrote {count} profiles, expected {n}")
            result["disk_bytes"] = tree_bytes(out)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    else:
        raise ValueError(f"unknown mode {mode!r}")
    result["peak_kib"] = maxrss_kib()
    return result


def measure(mode: str, n: int, args: argparse.Namespace, schema_path: Path) -> dict[str, Any]:
    """Run :func:`run_one` in a fresh interpreter and parse its JSON line."""
    cmd = [
        sys.executable,
        str(Path(__file__).resolve()),
        "--one",
        mode,
        "--n",
        str(n),
        "--schema",
        str(schema_path),
        "--seed",
        str(args.seed),
        "--batch-size",
        str(args.batch_size),
    ]
    if args.tmpdir:
        cmd += ["--tmpdir", args.tmpdir]
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
    if proc.returncode != 0 or not lines:
        sys.stderr.write(proc.stderr)
        sys.exit(
            f"sample_profiles.py: the {mode} run with N={n} failed (exit status {proc.returncode})"
        )
    return dict(json.loads(lines[-1]))


# --- pgmpy comparison ------------------------------------------------------------------
def compare_pgmpy(net: Any, n: int, seed: int) -> list[str]:
    from memsim.sampling import ProfileSampler

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FutureWarning)
            from pgmpy.sampling import BayesianModelSampling

            from memsim.graph import to_pgmpy
    except ImportError:
        return ["pgmpy is not installed (pip install 'memsim[pgm]'): comparison skipped"]

    t0 = time.perf_counter()
    pg = to_pgmpy(net)
    t_build = time.perf_counter() - t0
    pgmpy_sampler = BayesianModelSampling(pg.model)
    ours = ProfileSampler(net)

    # untimed warm-up of both, then one timed run each
    pgmpy_sampler.forward_sample(size=WARMUP_N, seed=seed, show_progress=False)
    ours.sample_batch(seed, 0, WARMUP_N)

    discrete = {node.id for node in net.discrete_nodes()}
    runs = {
        "pgmpy": lambda: pgmpy_sampler.forward_sample(size=n, seed=seed, show_progress=False),
        "all": lambda: ours.sample_batch(seed, 0, n),
        "same": lambda: ours.sample_batch(seed, 0, n, only=discrete),
    }
    # interleaved repeats, the best of each: on a shared machine the least disturbed run
    wall: dict[str, float] = dict.fromkeys(runs, float("inf"))
    cpu: dict[str, float] = dict.fromkeys(runs, float("inf"))
    for _ in range(REPEATS):
        for name, run in runs.items():
            w0, c0 = time.perf_counter(), time.process_time()
            out = run()
            wall[name] = min(wall[name], time.perf_counter() - w0)
            cpu[name] = min(cpu[name], time.process_time() - c0)
            assert len(out) == n

    n_disc = len(net.discrete_nodes())
    n_changes = sum(1 for node in net if node.attribute.changes is not None)

    def row(label: str, name: str) -> str:
        return f"  {label:60s} {wall[name]:8.3f} {cpu[name]:8.3f} {n / cpu[name]:12,.0f}"

    def verdict(name: str, target: float, what: str) -> str:
        ratio = cpu["pgmpy"] / cpu[name]
        met = "met" if ratio >= target else "NOT met"
        return f"  {what}: ours {ratio:.1f}x pgmpy (CPU time; target >= {target:g}x: {met})"

    return [
        f"N = {n:,} samples per call, after an untimed warm-up of {WARMUP_N}; the best of "
        f"{REPEATS} interleaved runs each.",
        f"pgmpy network: {n_disc} categorical nodes, {len(pg.model.edges())} edges "
        f"(to_pgmpy + check_model took {t_build:.2f} s, not counted below).",
        f"'all nodes' draws MORE: all {len(net)} nodes ({n_disc} categorical + "
        f"{len(net) - n_disc} numeric/date/text) plus the change events of {n_changes} node(s);",
        "pgmpy draws the categorical nodes only (and returns state names in a DataFrame).",
        "",
        f"  {'sampler':60s} {'wall s':>8s} {'CPU s':>8s} {'samples/s':>12s}",
        row("pgmpy BayesianModelSampling.forward_sample(size=N)", "pgmpy"),
        row("ours sample_batch(seed, 0, N, only=<categorical nodes>)", "same"),
        row("ours ProfileSampler.sample_batch(seed, 0, N) (all nodes)", "all"),
        verdict("same", 20, "same categorical nodes"),
        verdict("all", 5, "all nodes (ours) vs categorical (pgmpy)"),
    ]


# --- report ----------------------------------------------------------------------------
def mib(kib: int) -> str:
    return f"{kib / 1024:.1f}"


def load_text() -> str:
    try:
        one, five, fifteen = os.getloadavg()
    except OSError:
        return "unknown"
    return f"{one:.2f} / {five:.2f} / {fifteen:.2f} (1 / 5 / 15 min)"


def busy_warning() -> str | None:
    """A warning if other processes keep the CPUs busy: the figures would be too slow."""
    try:
        one = os.getloadavg()[0]
    except OSError:
        return None
    cpus = os.cpu_count() or 1
    if one < 0.5 * cpus:
        return None
    return (
        f"WARNING: load average {one:.2f} on {cpus} CPU(s): other processes compete "
        "with this benchmark; its times are pessimistic"
    )


def print_machine(schema_path: Path, net: Any, tmp_root: str | None) -> None:
    tmp = Path(tmp_root or tempfile.gettempdir())
    n_disc = len(net.discrete_nodes())
    rows = [
        ("platform", platform.platform()),
        ("cpus", str(os.cpu_count())),
        ("memory", mem_total()),
        ("python", platform.python_version()),
        ("numpy", pkg_version("numpy")),
        ("pgmpy", pkg_version("pgmpy")),
        ("memsim", pkg_version("memsim")),
        ("temp dir", f"{tmp} on {filesystem_of(tmp)}"),
        (
            "schema",
            f"{shown(schema_path)} ({net.schema.name} {net.schema.version}: "
            f"{len(net)} nodes, {n_disc} categorical, {len(net.edges())} edges)",
        ),
        ("date", dt.datetime.now().isoformat(timespec="seconds")),
        ("load", f"{load_text()} at start"),
    ]
    print("== machine")
    for key, value in rows:
        print(f"  {key:9s} {value}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description="Profiles/s and peak memory of memsim's sampler, and pgmpy's sampler "
        "on the same discrete network."
    )
    parser.add_argument(
        "--schema",
        help=f"YAML schema (default: {DEFAULT_SCHEMA}, "
        f"or {FALLBACK_SCHEMA} if that does not exist)",
    )
    parser.add_argument(
        "--sizes", default=None, help=f"comma-separated profile counts (default: {DEFAULT_SIZES})"
    )
    parser.add_argument("--seed", type=int, default=0, help="sampling seed (default: 0)")
    parser.add_argument(
        "--quick",
        action="store_true",
        help=f"smoke run: sizes {QUICK_SIZES}, pgmpy N {QUICK_PGMPY_N}",
    )
    parser.add_argument(
        "--pgmpy-n",
        type=int,
        default=None,
        help="N for the pgmpy comparison (default: 10000; 0 skips it)",
    )
    parser.add_argument(
        "--batch-size",
        type=int,
        default=2000,
        help="profiles per sample_batch call (default: 2000, as the CLI)",
    )
    parser.add_argument(
        "--tmpdir", default=None, help="where the on-disk runs write (default: the system temp dir)"
    )
    parser.add_argument("--one", choices=["columns", "disk"], help=argparse.SUPPRESS)
    parser.add_argument("--n", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    schema_path = resolve_schema(args.schema)

    if args.one:
        print(
            json.dumps(
                run_one(args.one, args.n, schema_path, args.seed, args.batch_size, args.tmpdir)
            )
        )
        return

    sizes_text = args.sizes or (QUICK_SIZES if args.quick else DEFAULT_SIZES)
    try:
        sizes = [int(s.replace("_", "")) for s in sizes_text.split(",") if s.strip()]
    except ValueError:
        parser.error(f"--sizes: not a list of integers: {sizes_text!r}")
    if not sizes or min(sizes) < 1:
        parser.error("--sizes: give positive integers")
    pgmpy_n = args.pgmpy_n if args.pgmpy_n is not None else (QUICK_PGMPY_N if args.quick else 10000)

    started = time.perf_counter()
    net = load_net(schema_path)
    print_machine(schema_path, net, args.tmpdir)
    warning = busy_warning()
    if warning:
        print(f"  {warning}")
    print(
        f"  seed {args.seed}, batch size {args.batch_size}; each row below is a fresh "
        "child process (peak RSS = ru_maxrss)"
    )

    results: dict[tuple[str, int], dict[str, Any]] = {}
    for n in sizes:
        for mode in ("columns", "disk"):
            print(f"  ... {mode} N={n:,}", file=sys.stderr, flush=True)
            results[(mode, n)] = measure(mode, n, args, schema_path)

    head = (
        f"  {'N':>9s} {'wall s':>9s} {'user s':>8s} {'sys s':>7s} {'profiles/s':>11s} "
        f"{'peak RSS MiB':>13s} {'setup MiB':>10s}"
    )
    print()
    print(
        f"== (a) columns only: sample_batch over N profiles in batches of {args.batch_size}, "
        "results discarded"
    )
    print(head)
    for n in sizes:
        r = results[("columns", n)]
        print(
            f"  {n:9,d} {r['seconds']:9.3f} {r['user']:8.3f} {r['sys']:7.3f} "
            f"{n / (r['user'] + r['sys']):11,.0f} "
            f"{mib(r['peak_kib']):>13s} {mib(r['setup_kib']):>10s}"
        )
    print()
    print(
        "== (b) full pipeline to disk: write_profiles(sampler.profiles(seed, 0, N), tmpdir, "
        "manifest)"
    )
    print(f"{head} {'on disk MiB':>12s} {'KiB/profile':>12s}")
    for n in sizes:
        r = results[("disk", n)]
        print(
            f"  {n:9,d} {r['seconds']:9.3f} {r['user']:8.3f} {r['sys']:7.3f} "
            f"{n / (r['user'] + r['sys']):11,.0f} "
            f"{mib(r['peak_kib']):>13s} {mib(r['setup_kib']):>10s} "
            f"{r['disk_bytes'] / 2**20:12.1f} {r['disk_bytes'] / 1024 / n:12.2f}"
        )
    print(
        "  (setup = peak RSS after imports, network and an untimed warm-up, before the timed "
        "run; on disk = apparent size of the profile files and manifest)"
    )

    if pgmpy_n > 0:
        print()
        print("== pgmpy comparison: the same discrete network, sampled by pgmpy and by us")
        for line in compare_pgmpy(net, pgmpy_n, args.seed):
            print(f"  {line}" if line else "")
    print()
    print(
        f"total benchmark time {time.perf_counter() - started:.1f} s; load {load_text()} at the end"
    )
    warning = busy_warning()
    if warning:
        print(warning)


if __name__ == "__main__":
    main()
