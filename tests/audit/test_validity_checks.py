"""The content shortcuts (issue 15) on hand-made datasets: each check finds the shortcut
it is about, and stays quiet on data without it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from memsim.audit import load_context, open_source, run_audit
from memsim.audit._blind import _null_spread, option_docs
from memsim.audit._logistic import CV_SE_FACTOR
from memsim.audit._mentioned import mention_scores, words
from memsim.audit._textmodel import auc, out_of_fold, tfidf, tokens
from tests.audit.conftest import GOOD_TIMES, record

N = 60
CITIES = ["Boston", "Denver", "Austin", "Miami", "Dallas", "Tucson", "Reno", "Omaha"]
Make = Callable[[str, list[dict[str, Any]]], Path]


def _item(
    i: int, options: list[str], gold: int, messages: list[str], **extra: Any
) -> dict[str, Any]:
    r = record(i, GOOD_TIMES[: len(messages)] if len(messages) <= 3 else _times(len(messages)))
    for m, text in zip(r["message_list"], messages, strict=True):
        m["message"] = text
    letters = "ABCD"
    r["QA"].update(
        question="Where does my cousin work?",
        answer=options[gold],
        choices=dict(zip(letters, options, strict=True)),
        ground_truth=letters[gold],
        **extra,
    )
    return r


def _times(n: int) -> list[str]:
    return [f"2024-05-01T{8 + i:02d}:00" for i in range(n)]


def _run(folder: Path, check: str) -> Any:
    return run_audit(load_context(open_source(folder)), [check]).results[check]


def test_mentioned_option_finds_an_answer_said_alone(raw_native: Make) -> None:
    rng = np.random.default_rng(0)
    alone, all_said = [], []
    for i in range(N):
        cities = [CITIES[j] for j in rng.permutation(len(CITIES))[:4]]
        gold = int(rng.integers(4))
        alone.append(_item(i, cities, gold, [f"My cousin works in {cities[gold]}.", "Hi."]))
        said = [f"My cousin works in {cities[gold]}."] + [
            f"A friend works in {c}." for j, c in enumerate(cities) if j != gold
        ]
        all_said.append(_item(i, cities, gold, said))
    found = _run(raw_native("alone", alone), "shortcut_mentioned_option")
    assert found.severities["error"] >= 1
    assert found.stats.scores["simple"]["accuracy"] == 1.0
    clean = _run(raw_native("said", all_said), "shortcut_mentioned_option")
    assert clean.severities["error"] == 0
    assert clean.stats.scores["simple"]["accuracy"] == 0.25


def test_mention_scores_count_parts_and_skip_bare_numbers() -> None:
    said = words("My cousin works in Boston; she's 35 years old. 我的表哥在上海工作。")
    options = ["Boston; 30", "Denver; 30", "30", "Boston", "5 years", "35 years", "上海"]
    assert mention_scores(options, said) == [1, 0, 0, 1, 0, 1, 1]


def test_blind_classifier_learns_a_fixed_answer_text(raw_native: Make) -> None:
    rng = np.random.default_rng(1)
    items = []
    for i in range(N):
        others = [CITIES[j] for j in rng.permutation(len(CITIES))[:3]]
        gold = int(rng.integers(4))
        options = [*others[:gold], "Springfield", *others[gold:]]
        items.append(_item(i, options, gold, ["My cousin works in Springfield."]))
    found = _run(raw_native("fixed", items), "shortcut_blind_classifier")
    assert found.stats.scores["simple"]["accuracy"] > 0.9
    assert found.severities["error"] >= 1


def test_blind_classifier_is_near_chance_on_exchangeable_options(raw_native: Make) -> None:
    rng = np.random.default_rng(2)
    items = []
    for i in range(3 * N):
        cities = [CITIES[j] for j in rng.permutation(len(CITIES))[:4]]
        items.append(_item(i, cities, int(rng.integers(4)), ["Hello."]))
    result = _run(raw_native("fair", items), "shortcut_blind_classifier")
    assert result.severities["error"] == 0
    assert abs(result.stats.scores["simple"]["accuracy"] - 0.25) < 0.1


def test_option_docs_mark_the_order_the_question_names_options_in() -> None:
    docs = option_docs("My mother or my boss: who is older?", ["My boss", "My mother", "Same"])
    assert "named:1" in docs[0] and "named:0" in docs[1] and "named:no" in docs[2]


def test_outcome_shares_find_a_recurring_option_that_is_always_right(raw_native: Make) -> None:
    rng = np.random.default_rng(3)
    items = []
    for i in range(N):
        cities = [CITIES[j] for j in rng.permutation(len(CITIES))[:3]]
        gold = int(rng.integers(4))
        items.append(_item(i, [*cities[:gold], "They are the same", *cities[gold:]], gold, ["Hi."]))
    result = _run(raw_native("same", items), "outcome_shares")
    assert result.stats.scores["simple"]["option theyarethesame"] == 1.0
    assert result.severities["error"] >= 1


def test_evidence_text_separates_a_topic_that_is_always_evidence(raw_native: Make) -> None:
    items = []
    for i in range(N):
        messages = [
            f"My cousin is {30 + i % 9} years old.",
            "I love my hobby of knitting.",
            "My hobby is chess.",
            "My hobby is golf.",
        ]
        r = _item(i, CITIES[:4], 0, messages)
        r["QA"]["target_step_id"] = [0]
        items.append(r)
    result = _run(raw_native("topic", items), "shortcut_evidence_text")
    assert result.stats.scores["all"]["auc"] > 0.9
    assert result.severities["error"] >= 1


def test_text_model_is_at_chance_on_labels_unrelated_to_text() -> None:
    rng = np.random.default_rng(4)
    docs = [tokens(f"My cousin works in {CITIES[int(rng.integers(8))]}.") for _ in range(400)]
    y = (rng.random(400) < 0.3).astype(float)
    scores = out_of_fold(tfidf(docs), y, np.arange(400, dtype=np.int64))
    assert abs(auc(scores, y)[0] - 0.5) < 0.1


def test_tokens_split_cjk_into_bigrams() -> None:
    assert tokens("我的表哥在上海") == ["我的", "的表", "表哥", "哥在", "在上", "上海"]
    assert tokens("My cousin, 30!") == ["my", "cousin", "30"]


def test_blind_interval_is_the_shuffled_answers_spread(raw_native: Make) -> None:
    # four cities in every question, the answer drawn at random: nothing to learn, but
    # a fitted reader errs on all of one city's questions at once, so its accuracy
    # spreads wider than a binomial one
    rng = np.random.default_rng(4)
    rows = []
    for _ in range(3 * N):
        cities = [CITIES[j] for j in rng.permutation(4)]
        docs = option_docs("Where does my cousin work?", cities)
        rows.append(("roles", docs, int(rng.integers(4))))
    x = tfidf([d for _, ds, _ in rows for d in ds])
    spread = _null_spread("simple", rows, x)
    binomial = (0.25 * 0.75 / len(rows)) ** 0.5
    assert spread["simple"] > binomial and spread["simple/roles"] == spread["simple"]
    # a real shortcut is still found through the wider interval, which it reports
    items = []
    for i in range(N):
        others = [CITIES[j] for j in rng.permutation(len(CITIES))[:3]]
        gold = int(rng.integers(4))
        items.append(_item(i, [*others[:gold], "Springfield", *others[gold:]], gold, ["Hi."]))
    found = _run(raw_native("fixed2", items), "shortcut_blind_classifier")
    assert found.severities["error"] >= 1
    assert found.stats.scores["simple"]["null_sd"] > 0


def test_a_pair_auc_counts_the_trajectories_that_hold_its_pairs() -> None:
    from memsim.audit._classifier import _paired

    # groups 0 and 1 hold both labels (trajectories 7 and 8); group 2 only positives
    y = np.array([1.0, 0.0, 0.0, 1.0, 0.0, 1.0, 1.0])
    groups = np.array([0, 0, 0, 1, 1, 2, 2])
    trajectories = np.array([7, 7, 7, 8, 8, 9, 9])
    assert _paired(y, groups, trajectories) == 2


def test_evidence_text_widens_its_standard_error_for_the_fitted_folds(raw_native: Make) -> None:
    """The reported AUC error is Hanley and McNeil's times CV_SE_FACTOR: the fold models
    are fitted on samples too, which the pairs' own spread does not see."""
    rng = np.random.default_rng(7)
    items, docs, labels = [], [], []
    for i in range(N):
        messages = [f"My cousin works in {CITIES[int(c)]}." for c in rng.integers(8, size=4)]
        r = _item(i, CITIES[:4], 0, messages)
        r["QA"]["target_step_id"] = [0]
        items.append(r)
        docs += [tokens(m) for m in messages]
        labels += [1.0, 0.0, 0.0, 0.0]
    result = _run(raw_native("noise", items), "shortcut_evidence_text")
    y = np.array(labels)
    groups = np.repeat(np.arange(N), 4).astype(np.int64)
    value, se = auc(out_of_fold(tfidf(docs), y, groups), y)
    reported = result.stats.scores["all"]
    assert reported["auc"] == round(value, 4)
    assert reported["auc_se"] == round(se * CV_SE_FACTOR, 4)
    assert CV_SE_FACTOR == 1.5
