"""Stage 2b: vectorised, per-profile-seeded ancestral sampling of the BRNet."""

from memsim.sampling import _derived, _email  # noqa: F401  (register their samplers)
from memsim.sampling._kinds import SAMPLERS, Batch
from memsim.sampling._person import name_lists
from memsim.sampling._random import Uniforms, profile_keys
from memsim.sampling._sampler import (
    ProfileSampler,
    SampledBatch,
    build_profiles,
    profile_id,
    sample_profiles,
)
from memsim.sampling._values import to_python, to_text

__all__ = [
    "SAMPLERS",
    "Batch",
    "ProfileSampler",
    "SampledBatch",
    "Uniforms",
    "build_profiles",
    "name_lists",
    "profile_id",
    "profile_keys",
    "sample_profiles",
    "to_python",
    "to_text",
]
