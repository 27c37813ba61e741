"""Dealt one-fact questions: which attribute a trajectory asks, and which value or rank
its answer has, dealt from decks over the trajectories of a kind and scenario.

Flattening (:meth:`ValuePool.accept`) makes answers uniform *in expectation*; drawn
independently per trajectory, the answers of the few dozen questions about one
attribute in one kind and scenario still stray (shopping, seed 0: "DHL" the answer to
9 of 18 carrier questions, "clothing" to 10 of 27 category ones, none about "books"),
and a cross-validated reader of the options alone learns the stray shares. Here the
free parts of the draw are dealt from shuffled decks (:mod:`memsim.qa._strata`):

1. the *type*, (entity kind, attribute), from a deck over the types the scenario may
   ask, so each comes up at a known place in every deck of trajectories;
2. per type, over the decks of step 1 (``every``), its answer's *rank* among its four
   options (numbers: each rank exactly as often), or, for a categorical attribute of a
   kind with several entities, its *value*, realised by the entity that has it; a
   value no entity has falls back to one entity, kept by the flattening as below;
3. anything else (a kind with one entity, texts, dates, values the naming of the
   entity constrains) asks one entity, kept by the flattening (p_min / p) once.

A dealt value is kept with probability r_min / r(value), r the share of pool profiles
in which some entity of the kind has it, so common values, easier to realise, are not
the answer more often. A card that no entity realises, or that the flattening drops,
leaves the trajectory to the draw it had before (``None``): answers stay uniform in
expectation either way, and exact in the dealt share. The choices that realise a card
come from :func:`card_rng`, the same on each of the ``HOLD`` attempts the card is
held for (a draft redone for a message that would say a withheld value keeps its
card), so the flattening is decided once per trajectory, not retried until it keeps.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from memsim.profile import Entity
from memsim.qa._choices import rank_fits
from memsim.qa._context import QAContext
from memsim.qa._pool import Given
from memsim.qa._strata import balanced, card_rng, unstratified
from memsim.schema import asked_by, is_asked
from memsim.verbalize import template_fields

TYPE_DECK = 4
"""Salt of the type deck (temporal uses 1 and 2, counts 3)."""
HOLD = 16
"""Attempts a dealt card is held for before the trajectory draws as before."""
RANKS = 4
MIN_REALISED = 0.5
"""A type realised by fewer probe profiles than this share is not dealt."""
PROBES = 100
"""Noise profiles a type's realisation is tried on."""


@dataclass(frozen=True)
class Dealt:
    """What a one-fact question asks: the entity, the attribute, what the question
    reveals about it, the rank its answer must have among numeric options (None:
    drawn), and what the question names the entity by when not by its name
    (conditional questions: the condition attribute)."""

    entity: Entity
    attr: str
    given: Given
    rank: int | None = None
    by: str | None = None


Reveal = Callable[
    [QAContext, Sequence[Entity], Entity, str, np.random.Generator],
    tuple[Given, str | None] | None,
]
"""What a question about (entity, attribute) in its group reveals, and the attribute it
names the entity by (None: its naming attributes); None when it cannot be asked (a
draw from the stream given may choose the attribute)."""


def by_naming(
    ctx: QAContext,
    group: Sequence[Entity],
    entity: Entity,
    attr: str,
    rng: np.random.Generator,
) -> tuple[Given, str | None] | None:
    """The entity named as the user names it (simple, noisy, abstention)."""
    given = ctx.revealed(entity, ctx.naming(entity), attr)
    return None if given is None else (given, None)


def fact_types(
    ctx: QAContext, scenario: str, question: str | None, exclude: Sequence[str] = ()
) -> tuple[tuple[str, str], ...]:
    """The (kind, attribute) pairs a question of kind ``question`` (None: any kind) may
    ask in ``scenario``, from the schema alone (the same for every profile): attributes
    of the scenario's kinds, asked, and not among those the kind is named by or
    ``exclude``."""
    key = ("fact-types", scenario, question, tuple(exclude))
    return ctx.pool.remember(key, lambda: _fact_types(ctx, scenario, question, exclude))


def _fact_types(
    ctx: QAContext, scenario: str, question: str | None, exclude: Sequence[str]
) -> tuple[tuple[str, str], ...]:
    schema = ctx.schema
    out = []
    for kind, spec in schema.entities.items():
        if spec.scenario != scenario or not spec.count:
            continue
        naming = set(template_fields(spec.refer.get(ctx.loc.code, "")))
        for attr in schema.attributes_of(kind):
            if attr in naming or attr in exclude:
                continue
            if asked_by(schema, kind, attr, question) if question else is_asked(schema, kind, attr):
                out.append((kind, attr))
    return tuple(out)


def deal_fact(
    ctx: QAContext,
    group: Sequence[Entity],
    scenario: str,
    question: str | None,
    rng: np.random.Generator,
    exclude: Sequence[str] = (),
    reveal: Reveal = by_naming,
) -> Dealt | None:
    """The fact dealt to this trajectory (see the module), or None: the caller draws
    as it would without a deck. ``reveal`` says what the question reveals (the same
    function for every call with one ``question``: the dealt types are memoised)."""
    types = dealt_types(ctx, scenario, question, exclude, reveal)
    if not types:
        return None
    kind, attr = types[balanced(rng, len(types), TYPE_DECK, hold=HOLD, parts="none")]
    return _realise(ctx, group, scenario, question, kind, attr, rng, len(types), reveal)


def dealt_types(
    ctx: QAContext,
    scenario: str,
    question: str | None,
    exclude: Sequence[str] = (),
    reveal: Reveal = by_naming,
) -> tuple[tuple[str, str], ...]:
    """The types of :func:`fact_types` that the type deck deals: those that profiles
    realise at least ``MIN_REALISED`` of the time (tried on the first ``PROBES`` noise
    profiles; an attribute that most profiles' entities cannot be asked, a text whose
    values the pool never holds, would leave most of its cards to the undealt draw)."""
    key = ("dealt-types", scenario, question, tuple(exclude))
    return ctx.pool.remember(key, lambda: _dealt_types(ctx, scenario, question, exclude, reveal))


def _dealt_types(
    ctx: QAContext, scenario: str, question: str | None, exclude: Sequence[str], reveal: Reveal
) -> tuple[tuple[str, str], ...]:
    probes = ctx.noise_profiles[:PROBES]
    need = MIN_REALISED * len(probes)
    out = []
    for kind, attr in fact_types(ctx, scenario, question, exclude):
        rng = np.random.default_rng(zlib.crc32(f"{kind}.{attr}".encode()))
        hits = 0
        for tried, p in enumerate(probes):
            # decided once the share is reached or out of reach: the probes left cannot
            # change it (each type draws from its own stream, so stopping early moves
            # no other type's draws; about half the probes, on daily life)
            if hits >= need or hits + len(probes) - tried < need:
                break
            group = ctx.group(p, scenario)
            with unstratified():  # random cards, whichever trajectory asks first
                drawn = _realise(ctx, group, scenario, question, kind, attr, rng, 1, reveal)
            hits += drawn is not None
        if probes and hits >= need:
            out.append((kind, attr))
    return tuple(out)


def _realise(
    ctx: QAContext,
    group: Sequence[Entity],
    scenario: str,
    question: str | None,
    kind: str,
    attr: str,
    rng: np.random.Generator,
    every: int,
    reveal: Reveal,
) -> Dealt | None:
    """The fact of type (kind, attr) this profile asks, its value or rank dealt over the
    decks of ``every`` types (module, step 2), or None."""
    salt = zlib.crc32(f"{question}/{scenario}/{kind}.{attr}".encode())
    own = card_rng(rng, salt, hold=HOLD, parts="none")
    entities = [e for e in group if e.kind == kind and attr in ctx.askable(e, question)]
    if not entities:
        return None
    a = ctx.attribute(entities[0], attr)
    if a.type == "integer":
        rank = balanced(rng, RANKS, salt, every=every, hold=HOLD, parts="none")
        fits = [e for e in entities if rank_fits(int(e.facts[attr].value), rank, a.min, a.max)]
        return _one(ctx, group, fits, attr, own, reveal, rank)
    values = _dealt_values(ctx, kind, attr)
    if values is not None and ctx.schema.entities[kind].count > 1:
        wanted = values[balanced(rng, len(values), salt, every=every, hold=HOLD, parts="none")]
        having = [e for e in entities if e.facts[attr].value == wanted]
        chance = _realised(ctx, kind, attr)
        if having and own.random() < min(chance.values()) / chance[wanted]:
            entity = having[int(own.integers(len(having)))]
            said = reveal(ctx, group, entity, attr, own)
            # a value the question's naming constrains is flattened against that, below
            if said is not None and said[0] == ():
                return Dealt(entity, attr, (), None, said[1])
    return _one(ctx, group, entities, attr, own, reveal)


def _one(
    ctx: QAContext,
    group: Sequence[Entity],
    entities: Sequence[Entity],
    attr: str,
    own: np.random.Generator,
    reveal: Reveal,
    rank: int | None = None,
) -> Dealt | None:
    """The first of ``entities``, in an order drawn from ``own``, that the flattening
    keeps (each tried once: the first kept is uniform over the support as each one
    kept is, since the ones tried before it are independent of it)."""
    for i in own.permutation(len(entities)):
        entity = entities[int(i)]
        said = reveal(ctx, group, entity, attr, own)
        if said is not None and ctx.accept(entity, attr, own, said[0]):
            return Dealt(entity, attr, said[0], rank, said[1])
    return None


def _dealt_values(ctx: QAContext, kind: str, attr: str) -> list[object] | None:
    """The values a categorical attribute's answers are dealt over: its support in the
    pool (4 or more values), in a fixed order; None for other attributes."""

    def compute() -> list[object] | None:
        spec = ctx.schema.attributes_of(kind)[attr]
        support = ctx.pool.support(kind, attr) if spec.type == "categorical" else None
        return sorted(support, key=str) if support and len(support) >= 4 else None

    return ctx.pool.remember(("dealt-values", kind, attr), compute)


def _realised(ctx: QAContext, kind: str, attr: str) -> dict[object, float]:
    """For each dealt value, the share of pool profiles in which some entity of
    ``kind`` has it: how often a profile can realise that card."""

    def compute() -> dict[object, float]:
        column = ctx.pool.rows[kind][attr]
        n = ctx.pool.profiles
        having = {v: np.zeros(n, dtype=bool) for v in _dealt_values(ctx, kind, attr) or []}
        for s in range(len(column) // n):
            for i, v in enumerate(column[s * n : (s + 1) * n]):
                if v in having:
                    having[v][i] = True
        return {v: max(float(h.mean()), 1e-9) for v, h in having.items()}

    return ctx.pool.remember(("realised", kind, attr), compute)


__all__ = [
    "HOLD",
    "TYPE_DECK",
    "Dealt",
    "Reveal",
    "by_naming",
    "deal_fact",
    "dealt_types",
    "fact_types",
]
