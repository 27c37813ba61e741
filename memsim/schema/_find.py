"""Which schema file made a dataset: the one its manifest names (by sha256, else by name
and locale), looked up in ``schemas/`` of the working folder, then of memsim's tree."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[2]


def find_schema(relative: str) -> Path | None:
    """``relative`` in the working folder (returned as given), else in memsim's source tree."""
    if Path(relative).is_file():
        return Path(relative)
    if (REPO_ROOT / relative).is_file():
        return REPO_ROOT / relative
    return None


def schema_for_manifest(manifest: dict[str, Any], where: Path, hint: str = "--schema") -> Path:
    """The schema file a dataset manifest (read from ``where``) names; ``hint`` is the
    option that gives it by hand, named in the error."""
    try:
        schema = manifest["schema"]
        name, locale, digest = schema["name"], schema.get("locale"), schema.get("sha256")
    except (KeyError, TypeError) as e:
        raise ValueError(
            f"{where}: cannot tell which schema made this dataset ({e}); pass {hint} PATH"
        ) from e
    files = [
        f for base in (Path("schemas"), REPO_ROOT / "schemas") for f in sorted(base.glob("*.yaml"))
    ]
    for file in files:
        if digest and hashlib.sha256(file.read_bytes()).hexdigest() == digest:
            return file
    for file in files:
        if _names(file) == (name, locale):
            return file
    raise ValueError(
        f"{where}: the dataset was made from schema '{name}' (locale {locale}), and no "
        f"schemas/*.yaml here is that schema; pass {hint} PATH"
    )


def _names(file: Path) -> tuple[object, object]:
    """A schema file's top-level ``name`` and ``locale`` (None if it cannot be read)."""
    from memsim._yaml import safe_load

    try:
        data = safe_load(file.read_bytes(), str(file))
    except (OSError, ValueError):
        return None, None
    return (data.get("name"), data.get("locale")) if isinstance(data, dict) else (None, None)
