"""E-mail fills from a name's parts equal the fills from the whole name (memsim.sampling._names)."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pytest

from memsim.graph import BRNet
from memsim.sampling import ProfileSampler
from memsim.sampling._email import sample_email
from memsim.sampling._kinds import Batch
from memsim.sampling._names import NameParts, _field_order, name_fills
from memsim.sampling._pieces import join
from memsim.sampling._random import Uniforms, profile_keys
from memsim.sampling._strings import ascii_words
from memsim.schema import load_schema

ROOT = Path(__file__).resolve().parents[2]
FIELDS = {"first", "last", "all", "initial", "initials"}


def _whole(words: list[str]) -> dict[str, str]:
    """The fills as the row-by-row path makes them from a whole name's words."""
    return {
        "first": words[0] if words else "",
        "last": words[-1] if words else "",
        "all": "".join(words),
        "initial": words[0][0] if words else "",
        "initials": "".join(w[0] for w in words),
    }


@pytest.mark.parametrize("fmt", ["{first} {last}", "{last}, {first}", "{first}-{last}"])
def test_fills_from_parts_equal_fills_from_the_whole_name(fmt: str) -> None:
    firsts = ("José", "Mary Ann", "", "张", "O'Neil", "Zoë", "--")
    lasts = ("Smith", "de la Cruz", "", "欧阳", "Nguyễn", "X")
    pairs = list(itertools.product(range(len(firsts)), range(len(lasts))))
    first_codes = np.array([f for f, _ in pairs], dtype=np.int64)
    last_codes = np.array([x for _, x in pairs], dtype=np.int64)
    parts = NameParts(fmt, {"first": (first_codes, firsts), "last": (last_codes, lasts)})
    found = name_fills(parts, FIELDS, {})
    assert found is not None
    pieces, wordless = found
    fills = {k: join(pieces[k], len(pairs)).tolist() for k in FIELDS}
    for row, (f, x) in enumerate(pairs):
        words = ascii_words(fmt.format(first=firsts[f], last=lasts[x]))
        assert {k: fills[k][row] for k in FIELDS} == _whole(words), (firsts[f], lasts[x])
        assert bool(wordless[row]) == (not words)


@pytest.mark.parametrize(
    ("fmt", "order"),
    [
        ("{first} {last}", ("first", "last")),
        ("{last} {first}", ("last", "first")),
        ("{last}{first}", None),  # nothing between: a word could run on across the join
        ("Dr. {first} {last}", None),  # a literal with letters adds words
        ("{first:>5} {last}", None),
        ("{first} {first}", None),
    ],
)
def test_field_order_only_when_the_parts_stay_apart(fmt: str, order: object) -> None:
    assert _field_order(fmt) == order


def test_a_spelling_of_two_characters_takes_the_whole_name_path() -> None:
    codes = np.zeros(1, dtype=np.int64)
    parts = NameParts("{first} {last}", {"first": (codes, ("阳",)), "last": (codes, ("欧",))})
    assert name_fills(parts, FIELDS, {"欧阳": "ouyang"}) is None
    assert name_fills(parts, FIELDS, {"欧": "ou"}) is not None


@pytest.mark.parametrize("locale", ["en", "zh"])
def test_sampled_emails_are_the_same_with_and_without_name_parts(locale: str) -> None:
    net = BRNet(load_schema(ROOT / "schemas" / f"daily_life.{locale}.yaml"))
    sampler = ProfileSampler(net)
    batch = Batch(net, sampler.conditionals, {}, Uniforms(profile_keys(0, 0, 500)), sampler.draws)
    emails = []
    for node, draw in sampler._samplers:
        batch.columns[node.id] = draw(node, batch)
        if node.dist_kind == "email":
            emails.append(node)
    assert emails and batch.name_parts
    for node in emails:
        fast = batch.columns[node.id]
        slow = sample_email(node, Batch(**{**batch.__dict__, "name_parts": {}, "distinct": {}}))
        assert fast.tolist() == slow.tolist()


def test_no_one_is_named_martin_martin() -> None:
    """A last name that is the first name is drawn again: make dataset's en profiles had
    "Martin Martin" (en_US: 1 in about 2,300 male names); none among 6,000 profiles'
    30,000 names now, in either locale (without the redraw: James James, Jordan Jordan,
    Taylor Taylor, ... in en)."""
    from memsim.sampling._person import _twins

    for locale in ("en", "zh"):
        schema = load_schema(ROOT / "schemas" / f"daily_life.{locale}.yaml")
        assert (_twins("en_US" if locale == "en" else "zh_CN") >= 0).any()  # it can happen
        sampler = ProfileSampler(BRNet(schema))
        names = [
            str(f.value).split() if locale == "en" else [str(f.value)[:1], str(f.value)[1:]]
            for p in sampler.profiles(0, 0, 6000)
            for e in p.entities
            for f in e.facts.values()
            if f.attribute == "name" and e.scenario in ("user", "roles")
        ]
        assert len(names) >= 30_000
        assert not [n for n in names if len(n) == 2 and n[0] == n[-1]]
