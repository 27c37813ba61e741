"""Benchmark input: any dataset in a registered format, read through that format's one
reader (:mod:`memsim.formats`).

``PATH`` may be a native dataset folder (holding ``dataset.jsonl``) or the
``dataset.jsonl`` itself, a merged MemDaily ``memdaily.json``, a folder of MemDaily
per-type files ``NN_<type>_<scenario>.json``, or a file of another registered format.
Every format is read whole, once (a native file was read twice, once for the
selection and once to run, which cost a second parse of every record: the benchmark's
workers need every record in memory anyway). Items flagged as failed generations
(MemDaily's markers) are left out, as the release's merged file does, and counted in
the manifest.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import orjson

from memsim._io import MANIFEST
from memsim.formats import FORMATS, detect_format
from memsim.records import Record
from memsim.schema import find_schema, schema_for_manifest

Format = str
"""``auto`` or a name in :data:`memsim.formats.FORMATS`."""
MEMDAILY_NOISE_SCHEMA = "schemas/daily_life.zh.yaml"
"""The noise schema for MemDaily-format input (Chinese, like MemDaily), looked up in
the working folder and then in memsim's source tree."""


@dataclass
class Source:
    path: Path
    format: str
    digest: str
    selected: list[int]
    """Indices (in file order) of the trajectories benchmarked."""
    total: int
    dropped_flagged: int = 0
    _items: list[Record] | None = field(default=None, repr=False)

    def items(self) -> Iterator[tuple[int, Record]]:
        """(index in the file, record) for every selected trajectory, in file order."""
        wanted = set(self.selected)
        if self._items is not None:
            for i in self.selected:
                yield i, self._items[i]
            return
        for i, item in enumerate(FORMATS.get(self.format).read(self.path)):
            if i in wanted:
                yield i, item

    def sample_times(self) -> list[str]:
        for _, item in self.items():
            return [t.time for t in item.turns] + [item.qa.time]
        return []


def open_source(
    path: str | Path, fmt: Format = "auto", limit: int | None = None, seed: int = 0
) -> Source:
    """Find out what ``path`` holds and select the trajectories to run (see ``--limit``)."""
    path = Path(path)
    name = detect_format(path, None if fmt == "auto" else fmt)
    if name == "native":
        from memsim.formats.native import data_file

        native = data_file(path)
        every = list(FORMATS.get(name).read(native))
        types = [record.type for record in every]
        digest = _digest_file(native)
        return Source(
            native, "native", digest, _select(types, limit, seed), len(types), _items=every
        )
    records = list(FORMATS.get(name).read(path))
    kept = [r for r in records if not r.flags]
    types = [r.type for r in kept]
    return Source(
        path,
        name,
        _digest_path(path),
        _select(types, limit, seed),
        len(kept),
        len(records) - len(kept),
        kept,
    )


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


def native_noise_schema(source: Source) -> Path:
    """The schema a native dataset was generated from, named by its manifest: the file in
    ``schemas/`` (working folder, then memsim's source tree) with the manifest's sha256,
    else one whose ``name`` and ``locale`` match."""
    manifest = source.path.parent / MANIFEST
    try:
        data = orjson.loads(manifest.read_bytes())
    except (OSError, orjson.JSONDecodeError) as e:
        raise ValueError(
            f"{manifest}: cannot tell which schema made this dataset ({e}); "
            "pass --noise-schema PATH"
        ) from e
    return schema_for_manifest(data, manifest, "--noise-schema")


def memdaily_noise_schema() -> Path:
    found = find_schema(MEMDAILY_NOISE_SCHEMA)
    if found is None:
        raise ValueError(
            f"MemDaily-format data is Chinese, so its noise comes from {MEMDAILY_NOISE_SCHEMA}, "
            "which does not exist here; pass --noise-schema PATH (an English schema gives "
            "English noise, which the results then say) or run with --noise 1"
        )
    return found
