"""Generate a dataset: one profile, one question, one trajectory per line.

The plan (which kind and scenario trajectory t asks about) depends only on the
options; trajectory t reads profile t and draws from its own stream
``SeedSequence(seed, spawn_key=(1, t))``, so the output is the same however it is
split up, and the same seed gives byte-identical files.
"""

from __future__ import annotations

import hashlib
import multiprocessing
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import orjson

from memsim import __version__
from memsim.graph import BRNet
from memsim.profile import Profile
from memsim.profile._store import read_manifest
from memsim.qa import KIND_ORDER, QA_KINDS, QAContext, ValuePool, assign_letters
from memsim.qa._choices import POOL_START
from memsim.sampling import ProfileSampler
from memsim.schema import Schema
from memsim.trajectory import build_trajectory
from memsim.verbalize import TemplateVerbalizer, schema_locale

RECORD_FORMAT = 1
MAX_ATTEMPTS = 400
"""Draws of a question from one profile before giving up (kinds reject draws that
would give a cue away or that the profile cannot support)."""
NOISE_PROFILES = 300


class GenerationError(ValueError):
    """A question could not be generated (the schema cannot support the kind): bad
    input, so the CLI reports it with exit status 2 rather than a traceback."""


@dataclass(frozen=True)
class GenerateOptions:
    seed: int = 0
    per_type: int = 500
    types: tuple[str, ...] = KIND_ORDER
    verbalizer: str = "template"
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "seed": self.seed,
            "per_type": self.per_type,
            "types": list(self.types),
            "verbalizer": self.verbalizer,
            **self.extra,
        }


def plan(options: GenerateOptions) -> list[tuple[str, str]]:
    """(kind, scenario) of every trajectory: per_type split evenly over the kind's
    scenarios (the first ones get one more), grouped by kind then scenario."""
    out: list[tuple[str, str]] = []
    for name in options.types:
        scenarios = QA_KINDS.get(name).all_scenarios
        base, extra = divmod(options.per_type, len(scenarios))
        for i, scenario in enumerate(scenarios):
            out += [(name, scenario)] * (base + (1 if i < extra else 0))
    return out


def make_context(schema: Schema, seed: int) -> QAContext:
    net = BRNet(schema)
    locale = schema_locale(schema)
    noise = tuple(
        ProfileSampler(net).profiles(seed, POOL_START + 10**6, POOL_START + 10**6 + NOISE_PROFILES)
    )
    return QAContext(
        schema, net, locale, TemplateVerbalizer(schema, locale), ValuePool.sample(net, seed), noise
    )


def trajectory_rng(seed: int, tid: int) -> np.random.Generator:
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(1, tid)))


def make_record(
    ctx: QAContext, profile: Profile, kind: str, scenario: str, tid: int, seed: int
) -> dict[str, Any]:
    rng = trajectory_rng(seed, tid)
    qa_kind = QA_KINDS.get(kind)
    for _ in range(MAX_ATTEMPTS):
        draft = qa_kind.make(ctx, profile, scenario, rng)
        if draft is not None:
            break
    else:
        raise GenerationError(
            f"no {kind}/{scenario} question from profile {profile.id} "
            f"after {MAX_ATTEMPTS} draws: the schema's {scenario} entities need an attribute "
            "that takes at least 4 values (one answer and 3 distractors) and, for this kind, "
            "enough entities of that kind (comparative and aggregative questions need 2 or more)"
        )
    messages, asked_at = build_trajectory(ctx, profile, draft, rng)
    choices, letter = assign_letters(draft.options, rng)
    evidence_ids = {f.id for f in draft.evidence}
    target = [m.mid for m in messages if m.role == "evidence" and evidence_ids & set(m.facts)]
    when = asked_at.isoformat(timespec="minutes")
    return {
        "format_version": RECORD_FORMAT,
        "tid": tid,
        "type": kind,
        "scenario": scenario,
        "profile_id": profile.id,
        "locale": ctx.loc.code,
        # which verbalizer made each message; an LLM pass may change it (memsim.rewrite)
        "message_list": [m.to_json() | {"verbalizer": "template"} for m in messages],
        "QA": {
            "qid": 0,
            "question": draft.question,
            "answer": draft.answer,
            "choices": choices,
            "ground_truth": letter,
            "target_step_id": target,
            "time": when,
            "provenance": {
                "fact_ids": sorted(evidence_ids),
                "withheld": [f.id for f in draft.withheld],
                "transform": draft.transform,
                "params": draft.params,
                "reference_time": when,
                "answer_value": draft.answer_value,
            },
            "verbalizer": "template",
        },
    }


def load_profile(folder: Path, index: int) -> Profile:
    path = folder / f"p{index:06d}.json"
    try:
        return Profile.from_json(orjson.loads(path.read_bytes()))
    except FileNotFoundError:
        raise FileNotFoundError(
            f"{path}: missing; the profiles folder has too few profiles"
        ) from None
    except (orjson.JSONDecodeError, KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"{path}: not a valid profile: {exc}") from None


def check_profiles(folder: Path, schema: Schema, needed: int) -> dict[str, Any]:
    manifest = read_manifest(folder)
    name = manifest.get("schema", {}).get("name")
    if name != schema.name:
        raise ValueError(
            f"{folder}: profiles were sampled from schema '{name}', not '{schema.name}'"
        )
    start, count = int(manifest.get("start", 0)), int(manifest.get("count", 0))
    if start != 0 or count < needed:
        raise ValueError(
            f"{folder}: holds profiles {start}..{start + count - 1}; "
            f"this dataset needs profiles 0..{needed - 1} (one per trajectory)"
        )
    return manifest


def generate_records(
    schema: Schema,
    profiles: Path,
    options: GenerateOptions,
    workers: int = 1,
    ctx: QAContext | None = None,
) -> Iterator[dict[str, Any]]:
    """Every trajectory record, in plan order (streamed, nothing is held).

    With ``workers`` > 1, trajectories are made in worker processes and collected in
    order; each depends only on its own seed stream and profile, so the records are
    identical to a single-process run."""
    steps = list(enumerate(plan(options)))
    if workers <= 1:
        ctx = ctx or make_context(schema, options.seed)
        for tid, (kind, scenario) in steps:
            yield make_record(ctx, load_profile(profiles, tid), kind, scenario, tid, options.seed)
        return
    mp = multiprocessing.get_context(
        "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    )
    with mp.Pool(
        workers, initializer=_init_worker, initargs=(schema, profiles, options.seed)
    ) as pool:
        yield from pool.imap(_make_in_worker, steps, chunksize=32)


_WORKER: dict[str, Any] = {}


def _init_worker(schema: Schema, profiles: Path, seed: int) -> None:
    _WORKER.update(ctx=make_context(schema, seed), profiles=profiles, seed=seed)


def _make_in_worker(step: tuple[int, tuple[str, str]]) -> dict[str, Any]:
    tid, (kind, scenario) = step
    profile = load_profile(_WORKER["profiles"], tid)
    return make_record(_WORKER["ctx"], profile, kind, scenario, tid, _WORKER["seed"])


def schema_digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def manifest_for(
    schema: Schema,
    schema_path: Path,
    profiles_manifest: dict[str, Any],
    options: GenerateOptions,
    counts: dict[str, Any],
) -> dict[str, Any]:
    return {
        "kind": "dataset",
        "memsim_version": __version__,
        "schema": {
            "name": schema.name,
            "version": schema.version,
            "locale": schema.locale,
            "sha256": schema_digest(schema_path),
        },
        "profiles": {
            "seed": profiles_manifest.get("seed"),
            "count": profiles_manifest.get("count"),
        },
        "options": options.to_json(),
        "counts": counts,
        "files": ["dataset.jsonl", "memdaily.json"],
    }
