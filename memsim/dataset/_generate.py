"""Generate a dataset: one profile, one question, one trajectory per line.

The plan (which kind and scenario trajectory t asks about) depends only on the
options; trajectory t reads profile t and draws its question from its own stream
``SeedSequence(seed, spawn_key=(1, t))`` and, at attempt a, its messages from
``SeedSequence(seed, spawn_key=(1, t, a))``, so the output is the same however it is
split up, and the same seed gives byte-identical files.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import multiprocessing
import pickle
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from multiprocessing.pool import Pool
from pathlib import Path
from typing import Any

import numpy as np

from memsim import __version__
from memsim._gc import collect_rarely, few_collections
from memsim._io import DATASET_FILE
from memsim._streams import stream
from memsim.profile import Profile, load_profile, read_manifest
from memsim.qa import (
    KIND_ORDER,
    QA_KINDS,
    Draft,
    Message,
    QAContext,
    assign_letters,
    make_context,
    normalise,
    planned_scenarios,
    scenario_reasons,
)
from memsim.qa._registry import says_itself
from memsim.qa._strata import stratum
from memsim.records import QA, USER, Provenance, Record, Session, Turn
from memsim.schema import Schema
from memsim.trajectory import build_trajectory
from memsim.trajectory._rates import (
    Block,
    Key,
    Tally,
    draft_block,
    evidence_rates,
    has_rates,
    rate_blocks,
    rates_from,
    set_rates,
)
from memsim.verbalize import value_at
from memsim.verify import StatedFact, fact_stated

MAX_ATTEMPTS = 400
"""Draws of a question from one profile before giving up (kinds reject draws that
would give a cue away or that the profile cannot support)."""
STRICT_ATTEMPTS = MAX_ATTEMPTS // 2
"""Draws in which a question that must state a fact its entity's name already says is
drawn again; after them it is kept, when the profile allows nothing else of its kind
and scenario (a Chinese place whose name holds its type, "洪湖公园", asked about by
its type: the audit's ``tautological_statements`` warns of each)."""


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


def plan(options: GenerateOptions, schema: Schema | None = None) -> list[tuple[str, str]]:
    """(kind, scenario) of every trajectory: per_type split evenly over the kind's
    scenarios (the first ones get one more), grouped by kind then scenario. With a
    ``schema``, only the scenarios it lets every profile be asked about
    (``qa.planned_scenarios``: a domain whose user has nothing to compare is asked no
    comparison about the user); without one, every scenario of the kind."""
    out: list[tuple[str, str]] = []
    for name in options.types:
        scenarios = QA_KINDS.get(name).all_scenarios if schema is None else _scenarios(schema, name)
        base, extra = divmod(options.per_type, len(scenarios))
        for i, scenario in enumerate(scenarios):
            out += [(name, scenario)] * (base + (1 if i < extra else 0))
    return out


def _scenarios(schema: Schema, kind: str) -> tuple[str, ...]:
    scenarios = planned_scenarios(schema, kind)
    if not scenarios:
        why = "; ".join(f"{s}: {r}" for s, r in scenario_reasons(schema, kind).items() if r)
        raise GenerationError(f"the schema {schema.name!r} cannot ask {kind} questions ({why})")
    return scenarios


def plan_size(options: GenerateOptions) -> int:
    """``len(plan(options))`` without building the plan (a request too large to plan
    is refused by its size, before any work)."""
    return options.per_type * len(options.types)


def check_request(folder: Path, options: GenerateOptions) -> None:
    """Refuse a request larger than the profiles folder, by its size alone, before any
    plan is built (``--per-type 1000000000`` fails at once, saying what would fit)."""
    needed = plan_size(options)
    manifest = read_manifest(folder)
    start, count = int(manifest.get("start", 0)), int(manifest.get("count", 0))
    if start == 0 and count < needed:
        kinds = len(options.types)
        raise GenerationError(
            f"--per-type {options.per_type} x {kinds} QA kind(s) needs {needed:,} profiles "
            f"(one per trajectory); {folder} holds {count:,}: use --per-type "
            f"{count // kinds} or less, or sample more profiles (memsim profiles --n {needed})"
        )


def trajectory_rng(seed: int, tid: int) -> np.random.Generator:
    """The stream trajectory ``tid`` draws its question (and its letters) from."""
    return stream(seed, (1, tid))


def messages_rng(seed: int, tid: int, attempt: int) -> np.random.Generator:
    """The stream the messages of attempt ``attempt`` at trajectory ``tid`` are built
    from: apart from the question's, so how many draws the question took (a card dealt
    from a deck takes none of the trajectory's) does not move where the evidence
    stands. Sharing one stream, the messages' draws were a function of the question
    drawn; at 30 questions per kind, 24 of 30 dealt abstention questions had their
    evidence among the first 5 messages (chance 15.6; p 0.001)."""
    return stream(seed, (1, tid, attempt))


def _says_withheld(ctx: QAContext, profile: Profile, draft: Draft, messages: list[Message]) -> bool:
    """Whether a message says the value of a fact the question withholds.

    An entity named by no value (the user, "I") is spoken of only by the messages that
    carry its facts, and by those that carry none (as the audit reads them): "my father
    is a doctor" does not say the user's withheld occupation. Redoing such draws made
    a never-told question about a common value (a hometown city, an occupation that
    relatives share) almost never kept, so the asked attribute told the outcome."""
    for ref in draft.withheld:
        entity, fact = profile.entity(ref.entity), profile.fact(ref.id)
        value = normalise(ctx.display(entity, ref.attribute))
        mine = f"{ref.entity}."
        about = [m for m in messages if any(f.startswith(mine) for f in m.facts)]
        scope = messages if ctx.naming(entity) else [m for m in messages if not m.facts] + about
        if value and any(value in normalise(m.text) for m in scope):
            return True
        # the bare value in a message about the same entity ("I was born on October 22"
        # beside a withheld age of 22) reads as said
        raw = re.compile(rf"(?<![\w.]){re.escape(str(fact.value))}(?![\w.])")
        if any(raw.search(m.text) for m in about):
            return True
        # as the audit's never_told_unsaid reads a message about the entity: a number
        # beside words of a script without spaces ("要9分钟" beside a withheld 9 o'clock)
        for m in about:
            when = dt.datetime.fromisoformat(m.time)
            for step in fact.history or (fact,):
                if fact_stated(m.text, StatedFact(entity, fact, step.value, when), ctx.loc):
                    return True
    return False


def _says_other_value(ctx: QAContext, profile: Profile, messages: list[Message]) -> bool:
    """Whether a message says a value of one of its changing facts other than the one in
    force at its time (a past occupation inside an employer's name a phrasing uses:
    "At Atlanta Courier Services, ..." when the occupation is no longer "courier"),
    read as the audit's ``values_in_force`` reads it."""
    for m in messages:
        own = [profile.fact(f) for f in m.facts if ":" not in f]
        when = dt.datetime.fromisoformat(m.time)
        for fact in own:
            if len(fact.history) < 2:
                continue
            now = value_at(fact, when)
            beside = [normalise(str(value_at(o, when))) for o in own if o.id != fact.id]
            entity = profile.entity(fact.id.rsplit(".", 1)[0])
            for step in fact.history:
                other = step.value
                key = normalise(str(other))
                if other == now or any(key in b for b in (*beside, normalise(str(now)))):
                    continue
                if fact_stated(m.text, StatedFact(entity, fact, other, when), ctx.loc):
                    return True
    return False


def make_record(
    ctx: QAContext, profile: Profile, kind: str, scenario: str, tid: int, seed: int
) -> Record:
    rng = trajectory_rng(seed, tid)
    qa_kind = QA_KINDS.get(kind)
    draft = None
    for attempt in range(MAX_ATTEMPTS):
        with stratum(seed, tid, attempt):  # balanced outcomes (memsim.qa._strata)
            draft = qa_kind.make(ctx, profile, scenario, rng)
        if draft is None:
            continue
        if attempt < STRICT_ATTEMPTS and says_itself(ctx, profile, draft):
            draft = None  # a tautology ("the Boston Career Fair is in Boston"): redrawn
            continue
        messages, asked_at = build_trajectory(ctx, profile, draft, messages_rng(seed, tid, attempt))
        if not _says_withheld(ctx, profile, draft, messages) and not _says_other_value(
            ctx, profile, messages
        ):
            break
        draft = None  # a told fact's phrasing says a withheld one ("At <employer>, ...")
    if draft is None:
        raise GenerationError(
            f"no {kind}/{scenario} question from profile {profile.id} "
            f"after {MAX_ATTEMPTS} draws (each one rejected or redrawn): the schema's "
            f"{scenario} entities need an attribute that takes at least 4 values (one answer "
            "and 3 distractors) and, for this kind, enough entities of that kind (comparative "
            "and aggregative questions need 2 or more); `memsim schema validate` says which "
            "kinds and scenarios the schema cannot be asked"
        )
    choices, letter = assign_letters(draft.options, rng)
    evidence_ids = {f.id for f in draft.evidence}
    target = [m.mid for m in messages if m.role == "evidence" and evidence_ids & set(m.facts)]
    when = asked_at.isoformat(timespec="minutes")
    turns = tuple(
        # which verbalizer made each message; an LLM pass may change it (memsim.rewrite)
        Turn(m.mid, USER, m.text, m.time, m.place, m.role, tuple(m.facts))
        for m in messages
    )
    qa = QA(
        question=draft.question,
        answer=draft.answer,
        options=tuple(choices.values()),
        gold=letter,
        evidence=tuple(target),
        time=when,
        provenance=Provenance(
            fact_ids=tuple(sorted(evidence_ids)),
            withheld=tuple(f.id for f in draft.withheld),
            transform=draft.transform,
            params=draft.params,
            reference_time=when,
            answer_value=draft.answer_value,
        ),
    )
    start = turns[0].time if turns else when
    return Record(
        tid=tid,
        type=kind,
        scenario=scenario,
        sessions=(Session("s0", start, turns),),
        qa=qa,
        profile_id=profile.id,
        locale=ctx.loc.code,
    )


def generate_records(
    schema: Schema,
    profiles: Path,
    options: GenerateOptions,
    workers: int = 1,
    ctx: QAContext | None = None,
    tids: range | None = None,
    idle: Callable[[], object] | None = None,
) -> Iterator[Record]:
    """Every trajectory record, in plan order (streamed, nothing is held); with
    ``tids``, only those trajectories of the plan (a shard).

    With ``workers`` > 1, trajectories are made in worker processes and collected in
    order; each depends only on its own seed stream and profile, so the records are
    identical to a single-process run. The workers first draft the filler rate table's
    blocks (:mod:`memsim.trajectory._rates`), which this process adds up while it
    runs ``idle`` (work of its own that would otherwise wait for the first record)."""
    steps = list(enumerate(plan(options, schema)))
    if tids is not None:
        steps = steps[tids.start : tids.stop]
    if workers <= 1:
        ctx = ctx or _context(schema, options)
        with few_collections():  # the context is frozen out of the collector's walks
            for tid, (kind, scenario) in steps:
                profile = load_profile(profiles, tid, schema)
                yield make_record(ctx, profile, kind, scenario, tid, options.seed)
        return
    if "fork" in multiprocessing.get_all_start_methods():
        # the context (value pools, noise profiles) is built once, here, and the forked
        # workers inherit it instead of each building its own
        ctx = ctx or _context(schema, options)
        _WORKER.update(ctx=ctx, profiles=profiles, seed=options.seed)
        try:
            # frozen before the fork: no collection in a worker walks (and so copies)
            # the pages of the context it shares with the others
            with few_collections(), multiprocessing.get_context("fork").Pool(workers) as pool:
                shared = _shared_rates(pool, schema, options.types, ctx, idle)
                yield from pool.imap(_make_in_worker, _with(steps, shared), chunksize=32)
        finally:
            _WORKER.clear()
        return
    with multiprocessing.get_context("spawn").Pool(
        workers, initializer=_init_worker, initargs=(schema, profiles, options.seed, options.types)
    ) as pool:
        shared = _shared_rates(pool, schema, options.types, ctx, idle)
        yield from pool.imap(_make_in_worker, _with(steps, shared), chunksize=32)


@dataclass(frozen=True)
class _Shared:
    """What every worker takes before its first record: the filler rate table, and the
    value pool's memo as the drafts left it in all the workers (pickled once, here:
    :meth:`memsim.qa.ValuePool.shared`)."""

    rates: dict[Key, float]
    memo: bytes


def _shared_rates(
    pool: Pool,
    schema: Schema,
    kinds: tuple[str, ...],
    ctx: QAContext | None,
    idle: Callable[[], object] | None,
) -> _Shared:
    """The filler rate table, its blocks drafted by the workers (each block on its own
    stream: the same table as one process drafts) and added up here, in a fixed order;
    ``idle`` runs here meanwhile. The workers keep the caches their drafts filled (the
    dealt types of the kinds they drafted, ...) for the records, and each takes the
    others' pool memo with the table: a worker drafts some kinds but makes records of
    every kind, and filled the rest of the memo again for them (daily life: 1.2 s of
    CPU per worker, most of it the dealt types)."""
    if ctx is not None and has_rates(ctx):
        return _Shared(evidence_rates(ctx), _pickled(ctx.pool.shared()))
    # a kind's blocks go to one worker: they fill the same caches (the kind's dealt
    # types, ...), which sent apart both workers filled (about 2 s more CPU)
    by_kind: dict[str, list[Block]] = {}
    for block in rate_blocks(schema, kinds):
        by_kind.setdefault(block[0], []).append(block)
    pending = pool.map_async(_draft_in_worker, by_kind.values(), chunksize=1)
    if idle is not None:
        idle()
    drafted = pending.get()
    rates = rates_from(tally for tallies, _ in drafted for tally in tallies)
    memo: dict[Any, Any] = {}
    for _, results in drafted:  # a key two workers computed has one value
        for k, v in results.items():
            memo.setdefault(k, v)
    if ctx is not None:
        set_rates(ctx, rates)
    return _Shared(rates, _pickled(memo))


def _pickled(memo: dict[Any, Any]) -> bytes:
    # bytes: sent with every chunk of steps (a copy of the buffer), unpickled once per worker
    return pickle.dumps(memo, protocol=pickle.HIGHEST_PROTOCOL)


def _with(steps: list[tuple[int, tuple[str, str]]], shared: _Shared) -> Iterator[Step]:
    # one object: pickled once per chunk of steps sent to a worker
    return ((tid, asks, shared) for tid, asks in steps)


def _context(schema: Schema, options: GenerateOptions) -> QAContext:
    """The QA context, built with few collections: it makes a few hundred thousand
    objects that live for the whole run, which the interpreter's default thresholds
    walked in 4 full collections (in the serial stretch before the fork)."""
    with few_collections():
        return make_context(schema, options.seed, options.types)


_WORKER: dict[str, Any] = {}
Step = tuple[int, tuple[str, str], _Shared]
"""A trajectory id, its (kind, scenario) and what the workers share (the rate table)."""


def _init_worker(schema: Schema, profiles: Path, seed: int, kinds: tuple[str, ...]) -> None:
    _WORKER.update(ctx=make_context(schema, seed, kinds), profiles=profiles, seed=seed)
    collect_rarely()  # the context lives as long as the worker (see memsim._gc)


def _draft_in_worker(blocks: list[Block]) -> tuple[list[Tally], dict[Any, Any]]:
    ctx = _WORKER["ctx"]
    return [draft_block(ctx, block) for block in blocks], ctx.pool.shared()


def _make_in_worker(step: Step) -> Record:
    tid, (kind, scenario), shared = step
    ctx = _WORKER["ctx"]
    if not has_rates(ctx):
        set_rates(ctx, shared.rates)
        ctx.pool.adopt(pickle.loads(shared.memo))
    profile = load_profile(_WORKER["profiles"], tid, ctx.schema)
    return make_record(ctx, profile, kind, scenario, tid, _WORKER["seed"])


def schema_digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def manifest_for(
    schema: Schema,
    schema_path: Path,
    profiles_manifest: dict[str, Any],
    options: GenerateOptions,
    counts: dict[str, Any],
    files: list[str],
) -> dict[str, Any]:
    """The manifest of a generated dataset; ``files`` are those written beside
    ``dataset.jsonl`` by the other formats asked for."""
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
        "files": [DATASET_FILE, *files],
    }
