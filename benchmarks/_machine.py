"""The machine line every benchmark prints beside its figures."""

from __future__ import annotations

import os
import platform
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path


def machine(*packages: str) -> str:
    """Platform, cores, memory, the load average when it was called, Python, and the
    version of each of ``packages`` (installed distributions)."""
    mem = next(
        (
            line.split()[1]
            for line in Path("/proc/meminfo").read_text().splitlines()
            if line.startswith("MemTotal")
        ),
        "0",
    )
    versions = []
    for name in packages:
        try:
            versions.append(f"{name} {version(name)}")
        except PackageNotFoundError:
            versions.append(f"{name} not installed")
    return "; ".join(
        [
            platform.platform(),
            f"{os.cpu_count()} cores",
            f"{int(mem) / 2**20:.1f} GiB",
            f"load average {os.getloadavg()[0]:.1f}",
            f"Python {platform.python_version()}",
            *versions,
        ]
    )
