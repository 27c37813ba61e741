"""MemDaily's ground truth for memsim data: ``graphs.json``, one profile per trajectory.

MemDaily's own ``graphs.json`` is a list of profiles, each ``{"gid", "user_profile":
{label: value}, "relation_profiles": [...], "colleague_profiles": [...],
"work_events": [...], "rest_events": [...], "items": [...], "places": [...]}``. memsim
writes the same layout, with the schema's entity kinds mapped onto those keys (a kind
MemDaily does not have is written under ``<kind>_profiles``), labels in the data's
language, and each value rendered as answers and options write it, as it stands when
the question is asked. Entry ``gid`` is the profile of the ``gid``-th trajectory of
``memdaily.json`` in file order (the export's manifest says so: ``graphs_by:
position``), which is what lets the audit re-derive answers from the folder alone.
"""

from __future__ import annotations

import datetime as dt
from typing import IO, Any

import orjson

from memsim.formats import ExportInfo
from memsim.profile import Entity, Profile, profile_file
from memsim.records import Record
from memsim.schema import Schema, load_schema
from memsim.verbalize import LocaleData, load_locale, render_value, value_at

MEMDAILY_KEYS = {
    "user": "user_profile",
    "relative": "relation_profiles",
    "colleague": "colleague_profiles",
    "work_event": "work_events",
    "leisure_event": "rest_events",
    "item": "items",
    "place": "places",
}
GRAPHS_BY_POSITION = "position"
"""The manifest's ``graphs_by`` value: entry i is the profile of trajectory i."""


class GraphWriter:
    """Streams ``[entry, ...]``: one MemDaily-layout profile per record, in order."""

    def __init__(self, info: ExportInfo):
        if info.profiles is None or info.schema is None:
            raise ValueError("graphs.json needs the profiles folder and the schema file")
        self.profiles = info.profiles
        self.schema: Schema = load_schema(info.schema)
        self.loc: LocaleData = load_locale(self.schema.locale)
        self.count = 0

    def add(self, record: Record, out: IO[bytes]) -> None:
        if record.profile_id is None:
            raise ValueError(f"record {record.tid}: names no profile; graphs.json needs it")
        path = self.profiles / profile_file(record.profile_id)
        try:
            profile = Profile.from_json(orjson.loads(path.read_bytes()))
        except FileNotFoundError:
            raise FileNotFoundError(f"{path}: missing (the dataset names this profile)") from None
        when = dt.datetime.fromisoformat(record.qa.time)
        out.write(b"[\n  " if self.count == 0 else b",\n  ")
        out.write(orjson.dumps(self.entry(profile, when)))
        self.count += 1

    def close(self, out: IO[bytes]) -> None:
        out.write(b"\n]\n" if self.count else b"[]\n")

    def entry(self, profile: Profile, when: dt.datetime) -> dict[str, Any]:
        out: dict[str, Any] = {"gid": self.count}
        for entity in profile.entities:
            key = MEMDAILY_KEYS.get(entity.kind, f"{entity.kind}_profiles")
            values = self.values(entity, when)
            if key == "user_profile":
                out[key] = values
            else:
                out.setdefault(key, []).append(values)
        return out

    def values(self, entity: Entity, when: dt.datetime) -> dict[str, str]:
        attributes = self.schema.attributes_of(entity.kind)
        out = {}
        for name, fact in entity.facts.items():
            attribute = attributes.get(name)
            label = attribute.label.get(self.loc.code, name) if attribute else name
            text = render_value(fact, value_at(fact, when), self.loc, None, relative=False)
            unit = attribute.unit if attribute else None
            out[label] = self.loc.with_unit_of(text, unit)
        return out


__all__ = ["GRAPHS_BY_POSITION", "MEMDAILY_KEYS", "GraphWriter"]
