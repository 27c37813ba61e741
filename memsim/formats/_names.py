"""The user's name of a profile, for formats that name their speakers (LoCoMo)."""

from __future__ import annotations

from pathlib import Path

import orjson

USER_KIND, NAME_ATTRIBUTE = "user", "name"


class UserNames:
    """``get(profile_id)``: the ``name`` fact of the profile's ``user`` entity, or None
    when the profiles folder is unknown, the file is absent or unreadable, or the schema
    has no such fact (a missing name only changes a speaker label, so it is no error)."""

    def __init__(self, profiles: Path | None) -> None:
        self.profiles = profiles
        self._cache: dict[str, str | None] = {}

    def get(self, profile_id: str | None) -> str | None:
        if self.profiles is None or profile_id is None:
            return None
        if profile_id not in self._cache:
            self._cache[profile_id] = self._read(self.profiles / f"{profile_id}.json")
        return self._cache[profile_id]

    @staticmethod
    def _read(path: Path) -> str | None:
        try:
            profile = orjson.loads(path.read_bytes())
            for entity in profile["entities"]:
                if entity["kind"] == USER_KIND:
                    for fact in entity["facts"]:
                        if fact["attribute"] == NAME_ATTRIBUTE and isinstance(fact["value"], str):
                            return str(fact["value"])
        except (OSError, orjson.JSONDecodeError, KeyError, TypeError):
            return None
        return None
