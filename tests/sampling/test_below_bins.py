"""A categorical drawn from a table, a copy or a lookup whose parent is a class binned
from a number (a licence level given a standing binned from years of service): such a
node is outside the pgmpy network (its ancestry holds a number) but is drawn from its
table like any categorical, changes within what its row allows, and is sampled the
same in any batch. It used to pass `memsim schema validate` and make `memsim profiles`
fail with a KeyError."""

from __future__ import annotations

from collections import Counter

from memsim.graph import BRNet
from memsim.sampling import ProfileSampler, sample_profiles
from memsim.schema import parse_schema

SCHEMA = """format_version: 2
name: t
version: '1'
locale: en
timeline: {start: 2024-01-01, end: 2024-12-31}
entities:
  k:
    count: 1
    scenario: user
    refer: {en: I}
    attributes:
      years:
        type: integer
        min: 0
        max: 30
        dist: {kind: uniform_int, low: 0, high: 30}
      standing:
        type: categorical
        values: [new, senior]
        dist: {kind: derived, of: [years], bins: {new: 0, senior: 15}}
      licence:
        type: categorical
        values: [club, national, elite]
        dist:
          kind: table
          parents: [standing]
          rows:
            new: {club: 1.0, national: 0.0, elite: 0.0}
            senior: {club: 0.0, national: 0.5, elite: 0.5}
        changes: {p: 1.0, at_least: 1, cause: exam, said: {en: my exam}}
      badge:
        type: categorical
        values: [club, national, elite]
        dist: {kind: copy, sources: {licence: 0.5}, otherwise: {kind: categorical}}
      tier:
        type: categorical
        values: [low, high]
        dist: {kind: derived, of: [badge], lookup: {club: low}, default: high}
"""


def test_a_table_below_a_binned_class_is_drawn_from_its_rows() -> None:
    net = BRNet(parse_schema(SCHEMA))
    assert not net["k.licence"].discrete  # outside the pgmpy network, as before
    profiles = sample_profiles(net, 3, 400)
    pairs = Counter((p.fact("k.standing").value, p.fact("k.licence").value) for p in profiles)
    assert set(pairs) <= {("new", "club"), ("senior", "national"), ("senior", "elite")}
    assert pairs[("new", "club")] > 100 and pairs[("senior", "elite")] > 50
    for p in profiles:  # a lookup below the table follows it
        assert p.fact("k.tier").value == ("low" if p.fact("k.badge").value == "club" else "high")
    copied = sum(p.fact("k.badge").value == p.fact("k.licence").value for p in profiles)
    assert copied > 0.55 * len(profiles)  # half copied, the rest uniform (a third agree)


def test_its_changes_stay_inside_the_row_and_batches_agree() -> None:
    net = BRNet(parse_schema(SCHEMA))
    profiles = sample_profiles(net, 5, 200)
    seniors = [p for p in profiles if p.fact("k.standing").value == "senior"]
    assert seniors
    for p in seniors:  # a senior's licence can only move between national and elite
        assert {step.value for step in p.fact("k.licence").history} <= {"national", "elite"}
    whole = [p.to_json() for p in profiles]
    split = [
        p.to_json()
        for lo in (0, 77)
        for p in ProfileSampler(net).profiles(5, lo, 77 if lo == 0 else 200)
    ]
    assert whole == split
