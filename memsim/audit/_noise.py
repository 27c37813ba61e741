"""Noise messages carry facts of other profiles (``p1001000265:relative[0].name``).
With the schema and the generation seed (from the dataset manifest), each such
profile is sampled again: profile k's stream depends only on (seed, k), so the same
profile comes back, and the message must state its fact and name its entity. The noise
entity must also be one this trajectory's profile does not have (a noise "my mother"
next to the user's own mother would contradict the real facts).
"""

from __future__ import annotations

import datetime as dt
from collections import OrderedDict
from typing import Any

from memsim.audit._context import AuditContext
from memsim.audit._correctness import GROUP, deriver
from memsim.audit._faithful import states
from memsim.audit._framework import dataset_check
from memsim.audit._types import AuditItem, CheckStats, Finding, finding
from memsim.profile import Profile

CACHE = 1024
BLOCK = 128


class NoiseProfiles:
    """The other profiles noise messages name, sampled again (a bounded cache; the
    checks that read them share one, see :func:`noise_profiles`)."""

    def __init__(self, ctx: AuditContext):
        from memsim.sampling import ProfileSampler

        self.seed = ctx.generation_seed
        self.sampler = ProfileSampler(ctx.net)
        self.cache: OrderedDict[str, Profile] = OrderedDict()

    def get(self, pid: str) -> Profile:
        hit = self.cache.get(pid)
        if hit is None:
            # noise profiles have neighbouring indices: sample a block of them at once
            index = int(pid.lstrip("p"))
            start = index - index % BLOCK
            for p in self.sampler.profiles(self.seed or 0, start, start + BLOCK):
                self.cache[p.id] = p
            while len(self.cache) > CACHE:
                self.cache.popitem(last=False)
            hit = self.cache.get(pid)
            if hit is None:
                raise ValueError(f"sampling profile {index} did not give {pid}")
        return hit


def noise_profiles(ctx: AuditContext) -> NoiseProfiles:
    found = ctx.shared.get("noise_profiles")
    if found is None:
        found = ctx.shared["noise_profiles"] = NoiseProfiles(ctx)
    assert isinstance(found, NoiseProfiles)
    return found


@dataset_check(
    "noise_facts",
    "every noise message states a real fact of the other profile it names (sampled again "
    "from the schema and the generation seed) about an entity this profile does not have",
    GROUP,
    ("provenance", "profiles", "schema"),
)
class NoiseFacts:
    def __init__(self, ctx: AuditContext, stats: CheckStats):
        self.ctx, self.stats = ctx, stats
        self.seed = ctx.generation_seed
        if self.seed is not None:
            stats.notes.append(
                f"noise profiles sampled again from the schema with generation seed {self.seed}"
            )

    def other(self, pid: str) -> Profile:
        return noise_profiles(self.ctx).get(pid)

    def visit(self, item: AuditItem) -> list[Finding] | None:
        noise = [(m, str(f)) for m in item.messages for f in m.get("facts", ()) if ":" in str(f)]
        if not noise:
            return None
        if self.seed is None:
            self.stats.counts["noise facts not checked (no seed)"] += len(noise)
            return []
        profile = self.ctx.profile(item)
        assert profile is not None and self.ctx.schema and self.ctx.locale
        d = deriver(self.ctx)
        own = {d.who(e).casefold() for e in profile.entities}
        out = []
        for m, qualified in noise:
            self.stats.counts["noise facts"] += 1
            problem = self._problem(m, qualified, own)
            if problem:
                self.stats.counts["noise facts wrong"] += 1
                out.append(
                    finding("noise_facts", "error", item, f"message {m.get('mid')}: {problem}")
                )
        return out

    def _problem(self, m: dict[str, Any], qualified: str, own: set[str]) -> str | None:
        assert self.ctx.schema is not None and self.ctx.locale is not None
        pid, fid = qualified.split(":", 1)
        other = self.other(pid)
        entity_id, attr = fid.rsplit(".", 1)
        try:
            entity = other.entity(entity_id)
            fact = entity.facts[attr]
        except KeyError:
            return f"{qualified}: profile {pid} has no such fact"
        when = dt.datetime.fromisoformat(str(m.get("time")))
        why = states(str(m.get("message")), entity, fact, when, self.ctx.schema, self.ctx.locale)
        if why:
            return f"{qualified}: {why}"
        if deriver(self.ctx).who(entity).casefold() in own:
            return f"{qualified}: names {deriver(self.ctx).who(entity)!r}, whom this profile has"
        return None

    def finish(self) -> list[Finding]:
        if self.seed is None and self.stats.counts:
            return [
                finding(
                    "noise_facts",
                    "info",
                    None,
                    "noise facts not checked: the dataset manifest has no generation seed, "
                    "so their profiles cannot be sampled again",
                )
            ]
        return []


__all__ = ["NoiseFacts", "NoiseProfiles", "noise_profiles"]
