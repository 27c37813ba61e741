"""Everything a check may read besides the items: the profiles (ours, or MemDaily's
``graphs.json``), the schema and its locale, and the audit's options.

Profiles are read one file at a time and kept in a small cache, so an audit holds a
bounded number of them whatever the dataset's size.
"""

from __future__ import annotations

import contextlib
import hashlib
import re
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import orjson

from memsim._io import MANIFEST
from memsim.audit._source import AuditSource
from memsim.audit._types import AuditInputError, AuditItem
from memsim.profile import Profile, ProfileError, profile_file, read_profile
from memsim.schema import Schema, SchemaError, find_schema, load_schema
from memsim.verbalize import LocaleData, load_locale, schema_locale

PROFILE_CACHE = 512
PREFETCH = 128
"""Items whose profiles the audit reads ahead in one go (:meth:`ProfileStore.prefetch`);
below the cache's size, so that none is dropped before its item is checked. Measured on
`make dataset`'s 4,500 questions (one worker): profile reads 1.12 CPU s at 8, 1.01 at
32, 0.95 at 128 (1.8 read one by one)."""
_PROFILE_ID = re.compile(r"p\d{6,}")


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

    def __init__(self, folder: Path, schema: Schema | None = None):
        manifest = folder / MANIFEST
        try:
            data = orjson.loads(manifest.read_bytes())
        except (OSError, orjson.JSONDecodeError):
            raise AuditInputError(
                f"{folder}: no readable manifest.json; is this a memsim profiles folder?"
            ) from None
        if not isinstance(data, dict) or data.get("kind") != "profiles":
            raise AuditInputError(f"{manifest}: not a profiles manifest")
        self.folder = folder
        self.schema = schema
        """Each profile is checked against it as it is read (a wrong-typed value of an
        attribute no question reads is bad input too)."""
        self.manifest: dict[str, Any] = data
        self._cache: OrderedDict[str, Profile] = OrderedDict()
        self._last: tuple[str, Profile] | None = None
        """The profile got last: the checks ask for an item's profile one after another
        (about 11 times an item), and it is already the cache's most recent."""

    def get(self, profile_id: str) -> Profile:
        last = self._last
        if last is not None and last[0] == profile_id:
            return last[1]
        profile = self._get(profile_id)
        self._last = (profile_id, profile)
        return profile

    def prefetch(self, profile_ids: Iterable[str | None]) -> None:
        """Read the profiles of the next items at once, into the cache, before their
        checks ask for them one by one: read in a row (the same reader's code and
        buffers, not every check's in between), 4,500 profiles took about half the CPU.
        A profile that cannot be read is left out: the check that asks for it raises
        its error in its turn, as without the prefetch. Reading order changes nothing
        read: a profile file reads the same whenever it is read."""
        for profile_id in profile_ids:
            if profile_id and profile_id not in self._cache:
                # whatever fails here fails again when a check asks, where it is
                # reported as before (bad input, or that check's crash)
                with contextlib.suppress(Exception):
                    self._get(profile_id)

    def _get(self, profile_id: str) -> Profile:
        hit = self._cache.get(profile_id)
        if hit is not None:
            self._cache.move_to_end(profile_id)
            return hit
        if not _PROFILE_ID.fullmatch(profile_id):
            raise AuditInputError(f"profile id {profile_id!r} is not a memsim profile id (p000123)")
        path = self.folder / profile_file(profile_id)
        try:
            profile = read_profile(path, self.schema)
        except FileNotFoundError:
            raise AuditInputError(f"{path}: missing (the dataset names this profile)") from None
        except ProfileError as exc:
            raise AuditInputError(str(exc)) from None
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
            return _daily_life_locale(str(code))
        except ValueError:
            return None

    @cached_property
    def net(self) -> Any:
        from memsim.graph import BRNet

        assert self.schema is not None
        return BRNet(self.schema)

    @cached_property
    def generation_seed(self) -> int | None:
        """The seed the dataset was generated with (its manifest's), read once: the
        message checks ask it of every noise message."""
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
        if source.format != "native":
            # a profiles folder is matched to records by their profile ids and checked
            # through their provenance: only native records have them, so every check
            # that needs the profiles would be skipped and a wrong answer would pass
            raise AuditInputError(
                f"{graphs}: a memsim profiles folder only serves native data (dataset.jsonl, "
                f"whose records name their profile and carry provenance), not {source.format}; "
                "audit the dataset folder itself, or give MemDaily's graphs.json "
                "(`memsim export DATASET --to memdaily` writes one beside memdaily.json)"
            )
        ctx.profiles = ProfileStore(graphs, ctx.schema)
        graphs = None
    elif graphs is None and source.format == "memdaily":
        graphs = source.graphs
    if graphs is not None:
        ctx.graphs = _load_graphs(graphs)
    _check_agreement(ctx, Path(schema) if schema is not None else None)
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


def _check_agreement(ctx: AuditContext, schema_path: Path | None) -> None:
    """Profiles, schema and dataset must come from the same schema file, and the
    profiles from the seed the dataset's profiles were sampled with."""
    made = ctx.source.manifest
    wanted = _get(made, "schema", "name")
    digest = _get(made, "schema", "sha256")
    if ctx.profiles is not None:
        folder, have = ctx.profiles.folder, ctx.profiles.manifest
        if wanted and _get(have, "schema", "name") not in (None, wanted):
            raise AuditInputError(
                f"{folder}: profiles of schema '{_get(have, 'schema', 'name')}', "
                f"the dataset is '{wanted}'"
            )
        if digest and _get(have, "schema", "sha256") not in (None, digest):
            raise AuditInputError(
                f"{folder}: profiles sampled from another version of schema '{wanted}' "
                f"(sha256 {str(_get(have, 'schema', 'sha256'))[:12]}..., the dataset's is "
                f"{digest[:12]}...)"
            )
        seed = _get(made, "profiles", "seed")
        if seed is not None and have.get("seed") not in (None, seed):
            raise AuditInputError(
                f"{folder}: profiles sampled with seed {have.get('seed')}, the dataset was "
                f"generated from profiles of seed {seed}"
            )
    if ctx.schema is not None and wanted and ctx.schema.name != wanted:
        raise AuditInputError(
            f"{schema_path}: --schema is '{ctx.schema.name}', the dataset is '{wanted}'"
        )
    if schema_path is not None and digest:
        have_digest = hashlib.sha256(schema_path.read_bytes()).hexdigest()
        if have_digest != digest:
            raise AuditInputError(
                f"{schema_path}: not the schema file the dataset was generated from "
                f"(sha256 {have_digest[:12]}..., the manifest says {digest[:12]}...)"
            )


def _get(data: dict[str, Any], *keys: str) -> Any:
    for key in keys:
        if not isinstance(data, dict):
            return None
        data = data.get(key)  # type: ignore[assignment]
    return data


def _daily_life_locale(code: str) -> LocaleData:
    """The locale data of a dataset read without its schema (a MemDaily-format folder
    alone): MemDaily is a daily-life benchmark, so the bundled daily-life schema's
    wording of its attributes ("Where is my peer's workplace?" names the work city) is
    merged over the language's, as that schema's datasets have it; memsim's own locale
    data names no attribute. The language's alone where no such schema is bundled."""
    path = find_schema(f"schemas/daily_life.{code}.yaml")
    if path is None:
        return load_locale(code)
    try:
        return schema_locale(load_schema(path))
    except SchemaError:
        return load_locale(code)


__all__ = ["NEEDS", "AuditContext", "AuditOptions", "ProfileStore", "load_context"]
