"""Shard ranges: every I/N tiles the run, whatever the total."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memsim._shard import Shard, ShardError


@given(st.integers(1, 5000), st.integers(1, 64))
def test_shards_tile_the_run(total: int, count: int) -> None:
    ranges = [Shard(i, count).bounds(total) for i in range(count)]
    assert ranges[0][0] == 0 and ranges[-1][1] == total
    assert all(a[1] == b[0] for a, b in itertools.pairwise(ranges))
    sizes = [stop - start for start, stop in ranges]
    assert max(sizes) - min(sizes) <= 1


def test_parse() -> None:
    assert Shard.parse(" 2 / 8 ") == Shard(2, 8)
    assert Shard(2, 8).to_json(80) == {"index": 2, "of": 8, "start": 20, "stop": 30, "total": 80}


@pytest.mark.parametrize("spec", ["3/3", "1/0", "x", "1", "-1/2", "1/2/3"])
def test_bad_spec_is_refused(spec: str) -> None:
    with pytest.raises(ShardError, match="--shard"):
        Shard.parse(spec)


def test_more_shards_than_units_is_refused() -> None:
    with pytest.raises(ShardError, match="at most 5 shards"):
        Shard(0, 6).check_size(5, "profiles")
