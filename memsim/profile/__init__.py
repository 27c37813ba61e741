"""Stage 3: profiles (sampled ground truth) and their JSON files."""

from memsim.profile._check import ProfileError, profile_problems, read_profile
from memsim.profile._store import (
    PROFILES_KIND,
    check_profiles,
    load_profile,
    profile_bytes,
    profile_file,
    read_manifest,
    read_profiles,
    schema_manifest,
    write_profiles,
)
from memsim.profile._types import PROFILE_FORMAT, ChangeEvent, Entity, Fact, Profile, ValueStep

__all__ = [
    "PROFILES_KIND",
    "PROFILE_FORMAT",
    "ChangeEvent",
    "Entity",
    "Fact",
    "Profile",
    "ProfileError",
    "ValueStep",
    "check_profiles",
    "load_profile",
    "profile_bytes",
    "profile_file",
    "profile_problems",
    "read_manifest",
    "read_profile",
    "read_profiles",
    "schema_manifest",
    "write_profiles",
]
