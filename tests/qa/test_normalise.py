"""Options count as the same after normalisation, in any script."""

from __future__ import annotations

import numpy as np

from memsim.qa import normalise, pick_distinct


def test_punctuation_of_any_script_and_width_and_case_fold_away() -> None:
    assert normalise("稳定支撑佳，透气性待改善。") == normalise("稳定支撑佳 透气性待改善")
    assert normalise("“欢乐谷”") == normalise("欢乐谷")
    assert normalise("ｉＰｈｏｎｅ　１３") == normalise("iPhone 13")
    assert normalise("Harper & Stone, LLP.") == normalise("harper   stone llp")
    assert normalise("SK-II") == normalise("sk ii")


def test_different_words_stay_different() -> None:
    assert normalise("五百人") != normalise("五千人")
    assert normalise("周三") != normalise("周四")
    assert normalise("a1@b.com") != normalise("a2@b.com")


def test_distractors_that_differ_only_in_punctuation_are_not_both_picked() -> None:
    rng = np.random.default_rng(0)
    picked = pick_distinct(
        ["绿洲家园。", "绿洲家园", "阳光小区", "幸福家园"], ["阳光小区！"], 2, rng
    )
    assert picked is not None
    assert sorted(normalise(p) for p in picked) == sorted({"绿洲家园", "幸福家园"})
