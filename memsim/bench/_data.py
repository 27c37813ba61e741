"""Benchmark input: memsim's native datasets and MemDaily-format data, read the same way.

``PATH`` may be a native dataset folder (holding ``dataset.jsonl``) or the
``dataset.jsonl`` itself, a merged MemDaily ``memdaily.json``, or a folder of
MemDaily per-type files ``NN_<type>_<scenario>.json``. Native records are streamed
line by line; MemDaily files are read whole (they hold only the real messages).
MemDaily items flagged as failed generations are left out, as the release's merged file
does, and counted in the manifest.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import numpy as np
import orjson

from memsim.dataset import MemDailyItem, drop_flagged, read_memdaily

Format = Literal["auto", "native", "memdaily"]
NATIVE_FILE = "dataset.jsonl"
REPO_ROOT = Path(__file__).resolve().parents[2]
MEMDAILY_NOISE_SCHEMA = "schemas/daily_life.zh.yaml"
"""The noise schema for MemDaily-format input (Chinese, like MemDaily), looked up in
the working folder and then in memsim's source tree."""


@dataclass
class Source:
    path: Path
    format: Literal["native", "memdaily"]
    digest: str
    selected: list[int]
    """Indices (in file order) of the trajectories benchmarked."""
    total: int
    dropped_flagged: int = 0
    _items: list[MemDailyItem] | None = field(default=None, repr=False)

    def items(self) -> Iterator[tuple[int, MemDailyItem]]:
        """(index in the file, item) for every selected trajectory, in file order."""
        wanted = set(self.selected)
        if self._items is not None:
            for i in self.selected:
                yield i, self._items[i]
            return
        for i, item in enumerate(native_records(self.path)):
            if i in wanted:
                yield i, item

    def sample_times(self) -> list[str]:
        for _, item in self.items():
            return [m["time"] for m in item.messages] + [item.qa["time"]]
        return []


def open_source(
    path: str | Path, fmt: Format = "auto", limit: int | None = None, seed: int = 0
) -> Source:
    """Find out what ``path`` holds and select the trajectories to run (see ``--limit``)."""
    path = Path(path)
    if not path.exists():
        raise FileNotFoundError(f"{path}: does not exist")
    native = path / NATIVE_FILE if path.is_dir() else path
    if fmt == "native" or (fmt == "auto" and native.suffix == ".jsonl" and native.is_file()):
        if not native.is_file():
            raise FileNotFoundError(f"{path}: holds no {NATIVE_FILE} (is it a memsim dataset?)")
        types = [item.type for item in native_records(native)]
        return Source(
            native, "native", _digest_file(native), _select(types, limit, seed), len(types)
        )
    items = read_memdaily(path)
    kept = drop_flagged(items)
    types = [item.type for item in kept]
    return Source(
        path,
        "memdaily",
        _digest_path(path),
        _select(types, limit, seed),
        len(kept),
        len(items) - len(kept),
        kept,
    )


def native_records(path: Path) -> Iterator[MemDailyItem]:
    """The records of a ``dataset.jsonl``, with ``file:line`` in every error."""
    try:
        lines = open(path, "rb")  # noqa: SIM115  (closed by the with below; open errors named)
    except OSError as e:
        raise FileNotFoundError(f"{path}: cannot read: {e.strerror or e}") from e
    with lines:
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                record = orjson.loads(line)
                qa = record["QA"]
                item = MemDailyItem(
                    type=record["type"],
                    scenario=record["scenario"],
                    tid=record["tid"],
                    messages=tuple(_message(m) for m in record["message_list"]),
                    qa={
                        k: qa[k]
                        for k in ("question", "choices", "ground_truth", "target_step_id", "time")
                    }
                    | {"provenance": qa.get("provenance", {})},
                    source=str(path),
                )
            except orjson.JSONDecodeError as e:
                raise ValueError(f"{path}:{number}: invalid JSON: {e.msg}") from e
            except (KeyError, TypeError, AttributeError) as e:
                problem = f"missing key {e}" if isinstance(e, KeyError) else str(e)
                raise ValueError(
                    f"{path}:{number}: not a memsim trajectory record: {problem}"
                ) from e
            yield item


def _message(m: dict[str, Any]) -> dict[str, Any]:
    return {"mid": m["mid"], "message": m["message"], "time": m["time"], "place": m["place"]}


def _select(types: list[str], limit: int | None, seed: int) -> list[int]:
    """Every index, or at most ``limit`` per QA kind: a uniform sample drawn with the
    seed, kept in file order."""
    if limit is None:
        return list(range(len(types)))
    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(3,)))
    chosen: list[int] = []
    for kind in dict.fromkeys(types):
        indices = [i for i, t in enumerate(types) if t == kind]
        if len(indices) > limit:
            indices = sorted(int(i) for i in rng.choice(indices, size=limit, replace=False))
        chosen += indices
    return sorted(chosen)


def _digest_file(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _digest_path(path: Path) -> str:
    """sha256 of a file, or of a folder's JSON files (name and digest of each)."""
    if path.is_file():
        return _digest_file(path)
    h = hashlib.sha256()
    for file in sorted(path.glob("*.json")):
        h.update(f"{file.name}\0{_digest_file(file)}\n".encode())
    return h.hexdigest()


def find_schema(relative: str) -> Path | None:
    """``relative`` in the working folder (returned as given), else in memsim's source tree."""
    if Path(relative).is_file():
        return Path(relative)
    if (REPO_ROOT / relative).is_file():
        return REPO_ROOT / relative
    return None


def native_noise_schema(source: Source) -> Path:
    """The schema a native dataset was generated from, named by its manifest: the file in
    ``schemas/`` (working folder, then memsim's source tree) with the manifest's sha256,
    else one whose ``name`` and ``locale`` match."""
    manifest = source.path.parent / "manifest.json"
    try:
        schema = orjson.loads(manifest.read_bytes())["schema"]
        name, locale, digest = schema["name"], schema.get("locale"), schema.get("sha256")
    except (OSError, orjson.JSONDecodeError, KeyError, TypeError) as e:
        raise ValueError(
            f"{manifest}: cannot tell which schema made this dataset ({e}); "
            "pass --noise-schema PATH"
        ) from e
    files = [
        f for base in (Path("schemas"), REPO_ROOT / "schemas") for f in sorted(base.glob("*.yaml"))
    ]
    for file in files:
        if digest and _digest_file(file) == digest:
            return file
    for file in files:
        if _names(file) == (name, locale):
            return file
    raise ValueError(
        f"{manifest}: the dataset was made from schema '{name}' (locale {locale}), and no "
        "schemas/*.yaml here is that schema; pass --noise-schema PATH"
    )


def _names(file: Path) -> tuple[object, object]:
    """A schema file's top-level ``name`` and ``locale`` (None if it cannot be read)."""
    from memsim._yaml import safe_load

    try:
        data = safe_load(file.read_bytes(), str(file))
    except (OSError, ValueError):
        return None, None
    return (data.get("name"), data.get("locale")) if isinstance(data, dict) else (None, None)


def memdaily_noise_schema() -> Path:
    found = find_schema(MEMDAILY_NOISE_SCHEMA)
    if found is None:
        raise ValueError(
            f"MemDaily-format data is Chinese, so its noise comes from {MEMDAILY_NOISE_SCHEMA}, "
            "which does not exist here; pass --noise-schema PATH (an English schema gives "
            "English noise, which the results then say) or run with --noise 1"
        )
    return found
