"""Everything a check may read besides the items: the profiles (ours, or MemDaily's
``graphs.json``), the schema and its locale, and the audit's options.

Profiles are read one file at a time and kept in a small cache, so an audit holds a
bounded number of them whatever the dataset's size.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import orjson

from memsim.audit._source import AuditSource
from memsim.audit._types import AuditInputError, AuditItem
from memsim.profile import Profile
from memsim.schema import Schema, SchemaError, load_schema
from memsim.verbalize import LocaleData, load_locale, schema_locale

PROFILE_CACHE = 512


@dataclass(frozen=True)
class AuditOptions:
    max_findings: int = 500
    """Findings kept per check in the report (all are counted)."""
    shortcut_margin: float = 0.10
    """A shortcut more than this far above chance is a problem..."""
    shortcut_z: float = 3.0
    """...and an error on our own data when it is also this many standard errors above
    chance (smaller samples only warn: 10 points on 60 items can be luck)..."""
    shortcut_min_n: int = 30
    """...and is measured on at least this many items (or pairs): a standard error from
    2 items is no evidence, whatever z it gives."""
    prior_sample: int = 1000
    """Profiles sampled for the empirical option prior of non-discrete answers."""
    classifier_items: int = 3000
    """Trajectories kept (seeded reservoir) for the format classifier."""
    seed: int = 0
    """Seed of the audit's own draws (reservoirs, the prior sample)."""


class ProfileStore:
    """A memsim profiles folder, read lazily by profile id."""

    def __init__(self, folder: Path):
        manifest = folder / "manifest.json"
        try:
            data = orjson.loads(manifest.read_bytes())
        except (OSError, orjson.JSONDecodeError):
            raise AuditInputError(
                f"{folder}: no readable manifest.json; is this a memsim profiles folder?"
            ) from None
        if not isinstance(data, dict) or data.get("kind") != "profiles":
            raise AuditInputError(f"{manifest}: not a profiles manifest")
        self.folder = folder
        self.manifest: dict[str, Any] = data
        self._cache: OrderedDict[str, Profile] = OrderedDict()

    def get(self, profile_id: str) -> Profile:
        hit = self._cache.get(profile_id)
        if hit is not None:
            self._cache.move_to_end(profile_id)
            return hit
        path = self.folder / f"{profile_id}.json"
        try:
            profile = Profile.from_json(orjson.loads(path.read_bytes()))
        except FileNotFoundError:
            raise AuditInputError(f"{path}: missing (the dataset names this profile)") from None
        except (orjson.JSONDecodeError, KeyError, TypeError, ValueError) as exc:
            raise AuditInputError(f"{path}: not a valid profile: {exc}") from None
        self._cache[profile_id] = profile
        if len(self._cache) > PROFILE_CACHE:
            self._cache.popitem(last=False)
        return profile


@dataclass
class AuditContext:
    source: AuditSource
    options: AuditOptions = field(default_factory=AuditOptions)
    schema: Schema | None = None
    profiles: ProfileStore | None = None
    graphs: list[dict[str, Any]] | None = None
    """MemDaily's sampled profiles (graphs.json), in file order."""
    shared: dict[str, Any] = field(default_factory=dict)
    """What checks compute once and share (the re-derivation of the current item)."""

    @property
    def own(self) -> bool:
        return self.source.own

    @cached_property
    def locale(self) -> LocaleData | None:
        code = (
            self.schema.locale
            if self.schema
            else self.source.manifest.get("schema", {}).get("locale")
        )
        if not code:
            return None
        try:
            if self.schema:
                return schema_locale(self.schema)  # with the schema's own wording
            return load_locale(str(code))
        except ValueError:
            return None

    @cached_property
    def net(self) -> Any:
        from memsim.graph import BRNet

        assert self.schema is not None
        return BRNet(self.schema)

    @property
    def generation_seed(self) -> int | None:
        seed = self.source.manifest.get("options", {}).get("seed")
        return seed if isinstance(seed, int) else None

    def profile(self, item: AuditItem) -> Profile | None:
        if self.profiles is None or not item.profile_id:
            return None
        return self.profiles.get(item.profile_id)

    def has(self, need: str) -> bool:
        """Whether the audit has what a check needs (see :data:`NEEDS`)."""
        if need == "profiles":
            return self.profiles is not None
        if need == "schema":
            return self.schema is not None and self.locale is not None
        if need == "provenance":
            return self.source.format == "native"
        if need == "graphs":
            return self.graphs is not None
        if need == "own":
            return self.own
        raise ValueError(f"unknown need {need!r}")


NEEDS = {
    "profiles": "needs --profiles (a memsim profiles folder)",
    "schema": "needs --schema (labels, units, orders and the locale)",
    "provenance": "needs our native records (dataset.jsonl: provenance, roles, fact ids)",
    "graphs": "needs MemDaily's graphs.json (--profiles FILE, or beside the files)",
    "own": "applies to memsim's own data only",
}


def load_context(
    source: AuditSource,
    profiles: str | Path | None = None,
    schema: str | Path | None = None,
    options: AuditOptions | None = None,
) -> AuditContext:
    """The context of an audit; bad paths and mismatched inputs raise AuditInputError."""
    ctx = AuditContext(source, options or AuditOptions())
    if schema is not None:
        try:
            ctx.schema = load_schema(schema)
        except SchemaError as exc:
            raise AuditInputError("\n".join(exc.messages)) from None
        except OSError as exc:
            raise AuditInputError(f"{schema}: cannot read schema: {exc}") from None
    graphs = Path(profiles) if profiles is not None else None
    if graphs is not None and graphs.is_dir():
        ctx.profiles = ProfileStore(graphs)
        graphs = None
    elif graphs is None and source.format == "memdaily":
        graphs = source.graphs
    if graphs is not None:
        ctx.graphs = _load_graphs(graphs)
    _check_agreement(ctx)
    return ctx


def _load_graphs(path: Path) -> list[dict[str, Any]]:
    if not path.is_file():
        raise AuditInputError(f"{path}: does not exist")
    try:
        data = orjson.loads(path.read_bytes())
    except orjson.JSONDecodeError as exc:
        raise AuditInputError(f"{path}: not valid JSON: {exc}") from None
    if not isinstance(data, list) or not all(
        isinstance(g, dict) and "user_profile" in g for g in data
    ):
        raise AuditInputError(
            f"{path}: expected MemDaily's graphs.json, a list of profiles with 'user_profile'"
        )
    return data


def _check_agreement(ctx: AuditContext) -> None:
    """Profiles, schema and dataset must come from the same schema."""
    wanted = ctx.source.manifest.get("schema", {}).get("name")
    if ctx.profiles is not None:
        have = ctx.profiles.manifest.get("schema", {}).get("name")
        if wanted and have and wanted != have:
            raise AuditInputError(
                f"{ctx.profiles.folder}: profiles of schema '{have}', the dataset is '{wanted}'"
            )
    if ctx.schema is not None and wanted and ctx.schema.name != wanted:
        raise AuditInputError(f"--schema is '{ctx.schema.name}', the dataset is '{wanted}'")


__all__ = ["NEEDS", "AuditContext", "AuditOptions", "ProfileStore", "load_context"]
