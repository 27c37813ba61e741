"""The blind classifier: can a model that sees only the question and its options,
never the conversation, learn which option is right?

Each option becomes a row of hashed TF-IDF features (:mod:`memsim.audit._textmodel`):
its words, the words it shares with the question, the order in which the question names
it among the options it names (comparisons: the first or the second entity), its rank
by length and, for numbers, by value, and, for two-part (hybrid) options, how many
other options share each part. A logistic regression is fitted with 5-fold
cross-validation grouped by question, per QA kind; the option with the highest
out-of-fold score is picked (ties credited fractionally). A clean result: for every
kind, and for every kind and scenario, the pick is right within ``shortcut_margin`` of
chance.

The interval around an excess is the wider of the binomial one and the spread of the
same classifier's accuracy with the answers shuffled (``SHUFFLES`` times, each answer
moved to a uniformly drawn option of its own question, seeded by the kind): options
that carry no structure *are* such a shuffle, so that spread is the honest null. It
is wider than the binomial one, since a fitted reader errs on whole groups of
questions at once (the same attribute's values): on shopping's simple questions at
n = 84 the shuffled accuracies' standard deviation was 0.057 against 0.047, and 1% of
shuffled cells passed the binomial z of 3. Only kinds that the binomial interval
would make an error are shuffled: a wider interval can only lower a verdict, so a
warning or a pass needs no refit (4.4 -> 0.9 CPU s on make dataset's 4,500 questions
with one warning).
"""

from __future__ import annotations

import math
import re
import zlib
from collections import Counter, defaultdict

import numpy as np
from scipy import sparse

from memsim.audit._context import AuditContext
from memsim.audit._framework import dataset_check
from memsim.audit._shortcuts import Accuracy, credit
from memsim.audit._text import squash
from memsim.audit._textmodel import level, out_of_fold, tfidf, tokens
from memsim.audit._types import AuditItem, CheckStats, Finding, finding

NAME = "shortcut_blind_classifier"
FIT_STEPS = 300
"""Nesterov steps of each fit (see :mod:`memsim.audit._textmodel`). 100 steps moved the
accuracies per kind by at most 0.004 (make dataset en), 0.006 (zh), 0.010 (MemDaily) and
saved about 0.3 CPU s, but turned a held-out domain's verdict on the same data (kitchen zh,
seed 0, 900 profiles: temporal 0.40 at z 2.8, a warning, to 0.41 at z 3.1, an error): a
speed change must not move a verdict."""
PER_KIND = 3000
"""Questions kept per kind (the first ones; the dataset is grouped by kind)."""
SHUFFLES = 40
"""Refits with shuffled answers behind an interval (see the module)."""
_PART = re.compile(r"\s*[;；]\s*")
_NUMBER = re.compile(r"^-?\d+(?:\.\d+)?$")


def option_docs(question: str, options: list[str]) -> list[list[str]]:
    """The tokens of each option's row."""
    asked = squash(question)
    q_words = set(tokens(question))
    keys = [squash(o) for o in options]
    named = sorted((asked.find(k), i) for i, k in enumerate(keys) if len(k) >= 2 and k in asked)
    order = {i: rank for rank, (_, i) in enumerate(named)}
    lengths = sorted(range(len(options)), key=lambda i: len(options[i]))
    numbers = [float(o) if _NUMBER.match(o.strip()) else None for o in options]
    by_value = sorted((v, i) for i, v in enumerate(numbers) if v is not None)
    value_rank = (
        {i: r for r, (_, i) in enumerate(by_value)} if len(by_value) == len(options) else {}
    )
    parts = [[squash(p) for p in _PART.split(o)] for o in options]
    shared = Counter(p for ps in parts for p in set(ps))
    docs = []
    for i, option in enumerate(options):
        words = tokens(option)
        doc = [f"o:{w}" for w in words] + [f"q&o:{w}" for w in words if w in q_words]
        doc.append(f"named:{order.get(i, 'no')}")
        doc.append(f"length:{lengths.index(i)}")
        if i in value_rank:
            doc.append(f"value:{value_rank[i]}")
        if len(parts[i]) > 1:
            doc += [f"shared{j}:{shared[p] - 1}" for j, p in enumerate(parts[i])]
        docs.append(doc)
    return docs


@dataset_check(
    NAME,
    "a logistic regression that sees only the question and its options (cross-validated) "
    "picks the answer near chance, per kind and per kind and scenario",
    "shortcut",
)
class BlindClassifier:
    def __init__(self, ctx: AuditContext, stats: CheckStats):
        self.ctx, self.stats = ctx, stats
        self.items: dict[str, list[tuple[str, list[list[str]], int]]] = defaultdict(list)
        stats.notes.append(
            "logistic regression (L2, hashed TF-IDF) on each option's words, the words it "
            "shares with the question, the order the question names it in, its length rank, "
            "its value rank (numbers) and how many options share each of its parts "
            "(hybrid); 5-fold cross-validation grouped by question, fitted per kind; the "
            f"top-scored option is picked; at most {PER_KIND} questions per kind"
        )

    def visit(self, item: AuditItem) -> list[Finding] | None:
        choices, truth = item.choices(), item.qa.get("ground_truth")
        if len(choices) < 2 or truth not in choices:
            return None
        if len(self.items[item.type]) >= PER_KIND:
            return []
        letters = sorted(choices)
        docs = option_docs(str(item.qa.get("question", "")), [choices[k] for k in letters])
        self.items[item.type].append((item.scenario, docs, letters.index(str(truth))))
        return []

    def finish(self) -> list[Finding]:
        acc = Accuracy()
        fitted = {}
        for kind, rows in sorted(self.items.items()):
            x = tfidf([d for _, ds, _ in rows for d in ds])
            golds = [gold for _, _, gold in rows]
            fitted[kind] = x
            for key, hit, chance in _hits(kind, rows, x, golds):
                acc.add(key, hit, chance)
        scores = {k: v for k, v in acc.scores().items() if k != "all"}
        margin = self.ctx.options.shortcut_margin
        for kind, rows in sorted(self.items.items()):
            mine = [k for k in scores if k == kind or k.startswith(f"{kind}/")]
            if any(_binomial_level(self.ctx, scores[k], margin) == "error" for k in mine):
                for key, sd in _null_spread(kind, rows, fitted[kind]).items():
                    s = scores[key]
                    s["null_sd"] = round(sd, 4)
                    se = math.sqrt(max(s["chance"] * (1 - s["chance"]), 1e-12) / s["n"])
                    s["z"] = round(s["excess"] / max(se, sd, 1e-12), 2)
        self.stats.scores = scores
        return report(self.ctx, NAME, self.stats.scores)


def _binomial_level(ctx: AuditContext, s: dict[str, float], margin: float) -> str | None:
    se = math.sqrt(max(s["chance"] * (1 - s["chance"]), 1e-12) / s["n"])
    return level(ctx, s["excess"], se, s["n"], margin)


def _hits(
    kind: str, rows: list[tuple[str, list[list[str]], int]], x: sparse.csr_matrix, golds: list[int]
) -> list[tuple[str, float, float]]:
    """(key, credit, chance) of each question, for the kind and for its kind and
    scenario, picked by the out-of-fold scores of a fit to the answers ``golds``."""
    groups = np.repeat(np.arange(len(rows)), [len(ds) for _, ds, _ in rows])
    y = np.array(
        [float(j == g) for (_, ds, _), g in zip(rows, golds, strict=True) for j in range(len(ds))]
    )
    scores = out_of_fold(x, y, groups.astype(np.int64), FIT_STEPS)
    out = []
    start = 0
    for (scenario, ds, _), gold in zip(rows, golds, strict=True):
        part = list(scores[start : start + len(ds)])
        start += len(ds)
        hit = credit(part, gold)
        out += [(kind, hit, 1 / len(ds)), (f"{kind}/{scenario}", hit, 1 / len(ds))]
    return out


def _null_spread(
    kind: str, rows: list[tuple[str, list[list[str]], int]], x: sparse.csr_matrix
) -> dict[str, float]:
    """The standard deviation of the accuracy of each key of ``kind`` over ``SHUFFLES``
    refits with the answers shuffled (seeded by the kind's name)."""
    rng = np.random.default_rng(zlib.crc32(kind.encode()))
    runs: dict[str, list[float]] = defaultdict(list)
    for _ in range(SHUFFLES):
        golds = [int(rng.integers(len(ds))) for _, ds, _ in rows]
        hits: dict[str, list[float]] = defaultdict(list)
        for key, hit, _ in _hits(kind, rows, x, golds):
            hits[key].append(hit)
        for key, values in hits.items():
            runs[key].append(float(np.mean(values)))
    return {key: float(np.std(values)) for key, values in runs.items()}


def report(
    ctx: AuditContext, name: str, scores: dict[str, dict[str, float]], margin: float | None = None
) -> list[Finding]:
    """Findings for the rows of ``scores`` more than ``margin`` (default: the audit's
    ``shortcut_margin``) above chance."""
    margin = ctx.options.shortcut_margin if margin is None else margin
    out = []
    for key, s in scores.items():
        se = math.sqrt(max(s["chance"] * (1 - s["chance"]), 1e-12) / s["n"])
        se = max(se, s.get("null_sd", 0.0))  # the shuffled answers' spread, when measured
        severity = level(ctx, s["excess"], se, s["n"], margin)
        if severity:
            out.append(
                finding(
                    name,
                    severity,
                    None,
                    f"{key}: accuracy {s['accuracy']:.3f} vs chance {s['chance']:.3f} "
                    f"({s['excess']:+.3f}, z {s['z']:.1f}, n {int(s['n'])}"
                    + (f", shuffled-answer sd {s['null_sd']:.3f}" if "null_sd" in s else "")
                    + ")",
                )
            )
    return out


__all__ = ["BlindClassifier", "option_docs", "report"]
