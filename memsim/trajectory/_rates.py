"""How often filler states each kind of fact: the table filler, noise and decoy
histories are drawn with, so that what a message is about (an age, a birthday, a
degree) says nothing about whether it is evidence.

Guarantees:
- estimated once per context, from drafts of every kind and scenario the dataset asks
  (``ctx.kinds``) about the noise profiles, each (kind, scenario) block on a stream of
  its own (``RATE_SEED`` and the block's names): every worker and shard gets the same
  table, whether one process drafts every block or workers share them out;
- the table is solved so that, over those drafts, each (entity kind, attribute) is said
  in non-evidence messages (filler, hard negatives, facts told for their values,
  noise) about the same number of times per evidence message as any other: filler
  makes up what the other non-evidence messages leave short, attribute by attribute
  (a fact asked where no look-alike is a hard negative, such as the user's birthday,
  gets more filler; one whose hard negatives already outnumber it, such as a relative's
  hometown, gets the floor);
- an attribute never asked, or already said enough as non-evidence, gets ``RATE_FLOOR``
  x the highest rate (still filler, rarely);
- within a trajectory, a spare fact of an attribute the question asks is weighted
  ``SAME_ATTRIBUTE`` times (:func:`filler_weights`), so the non-evidence speaks of what
  the evidence speaks of (the other people's ages beside a count by age, a relative's
  birthday beside the user's); the table is solved with that weight in place.
"""

from __future__ import annotations

import zlib
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from memsim._streams import stream
from memsim.profile import Profile
from memsim.qa import ASSISTANT_KINDS, QA_KINDS, Draft, QAContext, QAKind, planned_scenarios
from memsim.qa._strata import stratum
from memsim.schema import Schema

MESSAGES_PER_TRAJECTORY = (7, 11)
"""Total messages (before noise) for a one-part question; hybrids get 1.8x."""
CHIT_CHAT = 0.15
"""Chance of one chit-chat message (never evidence, so its wording would mark what is
not: kept rare)."""
RATE_DRAFTS = 96
"""Noise profiles drafted on, per kind and scenario, to estimate evidence rates (24
left the table noisy: one attribute's rate twice another draw's, and filler out of
proportion to the evidence by as much; about 5 s of CPU, once per dataset, shared out
over the workers by block)."""
RATE_SEED = 0
"""Seed of the drafts and decks the rates are estimated with (the same for every dataset)."""
RATE_FLOOR = 0.0001
"""Facts of an attribute never asked are still filler, this often relative to the most
asked one: rarely, since every such message is one more non-evidence message of words
no evidence has (at 0.01, with the highest rate up to ``RATE_SPREAD`` x the median
asked one, a never-asked attribute was drawn about half as often as an asked one: a
history-kinds-only dataset said a relative's age in 69 messages and asked it once, and
the people of those messages marked the rest as non-evidence)."""
BALANCE_STEPS = 20
"""Fixed-point steps that fit the per-fact rates to the filler each attribute needs,
given which facts each draft leaves spare."""
SAME_ATTRIBUTE = 6.0
"""A spare fact of an attribute the question asks (of any entity: the other people's
ages beside a count of colleagues by age) is drawn as filler this many times as often
as its rate says, so that within a trajectory the non-evidence speaks of what the
evidence speaks of (the rates are solved with it, so that over the dataset every
attribute is still evidence in the same share)."""
TOPIC_NOISE = 2
"""Facts of the asked attributes a one-part trajectory says beside the evidence: those
its profile lacks spare are said of the other life's people (noise) instead of filler."""
NEWTON_STEPS = 8
"""Steps of the search for each draft's pace in :func:`_expected`."""
RATE_SPREAD = 50.0
"""The highest rate is at most this many times the median asked one: an attribute
that no rate can bring to its share (too few of its facts are ever spare) does not
starve the others."""

Key = tuple[str, str]


def evidence_rates(ctx: QAContext) -> dict[Key, float]:
    """The weight of a fact of each (entity kind, attribute) when filler is drawn (see
    the module's guarantees). The kinds drafted are the dataset's own (``ctx.kinds``):
    a dataset of a few kinds drafted as if it asked every kind would fill with facts
    only other kinds ask."""
    return ctx.pool.remember(_memo_key(ctx), lambda: _evidence_rates(ctx))


def _memo_key(ctx: QAContext) -> tuple[str, tuple[str, ...]]:
    # a context copied with other kinds shares the pool, hence the kinds in the key
    return ("evidence-rates", ctx.kinds)


def filler_weights(
    rates: dict[Key, float], facts: Iterable[tuple[Key, str]], asked: set[str]
) -> NDArray[np.float64]:
    """The weight of each spare fact, given as ((entity kind, attribute), attribute):
    its rate, times ``SAME_ATTRIBUTE`` when the question asks that attribute."""
    return np.array(
        [rates.get(k, RATE_FLOOR) * (SAME_ATTRIBUTE if a in asked else 1.0) for k, a in facts]
    )


GROUP_TRANSFORMS = frozenset({"count", "count_between"})
"""Transforms whose answer ranges over every entity of a group's kinds."""


def topic_noise(draft: Draft, spare_asked: int) -> int:
    """Noise messages of the asked attributes, given how many facts of them the
    profile has spare for filler. None where another life's person could enter the
    answer: a question over a group (a reader would count "my uncle is 60" with the
    relatives: the audit's ``group_closed``), a condition ("my relative who lives in
    Chicago": another might meet it) or a hybrid (its parts may be either)."""
    if (
        draft.scenario == "hybrid"
        or draft.transform in GROUP_TRANSFORMS
        or "condition" in draft.params
    ):
        return 0
    return max(0, TOPIC_NOISE - spare_asked)


def asked_attributes(draft: Draft) -> set[str]:
    """The attributes a draft's evidence says."""
    return {f.attribute for f in draft.evidence}


Block = tuple[str, str]
"""A (QA kind, scenario) whose drafts are drawn together, on a stream of its own."""


@dataclass(frozen=True)
class Tally:
    """What one block's drafts say: evidence messages (``asked``) and non-evidence
    messages not drawn by rate (``other``) per (entity kind, attribute), weighted by
    the block's share of its kind, and per draft (messages drawn by rate, spare facts,
    attributes asked)."""

    asked: dict[Key, float]
    other: dict[Key, float]
    drafted: list[tuple[float, Counter[Key], set[str]]]


def rate_blocks(schema: Schema, kinds: tuple[str, ...]) -> list[Block]:
    """The blocks the table of a context of ``kinds`` (its ``ctx.kinds``: empty, every
    kind) is drafted in, in the order their tallies are added up: the registry's order
    of kinds whatever the dataset's, then each kind's planned scenarios. Kinds whose
    evidence the assistant says (made for histories only) take no part: the user's
    filler stands beside evidence the user says."""
    asks = [n for n in QA_KINDS.names() if n not in ASSISTANT_KINDS]
    names = [n for n in asks if not kinds or n in kinds]
    return [(name, s) for name in names for s in planned_scenarios(schema, name)]


def draft_block(ctx: QAContext, block: Block) -> Tally:
    """The tally of one block's drafts, from the block's own stream (keyed by its
    kind and scenario names): the same in any process, in any order, beside any other
    blocks, so workers can draft the blocks apart and :func:`rates_from` add them up."""
    name, scenario = block
    key = zlib.crc32(f"{name}/{scenario}".encode())
    rng = stream(RATE_SEED, (15, key))
    kind = QA_KINDS.get(name)
    # as the plan asks them: a kind's questions are split evenly over the scenarios
    # the schema lets it ask, so a draft of a kind with many scenarios stands for
    # fewer questions
    share = 1 / max(len(planned_scenarios(ctx.schema, name)), 1)
    tally = Tally(defaultdict(float), defaultdict(float), [])
    by_id = {life.id: life for life in ctx.noise_profiles}
    for place, life in enumerate(ctx.noise_profiles[:RATE_DRAFTS]):
        draft = next(
            (d for t in range(20) if (d := _draft(ctx, kind, life, scenario, place, t, rng))),
            None,
        )
        if draft is None:
            continue
        facts = _facts_of(ctx, life)
        said, spare = _tally(draft, life, by_id, facts, tally.asked, tally.other, share)
        tally.drafted.append((share * _drawn(draft, said), spare, asked_attributes(draft)))
    return Tally(dict(tally.asked), dict(tally.other), tally.drafted)


def rates_from(tallies: Iterable[Tally]) -> dict[Key, float]:
    """The table from the blocks' tallies, given in :func:`rate_blocks` order (added
    up in that order, so the table is the same bytes however the blocks were shared
    out)."""
    asked: dict[Key, float] = defaultdict(float)
    other: dict[Key, float] = defaultdict(float)
    drafted: list[tuple[float, Counter[Key], set[str]]] = []
    for tally in tallies:
        for into, part in ((asked, tally.asked), (other, tally.other)):
            for k, v in part.items():
                into[k] += v
        drafted += tally.drafted
    return _balance(asked, other, drafted)


def has_rates(ctx: QAContext) -> bool:
    """Whether the context holds its table already (computed or handed in)."""
    return _memo_key(ctx) in ctx.pool.memo


def set_rates(ctx: QAContext, rates: dict[Key, float]) -> None:
    """Hand the context a table made elsewhere (by :func:`rates_from` on blocks drafted
    by workers): :func:`evidence_rates` returns it from then on."""
    ctx.pool.memo[_memo_key(ctx)] = rates


def _evidence_rates(ctx: QAContext) -> dict[Key, float]:
    return rates_from(draft_block(ctx, b) for b in rate_blocks(ctx.schema, ctx.kinds))


def _tally(
    draft: Draft,
    life: Profile,
    by_id: dict[str, Profile],
    facts: Counter[Key],
    asked: dict[Key, float],
    other: dict[Key, float],
    share: float,
) -> tuple[int, Counter[Key]]:
    """Add a draft's evidence messages to ``asked`` and the non-evidence messages it
    fixes (hard negatives, facts told for their values, noise about other lives) to
    ``other``; return how many messages it fixes and the facts it leaves spare for
    filler. Hearsay is not counted: its person ("my friend Grace") marks it whatever
    it says, so a classifier explains it by that and reads the rest by their facts."""

    def key(fact_id: str) -> Key:
        entity, attribute = fact_id.rsplit(".", 1)
        return life.entity(entity).kind, attribute

    def times(fact_id: str, role: str) -> int:
        # a history is told in as many messages as it has values
        return max(sum(s.role == role and s.fact.id == fact_id for s in draft.statements), 1)

    evidence = list(dict.fromkeys(f.id for f in draft.evidence))
    # a hard negative's history is told in statements, which its facts may not be in
    listed = (*(n.id for n in draft.negatives), *(s.fact.id for s in draft.statements))
    negatives = [f for f in dict.fromkeys(listed) if f not in evidence]
    told = [f for f in dict.fromkeys(t.id for t in draft.told) if f not in evidence + negatives]
    said = 0
    for ids, role, tally in ((evidence, "evidence", asked), (negatives, "negative", other)):
        for f in ids:
            n = times(f, role)
            tally[key(f)] += share * n
            said += n
    for f in told:
        other[key(f)] += share
    for pid, eid, attribute in dict.fromkeys(draft.mentions):
        source = by_id.get(pid)
        if source is not None:
            other[(source.entity(eid).kind, attribute)] += share
    used = Counter(key(f) for f in (*evidence, *negatives, *told, *(w.id for w in draft.withheld)))
    spare = facts - used
    if draft.span is None:  # the clocked builder says the asked attributes of others
        topic = asked_attributes(draft)
        noise = topic_noise(draft, sum(n for k, n in spare.items() if k[1] in topic))
        # of the other life's people (never its user), as many as it has of each kind
        users = {e.kind for e in life.entities if e.scenario == "user"}
        kinds = {k: n for k, n in facts.items() if k[1] in topic and k[0] not in users}
        for k, n in kinds.items():
            other[k] += share * noise * n / sum(kinds.values())
        said += noise if kinds else 0
    return said + len(told), spare


def _drawn(draft: Draft, said: int) -> float:
    """Messages a trajectory of the draft draws by rate: filler (and decoy histories),
    as the builder counts them, and a noisy question's noise."""
    low, high = MESSAGES_PER_TRAJECTORY
    if draft.scenario == "hybrid" and draft.span is None:
        low, high = int(low * 1.8), int(high * 1.8)
    filler = max(1.0, (low + high) / 2 - said - CHIT_CHAT)
    return filler + float(draft.params.get("noise", 0))


def _balance(
    asked: dict[Key, float],
    other: dict[Key, float],
    drafted: list[tuple[float, Counter[Key], set[str]]],
) -> dict[Key, float]:
    """Per-fact rates under which the drafts' filler brings each attribute's
    non-evidence messages to the same multiple of its evidence messages."""
    keys = sorted(set(asked).union(other, *(spare for _, spare, _ in drafted)))
    if not keys or not drafted:
        return {}
    ev = np.array([asked.get(k, 0.0) for k in keys])
    fixed = np.array([other.get(k, 0.0) for k in keys])
    drawn = np.array([n for n, _, _ in drafted])
    spare, boost = _matrices(keys, drafted)
    want = _wanted(ev, fixed, float(drawn.sum()))
    have = spare.sum(axis=0)
    live = (want > 0) & (have > 0)  # no rate says a fact never spare (a tautology)
    rate = np.where(live, want / np.maximum(have, 1e-12), 0.0)
    for _ in range(BALANCE_STEPS):
        got = _expected(rate * boost, drawn, spare)
        ratio = np.where(live & (got > 0), want / np.maximum(got, 1e-12), 1.0)
        rate = rate * np.clip(ratio, 0.5, 2.0)
        rate = np.minimum(rate, RATE_SPREAD * float(np.median(rate[live])))
    top = float(rate.max()) or 1.0
    return {k: max(float(r) / top, RATE_FLOOR) for k, r in zip(keys, rate, strict=True)}


def _matrices(
    keys: list[Key], drafted: list[tuple[float, Counter[Key], set[str]]]
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Per draft (a row) and (entity kind, attribute) (a column of ``keys``): the facts
    left spare, and ``SAME_ATTRIBUTE`` where the draft asks the column's attribute (else
    1). Filled by index arrays, and the boost once per set of attributes asked: a loop
    over every row and key cost 0.25 CPU s of the table's 0.45 (daily life, 3,600
    drafts), in the stretch where the workers wait for the table."""
    col = {k: i for i, k in enumerate(keys)}
    rows: list[int] = []
    cols: list[int] = []
    counts: list[float] = []
    by_asked: dict[frozenset[str], list[int]] = {}
    for row, (_, facts, attributes) in enumerate(drafted):
        rows += [row] * len(facts)
        cols += [col[k] for k in facts]
        counts += facts.values()
        by_asked.setdefault(frozenset(attributes), []).append(row)
    spare = np.zeros((len(drafted), len(keys)))
    spare[rows, cols] = counts
    boost = np.ones((len(drafted), len(keys)))
    for asked, group in by_asked.items():
        boosted = [i for i, k in enumerate(keys) if k[1] in asked]
        boost[np.ix_(group, boosted)] = SAME_ATTRIBUTE
    return spare, boost


def _wanted(
    ev: NDArray[np.float64], fixed: NDArray[np.float64], total: float
) -> NDArray[np.float64]:
    """Filler per attribute: k x evidence - the other non-evidence messages (none below
    0), with k the multiple at which the filler adds up to ``total``."""

    def filler(k: float) -> float:
        return float(np.maximum(k * ev - fixed, 0.0).sum())

    low, high = 0.0, 1.0
    while filler(high) < total and high < 1e6:
        high *= 2
    for _ in range(60):
        mid = (low + high) / 2
        low, high = (mid, high) if filler(mid) < total else (low, mid)
    return np.maximum(high * ev - fixed, 0.0)


def _expected(
    rate: NDArray[np.float64], drawn: NDArray[np.float64], spare: NDArray[np.float64]
) -> NDArray[np.float64]:
    """Filler messages of each attribute the drafts draw at these rates (one per
    attribute, or a row per draft). A draft draws
    its messages one by one without replacement, each in proportion to its rate: a fact
    of rate r is then drawn with chance about 1 - exp(-t r), t such that the chances add
    up to the draft's messages (a fact whose rate dwarfs the others' is drawn at most
    once, not as often as its share of the weight says). t by Newton's steps from 0,
    which approach the root from below (the sum is concave in t)."""
    need = np.minimum(drawn, 0.999 * spare.sum(axis=1))
    t = np.zeros(len(drawn))
    weighted = spare * rate  # the slope's first product, the same at every step
    for _ in range(NEWTON_STEPS):
        fall = np.exp(-t[:, None] * rate)
        gap = need - (spare * (1 - fall)).sum(axis=1)
        slope = (weighted * fall).sum(axis=1)
        t = t + np.where(slope > 0, gap / np.maximum(slope, 1e-300), 0.0)
    out: NDArray[np.float64] = (spare * -np.expm1(-t[:, None] * rate)).sum(axis=0)
    return out


def _draft(
    ctx: QAContext,
    kind: QAKind,
    life: Profile,
    scenario: str,
    place: int,
    attempt: int,
    rng: np.random.Generator,
) -> Draft | None:
    """A draft of ``kind`` as generation makes it: dealt from the decks
    (:mod:`memsim.qa._strata`) as trajectory ``place`` of a run of consecutive ones.
    Drawn without the decks, the drafts asked each attribute in its undealt share, not
    the dealt one the data has (the type deck deals the types a scenario asks equally
    often), so filler and noise, drawn by the table, were not in proportion to the
    evidence (daily life en: the user's occupation 0.14 of the top rate undealt, 0.25
    dealt; the user's work city 0.42 and 0.61)."""
    with stratum(RATE_SEED, place, attempt):
        return kind.make(ctx, life, scenario, rng)


def _facts_of(ctx: QAContext, life: Profile) -> Counter[Key]:
    """How many facts of each (entity kind, attribute) a profile has that filler may
    state (not a tautology of its entity's name, not an event on the timeline's first
    day), in its order."""
    from memsim.trajectory._build import _fillable  # the builder imports this module

    def count() -> Counter[Key]:
        fillable = _fillable(ctx, life)
        return Counter(
            (e.kind, f.attribute)
            for e in life.entities
            for f, early in fillable[id(e)]
            if not early
        )

    # counted once per profile, read by every block's draft about it
    return ctx.remember("filler-facts", life, count)


__all__ = [
    "CHIT_CHAT",
    "MESSAGES_PER_TRAJECTORY",
    "RATE_FLOOR",
    "Block",
    "Tally",
    "draft_block",
    "evidence_rates",
    "has_rates",
    "rate_blocks",
    "rates_from",
    "set_rates",
]
