"""What generation remembers to go faster gives what computing it afresh gives: a deck
kept once shuffled, a pair's order shares kept on its first entity, a kind's wordy and
person-name attributes kept per schema (real schema, real sampled profiles)."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np

from memsim.qa import make_context
from memsim.qa._keep import _order_share, order_share
from memsim.qa._strata import STRATA_STREAM, balanced, deck, stratum
from memsim.sampling import ProfileSampler
from memsim.schema import PersonName, load_schema
from memsim.trajectory._hearsay import _names
from memsim.verbalize import says_itself, tautologies

ROOT = Path(__file__).parents[2]


def test_a_kept_deck_is_the_permutation_its_stream_draws() -> None:
    for seed, salt, number, n in [(0, 7, 0, 4), (3, 12345, 9, 6), (11, 2**30 + 5, 2, 13)]:
        stream = np.random.default_rng(
            np.random.SeedSequence(seed, spawn_key=(STRATA_STREAM, salt, number))
        )
        assert deck(seed, salt, number, n) == tuple(stream.permutation(n).tolist())
        assert sorted(deck(seed, salt, number, n)) == list(range(n))
    # the n trajectories of one deck are dealt each card once; the next deck is another
    dealt = []
    for tid in range(12):
        with stratum(5, tid, 0):
            dealt.append(balanced(np.random.default_rng(0), 6, salt=99))
    assert sorted(dealt[:6]) == sorted(dealt[6:]) == list(range(6))
    assert dealt[:6] == list(deck(5, 99, 0, 6)) and dealt[6:] == list(deck(5, 99, 1, 6))


def test_remembered_order_shares_are_those_computed_afresh() -> None:
    ctx = make_context(load_schema(ROOT / "schemas" / "daily_life.en.yaml"), 0)
    profiles = list(ProfileSampler(ctx.net).profiles(4, 0, 3))
    pairs = [
        (a, b, attr)
        for p in profiles
        for a, b in itertools.permutations(ctx.with_user(p), 2)
        for attr in ("age", "education")
        if attr in a.facts and attr in b.facts and ctx.comparable((a, b), attr)
    ]
    assert len(pairs) > 10
    shares = [order_share(ctx, a, b, attr) for a, b, attr in pairs]
    assert any(s is not None for s in shares)
    for (a, b, attr), share in zip(pairs, shares, strict=True):
        assert share == _order_share(ctx, a, b, attr, 0)
        assert order_share(ctx, a, b, attr) is share  # the second ask is the kept answer
    # an entity of another profile with the same id is another pair, not the kept one
    a, b, attr = pairs[0]
    other = next(e for p in profiles for e in p.entities if e.id == b.id and e is not b)
    assert order_share(ctx, a, other, attr) == _order_share(ctx, a, other, attr, 0)


def test_kind_tables_match_the_per_fact_reading() -> None:
    for locale in ("en", "zh"):
        ctx = make_context(load_schema(ROOT / "schemas" / f"daily_life.{locale}.yaml"), 0)
        schema, found = ctx.schema, 0
        for profile in ctx.noise_profiles[:60]:
            names = []
            for e in profile.entities:
                said = frozenset(a for a in e.facts if says_itself(schema, ctx.loc, e, a))
                assert tautologies(schema, ctx.loc, e) == said, e.id
                found += len(said)
                names += [
                    str(f.value)
                    for a, f in e.facts.items()
                    if isinstance(schema.attributes_of(e.kind)[a].dist, PersonName)
                ]
            assert _names(schema, profile) == names
        assert found > 0, locale  # some names do hold a value ("阳光小区" is a 小区)
