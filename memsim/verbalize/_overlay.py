"""A schema's own wording, merged over its language's locale data.

A schema of another domain says its own chit-chat, noisy prefaces, question wording,
comparison words, Faker locale and LLM rewrite prompts without forking the language
file: ``locale_overlay`` holds, per locale code, a partial locale file (inline, or in a
YAML file named relative to the schema). Search order for what a dataset uses:

1. the schema's ``locale_overlay`` for its ``locale`` (a mapping merges key by key into
   the mapping below it; a list or a string replaces what it overrides);
2. ``<locale>.yaml`` in the folders of ``MEMSIM_LOCALE_PATH``, in order, else the
   bundled ``memsim/verbalize/locales/<locale>.yaml`` (the first found is used).

Guarantees: the same schema gives the same merged data; an overlay that does not map
onto :class:`LocaleData` is an error naming the schema (or overlay file) and the key.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from memsim._yaml import safe_load
from memsim.schema import Schema, yaml_position
from memsim.verbalize._locale import LocaleData, load_locale, locale_dirs


def merge(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    """``over`` merged into ``base``: mappings key by key, anything else replaced."""
    out = dict(base)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = merge(out[key], value)
        else:
            out[key] = value
    return out


def overlay_of(schema: Schema) -> tuple[dict[str, Any], str]:
    """The schema's overlays per locale code and where they were written (for errors)."""
    return _overlays(schema.locale_overlay, schema.source, schema.name)


def _overlays(raw: Any, source: str | None, name: str) -> tuple[dict[str, Any], str]:
    where = source or f"schema {name}"
    if raw is None:
        return {}, where
    if isinstance(raw, str):
        path = (Path(source).parent if source else Path.cwd()) / raw
        try:
            raw = _read_overlay(str(path), _stamp(path))
        except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
            raise ValueError(f"{where}: locale_overlay {str(path)!r}: cannot read: {exc}") from None
        where = str(path)
        if not isinstance(raw, dict) or not all(isinstance(v, dict) for v in raw.values()):
            raise ValueError(f"{where}: a locale overlay maps locale codes to locale data")
    return dict(raw), where


def _overlay_path(schema: Schema, raw: str) -> Path:
    return (Path(schema.source).parent if schema.source else Path.cwd()) / raw


def _stamp(path: Path) -> tuple[int, int, int] | None:
    """What tells one version of a file from another (None: it cannot be read)."""
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_ino, st.st_mtime_ns, st.st_size


@lru_cache(maxsize=16)
def _read_overlay(path: str, _stamp: tuple[int, int, int] | None) -> Any:
    """An overlay file parsed, once per version of it (``_stamp``): a generator asks
    for its Faker locale once per trajectory, and parsing the YAML each time took a
    third of `make dataset`'s generation. Callers only read what it returns."""
    return yaml.safe_load(Path(path).read_text(encoding="utf-8"))


def schema_locale(schema: Schema) -> LocaleData:
    """The locale data a schema's dataset is written in: its language's, with the
    schema's overlay for that language merged over it. Remembered per schema object
    and version of its overlay file (and of the locale search path), so an edited
    overlay file is read again."""
    raw = schema.locale_overlay
    stamp = _stamp(_overlay_path(schema, raw)) if isinstance(raw, str) else None
    key = ("schema_locale", stamp, tuple(str(d) for d in locale_dirs()))
    found = schema.memo.get(key)
    if found is None:
        found = schema.memo[key] = _schema_locale(schema)
    assert isinstance(found, LocaleData)
    return found


def _schema_locale(schema: Schema) -> LocaleData:
    return _locale_of(schema.locale, schema.locale_overlay, schema.source, schema.name)


def _locale_of(code: str, raw: Any, source: str | None, name: str) -> LocaleData:
    overlays, where = _overlays(raw, source, name)
    overlay = overlays.get(code)
    if not overlay:
        return load_locale(code)
    dirs = tuple(str(d) for d in locale_dirs())  # the base file depends on them
    # where the overlay's keys are written: under `locale_overlay` in the schema, or at
    # the top of the overlay file
    inline = not isinstance(raw, str)
    prefix = ("locale_overlay", code) if inline else (code,)
    text = json.dumps(overlay, sort_keys=True, default=str)
    return _merged(code, dirs, text, where, prefix)


def overlay_problems(path: str) -> list[str]:
    """The problems of the locale overlay of the schema file at ``path``, read from its
    YAML as written (``locale``, ``locale_overlay``): for a schema that does not load,
    so that `memsim schema validate` reports them beside the schema's own rather than
    once those are fixed. Empty when the overlay is fine or cannot be told apart (no
    readable file, no locale code: the schema's own problems say so)."""
    try:
        raw = safe_load(Path(path).read_text(encoding="utf-8"), path)
    except (OSError, UnicodeDecodeError, ValueError):
        return []
    if not isinstance(raw, dict) or not isinstance(raw.get("locale"), str):
        return []
    overlay = raw.get("locale_overlay")
    if not isinstance(overlay, dict | str):
        return []  # a wrong type is the schema's own problem
    try:
        _locale_of(raw["locale"], overlay, path, path)
    except ValueError as exc:
        if str(exc).startswith("no locale data"):
            return []  # an unknown language: the schema's check says so
        return str(exc).splitlines()
    return []


@lru_cache(maxsize=16)
def _merged(
    code: str, _dirs: tuple[str, ...], overlay: str, where: str, prefix: tuple[str, ...]
) -> LocaleData:
    base = load_locale(code)
    data = merge(base.model_dump(), json.loads(overlay))
    try:
        return LocaleData.model_validate(data)
    except ValidationError as exc:
        raise ValueError("\n".join(_located(exc, where, prefix))) from None


def _located(exc: ValidationError, where: str, prefix: tuple[str, ...]) -> list[str]:
    """Each problem of a merged overlay as ``file:line:col: locale_overlay 'code': key:
    message``, at the overlay key it comes from."""
    out = []
    for err in exc.errors():
        loc = tuple(err["loc"])
        line, col = yaml_position(where, (*prefix, *loc))
        key = ".".join(str(k) for k in loc) or "(top)"
        out.append(f"{where}:{line}:{col}: locale_overlay '{prefix[-1]}': {key}: {err['msg']}")
    return out


def faker_locale(schema: Schema) -> str:
    """The Faker locale of the schema's generated names (its locale data's ``faker``)."""
    return schema_locale(schema).faker or schema.locale


def name_format(schema: Schema) -> str:
    """How the schema's language writes a generated full name (its locale data's)."""
    return schema_locale(schema).name_format


__all__ = ["faker_locale", "merge", "name_format", "overlay_of", "schema_locale"]
