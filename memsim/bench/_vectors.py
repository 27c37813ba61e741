"""An on-disk cache of text vectors, keyed by model and text hash, shared by runs.

A benchmark embeds the same texts again and again: each noise level of a trajectory
holds its real messages, the noise pool repeats across trajectories, and a second run
(another reader, another seed of the same data) meets every text again. The run's
in-memory cache already embeds a text once per run; this one keeps the vectors across
runs and processes, so each distinct text is embedded once, ever, per model.

Layout: ``<root>/<model key>/seg-<digest>.npz``, each segment a set of (sha256 of
kind + text, float32 vector) written whole with a temp file and a rename. A reader
lists the segments and loads those it finds: a segment is complete or absent, never
half-written, so any number of runs may read and write the folder at once; a segment
that vanishes under a reader (a compaction by another run) or cannot be read is only a
cache miss. The vectors are those the model gives (the engines are deterministic), so
a run's results are byte-identical with the cache cold, warm or off.
"""

from __future__ import annotations

import hashlib
import io
import os
import zipfile
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from memsim._io import atomic_write_bytes

ENV = "MEMSIM_VECTOR_CACHE"
FLUSH_EVERY = 4096
"""New vectors held in memory before they are written as a segment."""
COMPACT_AT = 32
"""Segments in a model's folder beyond which a run joins them into one."""
KEY_BYTES = 16
"""sha256 truncated to 128 bits: no collision among any realistic number of texts."""


def default_vector_cache() -> Path:
    """``$MEMSIM_VECTOR_CACHE``, else ``$XDG_CACHE_HOME/memsim/vectors`` (~/.cache)."""
    if os.environ.get(ENV):
        return Path(os.environ[ENV])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "memsim" / "vectors"


def text_key(kind: str, text: str) -> bytes:
    return hashlib.sha256(f"{kind}\0{text}".encode()).digest()[:KEY_BYTES]


def _slug(model_key: str) -> str:
    safe = "".join(c if c.isalnum() or c in "-_." else "-" for c in model_key)
    return f"{safe[:80]}-{hashlib.sha256(model_key.encode()).hexdigest()[:12]}"


class VectorCache:
    """Vectors of one model by text, backed by ``root``; :meth:`flush` on the way out."""

    def __init__(self, root: str | Path, model_key: str) -> None:
        self.folder = Path(root) / _slug(model_key)
        self._known: dict[bytes, NDArray[np.float32]] = {}
        self._new: dict[bytes, NDArray[np.float32]] = {}
        self.hits = 0
        self.loaded = self._load()

    def _segments(self) -> list[Path]:
        try:
            return sorted(self.folder.glob("seg-*.npz"))
        except OSError:
            return []

    def _load(self) -> int:
        for path in self._segments():
            for key, vec in _read_segment(path):
                self._known.setdefault(key, vec)
        return len(self._known)

    def get(self, kind: str, text: str) -> NDArray[np.float32] | None:
        key = text_key(kind, text)
        vec = self._known.get(key)
        if vec is None:
            vec = self._new.get(key)
        if vec is not None:
            self.hits += 1
        return vec

    def has(self, kind: str, text: str) -> bool:
        """Whether the vector is here (not counted as a hit: :meth:`get` will be)."""
        key = text_key(kind, text)
        return key in self._known or key in self._new

    def put(self, kind: str, text: str, vec: NDArray[np.float32]) -> None:
        key = text_key(kind, text)
        if key in self._known or key in self._new:
            return
        self._new[key] = np.asarray(vec, dtype=np.float32)
        if len(self._new) >= FLUSH_EVERY:
            self.flush()

    def flush(self) -> None:
        """Write the new vectors as one segment (nothing if there are none); a folder
        that cannot be written only costs the next run the same embedding work."""
        if not self._new:
            return
        new, self._new = self._new, {}
        self._known.update(new)
        try:
            _write_segment(self.folder, new)
            if len(self._segments()) > COMPACT_AT:
                self._compact()
        except OSError:
            pass

    def _compact(self) -> None:
        """Join every segment into one: written first, then the old ones removed, so a
        concurrent reader finds each vector in one file or the other."""
        olds = self._segments()
        merged: dict[bytes, NDArray[np.float32]] = {}
        for path in olds:
            merged.update(_read_segment(path))
        written = _write_segment(self.folder, merged)
        for path in olds:
            if path != written:
                path.unlink(missing_ok=True)


def _write_segment(folder: Path, vectors: dict[bytes, NDArray[np.float32]]) -> Path:
    keys = sorted(vectors)
    key_array = np.frombuffer(b"".join(keys), dtype=np.uint8).reshape(len(keys), KEY_BYTES)
    matrix = np.vstack([vectors[k] for k in keys]).astype(np.float32)
    buffer = io.BytesIO()
    np.savez(buffer, keys=key_array, vectors=matrix)
    data = buffer.getvalue()
    # named by content: two runs writing the same vectors write the same file
    path = folder / f"seg-{hashlib.sha256(data).hexdigest()[:24]}.npz"
    if not path.exists():
        atomic_write_bytes(path, data)
    return path


def _read_segment(path: Path) -> list[tuple[bytes, NDArray[np.float32]]]:
    try:
        with np.load(path, allow_pickle=False) as data:
            keys, matrix = data["keys"], data["vectors"]
    except (OSError, ValueError, KeyError, zipfile.BadZipFile):
        return []  # removed by a compaction, or damaged: a miss, not an error
    if keys.ndim != 2 or keys.shape[1] != KEY_BYTES or len(keys) != len(matrix):
        return []
    return [(bytes(k), matrix[i]) for i, k in enumerate(keys)]


__all__ = ["ENV", "VectorCache", "default_vector_cache", "text_key"]
