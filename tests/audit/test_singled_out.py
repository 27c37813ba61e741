"""singled_out (remembered, and counting Trues) names the options the pairwise
definition names: one option differs on a feature from the others, which agree."""

from __future__ import annotations

import itertools

from memsim.audit._text import format_features, singled_out

PIECES = ["Boston", " Boston", "Boston ", "boston.", "Bo  ston", "ＢＯＳ", "波士顿。", "", " "]


def _pairwise(options: list[str]) -> list[tuple[int, str]]:
    """The definition, option by option: the others agree and this one differs."""
    feats = [format_features(o) for o in options]
    out = []
    for name in feats[0]:
        values = [f[name] for f in feats]
        for i, v in enumerate(values):
            rest = values[:i] + values[i + 1 :]
            if len(set(rest)) == 1 and v != rest[0] and len(values) > 2:
                out.append((i, name))
    return out


def test_singled_out_is_the_pairwise_definition() -> None:
    checked = 0
    for n in (1, 2, 3, 4, 5):
        for options in itertools.islice(itertools.product(PIECES, repeat=n), 3000):
            assert singled_out(list(options)) == _pairwise(list(options)), options
            assert singled_out(list(options)) == _pairwise(list(options))  # remembered
            checked += 1
    assert checked > 6000
    assert singled_out([" Boston", "Denver", "Austin", "Miami"]) == [(0, "leading whitespace")]
