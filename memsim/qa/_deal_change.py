"""Dealt knowledge updates: which changed fact a question reads, and which value of its
history the answer is (or, for a number, its rank among the options), dealt from decks
over the trajectories of the kind and scenario, as one-fact answers are
(:mod:`memsim.qa._deal`).

Drawn per trajectory and flattened (p_min / p over the pool,
:func:`memsim.qa._history.balanced_answer`), the answers are uniform in expectation,
but those of the few dozen questions about one changing attribute still stray (kitchen,
zh, seed 1, 100 per kind: the shift "晚班" was the answer to 17 of its 33 questions) and
a reader of the options alone learns the stray share. Here:

1. the *type*, (entity kind, attribute), comes from a deck laid out by the weights
   :func:`memsim.qa._history.pick_changed` draws with (one over the values told per
   entity), so each type stays evidence in about as many messages;
2. per type, over that type's own cards (:func:`memsim.qa._strata.dealt_run`), the
   answer's *value* (categorical) or *rank* among the four options (integers) comes
   from a deck of its own, so each comes up in equal shares in every run;
3. a dealt value is realised by a step of a history of the profile (the value in force
   now, or the one before a change), kept with probability r_min / r(value), r the
   share of noise profiles that can realise it, so common values, easier to realise,
   are not the answer more often.

A card no history realises, or that the flattening drops, leaves the trajectory to the
draw it had before (None): answers stay uniform in expectation either way. The choices
that realise a card come from :func:`memsim.qa._strata.card_rng`, the same on each of
the ``HOLD`` attempts the card is held for.
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from memsim.profile import Entity
from memsim.qa._context import QAContext
from memsim.qa._deal import HOLD, RANKS
from memsim.qa._history import changed, told_rates
from memsim.qa._strata import balanced_at, card_rng, dealing, dealt_run

TYPE_DECK = 10
"""Salt of the type deck (one-fact types use 4)."""
CARDS = 12
"""Cards of the type deck: the types' weights are rounded to twelfths (one card at
least each)."""
LEAST_SHARE = 0.25
"""A value realised less often than this share of the most realised one is not dealt:
its r_min would drop nearly every card of the others (it is still an answer, drawn)."""


@dataclass(frozen=True)
class DealtChange:
    """What a knowledge update asks: the entity, the attribute, the form (``now`` or
    ``before``), the change a ``before`` question names (1..n-1; drawn for ``now``) and
    the rank its numeric answer must have among the options (None: drawn)."""

    entity: Entity
    attr: str
    form: str
    change: int
    rank: int | None = None


def deal_change(
    ctx: QAContext, group: Sequence[Entity], scenario: str, rng: np.random.Generator
) -> DealtChange | None:
    """The changed fact dealt to this trajectory (see the module), or None: the caller
    draws as it would without a deck (also outside generation)."""
    layout = _layout(ctx, scenario)
    if not layout or not dealing(HOLD, "none"):
        return None
    card, place = dealt_run(rng, layout, TYPE_DECK, hold=HOLD)
    kind, attr = _types(ctx, scenario)[card]
    salt = zlib.crc32(f"knowledge_update/{scenario}/{kind}.{attr}".encode())
    own = card_rng(rng, salt, hold=HOLD, parts="none")
    entities = [e for e, a in changed(ctx, group) if e.kind == kind and a == attr]
    if not entities:
        return None
    if ctx.attribute(entities[0], attr).type == "integer":
        entity = entities[int(own.integers(len(entities)))]
        form = "now" if own.random() < 0.5 else "before"
        change = int(own.integers(1, len(entity.facts[attr].history)))
        return DealtChange(entity, attr, form, change, balanced_at(rng, RANKS, salt, place))
    shares = _realised(ctx, scenario, kind, attr)
    if not shares:
        return None
    values = sorted(shares, key=str)
    wanted = values[balanced_at(rng, len(values), salt, place)]
    if own.random() >= min(shares.values()) / shares[wanted]:
        return None
    return _realise(entities, attr, wanted, own)


def _realise(
    entities: Sequence[Entity], attr: str, wanted: object, own: np.random.Generator
) -> DealtChange | None:
    """A step of a history that makes ``wanted`` the answer: the form drawn evenly
    first (the other one when this one cannot give it), then a step of that form."""
    steps: dict[str, list[tuple[Entity, int]]] = {"now": [], "before": []}
    for e in entities:
        history = e.facts[attr].history
        n = len(history)
        if history[-1].value == wanted:
            steps["now"].append((e, int(own.integers(1, n))))
        steps["before"] += [(e, k) for k in range(1, n) if history[k - 1].value == wanted]
    first = "now" if own.random() < 0.5 else "before"
    form = first if steps[first] else ("before" if first == "now" else "now")
    if not steps[form]:
        return None
    entity, change = steps[form][int(own.integers(len(steps[form])))]
    return DealtChange(entity, attr, form, change)


def _types(ctx: QAContext, scenario: str) -> list[tuple[str, str]]:
    """The (kind, attribute) pairs of ``scenario`` that change in some noise profile, in
    a fixed order."""

    def compute() -> list[tuple[str, str]]:
        seen = {
            (e.kind, a) for p in ctx.noise_profiles for e, a in changed(ctx, ctx.group(p, scenario))
        }
        return sorted(seen)

    return ctx.pool.remember(("change-types", scenario), compute)


def _layout(ctx: QAContext, scenario: str) -> tuple[int, ...]:
    """The type deck: each type of :func:`_types` on cards in proportion to one over the
    values it tells per entity (:func:`memsim.qa._history.told_rates`)."""

    def compute() -> tuple[int, ...]:
        types = _types(ctx, scenario)
        told = told_rates(ctx)
        weights = np.array([1 / told.get(t, 1.0) for t in types])
        cards = max(CARDS, len(types))
        counts = [max(1, round(w * cards)) for w in weights / max(weights.sum(), 1e-9)]
        return tuple(i for i, c in enumerate(counts) for _ in range(c))

    return ctx.pool.remember(("change-layout", scenario), compute)


def _realised(ctx: QAContext, scenario: str, kind: str, attr: str) -> dict[object, float]:
    """For each value dealt for (kind, attr) in ``scenario``: the share of noise
    profiles in which some changing history of it holds the value (so a question can
    make it the answer); values under ``LEAST_SHARE`` of the most realised are left out,
    and fewer than two values deal none."""

    def compute() -> dict[object, float]:
        hits: dict[object, int] = {}
        for p in ctx.noise_profiles:
            held = {
                s.value
                for e, a in changed(ctx, ctx.group(p, scenario))
                if e.kind == kind and a == attr
                for s in e.facts[a].history
            }
            for v in held:
                hits[v] = hits.get(v, 0) + 1
        top = max(hits.values(), default=0)
        kept = {v: c / len(ctx.noise_profiles) for v, c in hits.items() if c >= LEAST_SHARE * top}
        return kept if len(kept) >= 2 else {}

    return ctx.pool.remember(("change-realised", scenario, kind, attr), compute)


__all__ = ["CARDS", "TYPE_DECK", "DealtChange", "deal_change"]
