"""File output that never leaves half-written results behind."""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import orjson

MANIFEST = "manifest.json"
DATASET_FILE = "dataset.jsonl"
"""A native dataset: one record per line (:mod:`memsim.formats.native`)."""
MEMDAILY_FILE = "memdaily.json"
"""MemDaily's merged file (:mod:`memsim.formats.memdaily`)."""
GRAPHS_FILE = "graphs.json"
"""MemDaily's ground truth: its sampled profiles, in MemDaily's layout."""


def dumps(obj: Any) -> bytes:
    """Canonical JSON: sorted keys, two-space indent, trailing newline, UTF-8."""
    return orjson.dumps(obj, option=orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS) + b"\n"


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def usual_mode(directory: bool = False) -> int:
    """The permissions open() or mkdir() would give: temp files and folders are made
    private (0600/0700), and what memsim publishes should not stay so."""
    return (0o777 if directory else 0o666) & ~_umask()


class OutputWriteError(OSError):
    """An output cannot be written (a read-only folder, a full disk); nothing was left
    half-written. The message names the path and the reason."""


def cannot_write(out: Path, exc: OSError) -> OutputWriteError:
    where = exc.filename or out
    return OutputWriteError(f"{where}: cannot write {out}: {exc.strerror or exc}")


def atomic_write_bytes(path: str | Path, data: bytes) -> None:
    """Write a file through a temp file in the same folder and rename it into place."""
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as exc:
        raise cannot_write(path, exc) from None
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.chmod(tmp, usual_mode())
        os.replace(tmp, path)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise cannot_write(path, exc) from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def atomic_write_text(path: str | Path, text: str) -> None:
    atomic_write_bytes(path, text.encode("utf-8"))


class OutputExistsError(FileExistsError):
    """The output folder holds files memsim did not write; nothing was touched."""


@contextmanager
def atomic_output_dir(out: str | Path, kind: str) -> Iterator[Path]:
    """Yield a fresh staging folder; on success it replaces ``out`` in one rename.

    ``out`` may already exist only if it is empty or an earlier output of the same
    ``kind`` (its manifest says so): a folder of the user's own files is never
    replaced. On any error the staging folder is removed and ``out`` is untouched; a
    folder that cannot be written raises :class:`OutputWriteError` before any work.
    """
    out = Path(out)
    _check_replaceable(out, kind)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        _remove_stale(out)
        prefix = f".{out.name}.{os.getpid()}."
        stage = Path(tempfile.mkdtemp(prefix=prefix, suffix=".partial", dir=out.parent))
    except OSError as exc:
        raise cannot_write(out, exc) from None
    try:
        os.chmod(stage, usual_mode(directory=True))
        yield stage
        _publish(stage, out)
    except BaseException:
        shutil.rmtree(stage, ignore_errors=True)
        raise


def check_writable(out: str | Path, kind: str) -> None:
    """Fail now, before any work, if :func:`atomic_output_dir` would fail at the end:
    ``out`` holds files of another kind, or its folder cannot be written."""
    out = Path(out)
    _check_replaceable(out, kind)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        Path(tempfile.mkdtemp(prefix=f".{out.name}.", suffix=".probe", dir=out.parent)).rmdir()
    except OSError as exc:
        raise cannot_write(out, exc) from None


def _publish(stage: Path, out: Path) -> None:
    try:
        old = None
        if out.exists():
            old = out.with_name(f".{out.name}.{os.getpid()}.old")
            os.replace(out, old)
        os.replace(stage, out)
    except OSError as exc:
        if old is not None and not out.exists():
            os.replace(old, out)  # put the earlier output back
        raise cannot_write(out, exc) from None
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


def _remove_stale(out: Path) -> None:
    """Remove the staging (and swapped-out) folders that runs killed outright (SIGKILL,
    power loss) left beside ``out``; their names carry the pid of the run that made them,
    so a folder of a run that is still going is left alone."""
    pattern = re.compile(rf"^\.{re.escape(out.name)}\.(\d+)\.(?:.*\.partial|old)$")
    for path in out.parent.iterdir():
        m = pattern.match(path.name)
        if m and path.is_dir() and not _alive(int(m.group(1))):
            shutil.rmtree(path, ignore_errors=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's process
    return True


def _check_replaceable(out: Path, kind: str) -> None:
    if not out.exists():
        return
    if not out.is_dir():
        raise OutputExistsError(f"{out}: exists and is not a folder")
    if not any(out.iterdir()):
        return
    manifest = out / MANIFEST
    try:
        found = orjson.loads(manifest.read_bytes()).get("kind")
    except (OSError, orjson.JSONDecodeError, AttributeError):
        found = None
    if found != kind:
        raise OutputExistsError(
            f"{out}: folder exists and is not a memsim {kind} output; "
            "choose another --out or remove it yourself"
        )
