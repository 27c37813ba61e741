"""Per-profile streams: profile k is the same whatever N, the batch or the shard, and
the vectorised pieces agree with their one-at-a-time definitions."""

from __future__ import annotations

import numpy as np
import pytest
from numpy.typing import NDArray

from memsim.graph import BRNet, inverse_cdf
from memsim.profile import Fact
from memsim.sampling import ProfileSampler, build_profiles, profile_keys
from memsim.sampling._discrete import GuideTable, WeightedPicks
from memsim.sampling._patterns import (
    _fill_by_pattern,
    _fill_by_position,
    _sources,
    digits_matrix,
    fill_patterns,
)
from memsim.sampling._pieces import Piece, join
from memsim.sampling._strings import (
    as_strings,
    distinct_rows,
    format_distinct,
    positional,
    vector_format,
)
from memsim.schema import load_schema


@pytest.mark.parametrize("seed", [0, 7, 2**40 + 3, 2**130 + 5])
@pytest.mark.parametrize("start", [0, 1000, 2**32 - 3])
def test_profile_keys_are_the_seed_sequence_children(seed: int, start: int) -> None:
    expected = [
        np.random.SeedSequence(seed, spawn_key=(k,)).generate_state(2, np.uint64)
        for k in range(start, start + 6)
    ]
    assert (profile_keys(seed, start, start + 6) == np.array(expected)).all()


@pytest.mark.parametrize("schema", ["schemas/daily_life.en.yaml", "schemas/daily_life.zh.yaml"])
def test_profile_k_is_the_same_whatever_n_batch_or_shard(schema: str) -> None:
    sampler = ProfileSampler(BRNet(load_schema(schema)))
    whole = list(sampler.profiles(3, 0, 40))
    assert list(sampler.profiles(3, 0, 40, batch_size=7)) == whole
    shards = [list(sampler.profiles(3, lo, min(lo + 14, 40), batch_size=5)) for lo in (0, 14, 28)]
    assert [p for shard in shards for p in shard] == whole
    assert list(sampler.profiles(3, 25, 26)) == whole[25:26]


def test_guide_table_draws_the_inverse_cdf_of_the_centred_uniform() -> None:
    rng = np.random.default_rng(0)
    probs = rng.random((30, 7)) ** 3
    probs[3, :6] = 0.0  # a row with one value
    probs[4, 2] = 0.0
    table = GuideTable.of(probs)
    rows = rng.integers(0, 30, 50_000).astype(np.intp)
    bits = rng.integers(0, 2**53, 50_000, dtype=np.uint64)
    bits[:8] = [0, 1, 2**53 - 1, 2**52, 2**45, 2**45 - 1, 2**43 + 7, 3]
    u = (bits.astype(np.float64) + 0.5) * 2.0**-53
    assert (table.draw(rows, bits) == inverse_cdf(probs[rows], u)).all()
    assert (GuideTable.of(probs[:1]).draw(None, bits) == inverse_cdf(probs[[0] * 50_000], u)).all()


@pytest.mark.parametrize("size", [1, 2, 7, 1000])
def test_weighted_picks_are_the_binary_search(size: int) -> None:
    rng = np.random.default_rng(size)
    weights = rng.random(size) ** 8  # skewed, as name frequencies are
    weights[rng.random(size) < 0.2] = 0.0  # runs of equal cumulative weights
    weights[0] += 1e-9
    cdf = np.cumsum(weights / weights.sum())
    bits = rng.integers(0, 2**53, 50_000, dtype=np.uint64)
    bits[:4] = [0, 1, 2**53 - 1, 2**52]
    u = (bits.astype(np.float64) + 0.5) * 2.0**-53
    u = np.concatenate([u, [0.0], cdf / cdf[-1], np.nextafter(cdf / cdf[-1], 0)])
    u = u[u < 1]  # u * 2 - 1 of the gender draw may be 0
    expected = np.minimum(np.searchsorted(cdf, u * cdf[-1], side="right"), size - 1)
    assert (WeightedPicks(cdf).pick(u) == expected).all()


def test_distinct_slots_never_share_a_value() -> None:
    net = BRNet(load_schema("schemas/daily_life.en.yaml"))
    columns = ProfileSampler(net).sample_batch(1, 0, 5000).columns
    distinct = [n for n in net if n.attribute.distinct]
    assert distinct
    for node in distinct:
        for pid in node.parents:
            parent = net[pid]
            if (parent.key.kind, parent.key.attr) == (node.key.kind, node.key.attr):
                assert not (columns[node.id] == columns[pid]).any()


def test_vector_format_is_str_format() -> None:
    fills = {"first": as_strings(["Ann", "李", ""]), "last": as_strings(["Lee", "伟", "X"])}
    for fmt in ["{first} {last}", "{last}{first}", "{{x}} {first}!", "{first:>5}|{last}", "plain"]:
        rows = [
            fmt.format(first=f, last=la)
            for f, la in zip(fills["first"], fills["last"], strict=True)
        ]
        assert vector_format(fmt, fills, 3).tolist() == rows


@pytest.mark.parametrize(
    "fmt",
    ["{a} at {b}", "{b}{a}{b}", "{{a}} {a!r:>6}|{b:.2}", "}} plain {{", "{a.real}", "{c}", "{}"],
)
def test_positional_formats_as_the_named_fields(fmt: str) -> None:
    names, values = ("a", "b"), ("Ann", "李伟")
    numbered = positional(fmt, names)
    try:
        expected = fmt.format(**dict(zip(names, values, strict=True)))
    except (KeyError, IndexError, AttributeError):
        assert numbered is None  # left to the named path, which raises as before
        return
    assert numbered is not None and numbered.format(*values) == expected


def test_format_distinct_formats_each_combination_once() -> None:
    keys = [np.array([0, 1, 0, 1, 2]), np.array([5, 5, 5, 6, 5])]
    made: list[int] = []

    def make(rows: NDArray[np.intp]) -> list[str]:
        made.extend(rows.tolist())
        return [f"{keys[0][row]}-{keys[1][row]}" for row in rows]

    assert format_distinct(keys, make, 5).tolist() == ["0-5", "1-5", "0-5", "1-6", "2-5"]
    assert len(made) == 4


@pytest.mark.parametrize("spread", [3, 10**6])
def test_distinct_rows_give_one_row_per_combination(spread: int) -> None:
    """The dense table (few possible combinations) and the sort (many) agree with a
    dictionary of the combinations."""
    rng = np.random.default_rng(spread)
    keys = [rng.integers(0, spread, 2000), rng.integers(0, 3, 2000)]
    codes, rows = distinct_rows(keys, 2000)
    pairs = list(zip(keys[0].tolist(), keys[1].tolist(), strict=True))
    assert len(rows) == len(set(pairs))
    got = [(int(keys[0][rows[c]]), int(keys[1][rows[c]])) for c in codes.tolist()]
    assert got == pairs


@pytest.mark.parametrize(
    "patterns",
    [
        ["D###", "####-%#", "W%##-##", "", "x", "414720##", "电话#%"],  # mixed
        ["212#%##", "310#%##", "41##%##"],  # a prefix, then the same slots
    ],
)
def test_fill_patterns_replaces_each_slot_in_order(patterns: list[str]) -> None:
    rng = np.random.default_rng(3)
    codes = rng.integers(0, len(patterns), 500)
    digits = (ord("0") + rng.integers(0, 10, (500, 6))).astype(np.uint32)
    ones = (ord("1") + rng.integers(0, 9, (500, 2))).astype(np.uint32)
    slots = {"#": digits, "%": ones}
    expected = []
    for row, code in enumerate(codes.tolist()):
        taken = {"#": iter(digits[row].tolist()), "%": iter(ones[row].tolist())}
        expected.append("".join(chr(next(taken[c])) if c in taken else c for c in patterns[code]))
    assert fill_patterns(codes, patterns, slots).tolist() == expected
    # both ways of filling the matrix, whichever fill_patterns chose here
    width = max(len(p) for p in patterns)
    sources = [_sources(p, slots, width) for p in patterns]
    for fill in (_fill_by_position, _fill_by_pattern):
        matrix = np.empty((500, width), dtype=np.uint32)
        fill(matrix, codes, sources, slots)
        assert matrix.view(f"<U{width}")[:, 0].tolist() == expected, fill.__name__


def test_digits_matrix_is_each_number_zero_padded_side_by_side() -> None:
    rng = np.random.default_rng(7)
    first = rng.integers(0, 10**6, size=200, dtype=np.int64)
    second = rng.integers(0, 10**3, size=200, dtype=np.int64)
    matrix = digits_matrix([(first, 6), (second, 3)])
    texts = matrix.view("<U9")[:, 0].tolist()
    assert texts == [
        f"{a:06d}{b:03d}" for a, b in zip(first.tolist(), second.tolist(), strict=True)
    ]


@pytest.mark.parametrize("rows", [None, [3, 0, 2]])
def test_join_concatenates_literals_and_coded_columns(rows: list[int] | None) -> None:
    small = (np.array([1, 0, 1, 1]), as_strings(["a", "bb"]))
    big = (np.array([4, 3, 2, 0]), as_strings(["k0", "k1", "k2", "k3", "k4"]))
    picked = None if rows is None else np.array(rows, dtype=np.intp)
    cases: list[list[Piece]] = [
        ["<", small, ".", big, "", ">"],
        [big, "-", "-", big, small],
        ["only", " literals"],
        [],
        ["x", big, "y"],
    ]
    for pieces in cases:
        got = join(pieces, 4, picked).tolist()
        expected = [
            "".join(p if isinstance(p, str) else str(p[1][p[0][r]]) for p in pieces)
            for r in (range(4) if rows is None else rows)
        ]
        assert got == expected, pieces


def test_built_facts_are_the_constructors() -> None:
    """build_profiles makes its Facts a column at once (tuple.__new__), and they are
    the Facts the constructor makes, of the schema's attributes in order."""
    net = BRNet(load_schema("schemas/daily_life.en.yaml"))
    for profile in build_profiles(net, ProfileSampler(net).sample_batch(2, 0, 30)):
        for entity in profile.entities:
            assert list(entity.facts) == list(net.schema.attributes_of(entity.kind))
            for name, fact in entity.facts.items():
                assert type(fact) is Fact and fact.attribute == name
                assert fact == Fact(fact.id, name, fact.type, fact.value, fact.unit)
                assert fact.id == f"{entity.id}.{name}" and fact.history == ()
