"""Shortcut baselines: what a reader with no memory at all scores, per QA kind, against
chance. They run on any data.

- centroid: pick the option most similar to the other three (mean cosine similarity
  of character-bigram counts), which wins when distractors are perturbations of the
  answer;
- longest: pick the longest option (spacing at the ends ignored);
- format cue: pick the option that alone differs in a surface feature (spacing,
  terminal punctuation, capitalisation, full-width characters), else guess;
- position: evidence recall@5 of the first 5 and the last 5 messages against a random
  5 (its expectation, exactly), each normalised by min(5, #evidence).

Ties are credited fractionally (1/#tied when the answer is among them), i.e. the
expected score of breaking ties at random. On our own data a baseline more than
``shortcut_margin`` above chance is an error when it is also ``shortcut_z`` standard
errors above it on at least ``shortcut_min_n`` items (a warning otherwise); on external
data it is a warning.
"""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict

from memsim.audit._context import AuditContext
from memsim.audit._framework import dataset_check
from memsim.audit._text import bigrams, cosine, singled_out, squash
from memsim.audit._types import AuditItem, CheckStats, Finding, Severity, finding

GROUP = "shortcut"
GRAMS_MEMO = 50_000
"""Option texts whose bigrams the centroid shortcut remembers before starting afresh."""


def severity_for(ctx: AuditContext, excess: float, z: float, n: float) -> Severity | None:
    """The severity of a baseline ``excess`` above chance, measured on ``n`` items
    (None: nothing to report)."""
    if excess <= ctx.options.shortcut_margin:
        return None
    if ctx.own and z >= ctx.options.shortcut_z and n >= ctx.options.shortcut_min_n:
        return "error"
    return "warning"


class Accuracy:
    """Per-kind accuracy of a picker against chance."""

    def __init__(self) -> None:
        self.n: dict[str, int] = defaultdict(int)
        self.hits: dict[str, float] = defaultdict(float)
        self.chance: dict[str, float] = defaultdict(float)

    def add(self, kind: str, credit: float, chance: float) -> None:
        for key in (kind, "all"):
            self.n[key] += 1
            self.hits[key] += credit
            self.chance[key] += chance

    def scores(self) -> dict[str, dict[str, float]]:
        out = {}
        for kind in sorted(self.n, key=lambda k: (k == "all", k)):
            n = self.n[kind]
            acc, chance = self.hits[kind] / n, self.chance[kind] / n
            se = math.sqrt(max(chance * (1 - chance), 1e-12) / n)
            out[kind] = {
                "accuracy": round(acc, 4),
                "chance": round(chance, 4),
                "excess": round(acc - chance, 4),
                "z": round((acc - chance) / se, 2),
                "n": n,
            }
        return out


def credit(scores: list[float], answer: int) -> float:
    """1/#tied if the answer has the best score, else 0."""
    best = max(scores)
    tied = [i for i, s in enumerate(scores) if s >= best - 1e-12]
    return 1.0 / len(tied) if answer in tied else 0.0


class _Picker:
    """A baseline that scores each option from the options alone."""

    name = ""
    method = ""

    def __init__(self, ctx: AuditContext, stats: CheckStats):
        self.ctx, self.stats, self.acc = ctx, stats, Accuracy()
        stats.notes.append(self.method)

    def score(self, options: list[str], question: str) -> list[float]:
        raise NotImplementedError

    def visit(self, item: AuditItem) -> list[Finding] | None:
        choices, truth = item.choices(), item.qa.get("ground_truth")
        if len(choices) < 2 or truth not in choices:
            return None
        letters = sorted(choices)
        scores = self.score([choices[k] for k in letters], str(item.qa.get("question", "")))
        self.acc.add(item.type, credit(scores, letters.index(str(truth))), 1 / len(letters))
        return []

    def finish(self) -> list[Finding]:
        self.stats.scores = self.acc.scores()
        return report_excess(self.ctx, self.name, self.stats.scores, "accuracy", "chance")


def report_excess(
    ctx: AuditContext, name: str, scores: dict[str, dict[str, float]], metric: str, base: str
) -> list[Finding]:
    out = []
    for kind, s in scores.items():
        if kind == "all":
            continue
        # the independent units, when fewer than the pairs an AUC is counted over
        n = min(s["n"], s.get("trajectories", s["n"]))
        level = severity_for(ctx, s[metric] - s[base], s.get("z", 0.0), n)
        if level:
            out.append(
                finding(
                    name,
                    level,
                    None,
                    f"{kind}: {metric} {s[metric]:.3f} vs {base} {s[base]:.3f} "
                    f"({s[metric] - s[base]:+.3f}, z {s.get('z', 0.0):.1f}, n {int(s['n'])})",
                )
            )
    return out


@dataset_check(
    "shortcut_centroid",
    "picking the option most similar to the other three is near chance",
    GROUP,
)
class Centroid(_Picker):
    name = "shortcut_centroid"
    method = (
        "centroid: each option's mean cosine similarity of character-bigram counts "
        "(NFKC, case-folded, spacing collapsed, padded) to the other options; the highest wins"
    )

    def __init__(self, ctx: AuditContext, stats: CheckStats):
        super().__init__(ctx, stats)
        self.grams: dict[str, Counter[str]] = {}
        """Each option text's bigrams (read, never changed): an option recurs across
        questions (4,165 texts among make dataset's 18,000 options)."""

    def score(self, options: list[str], question: str) -> list[float]:
        grams = [self._bigrams(o) for o in options]
        n = len(grams)
        # each pair once: the cosine of bigram counts is symmetric to the bit (integer
        # dot product and norms, one division)
        similar: dict[tuple[int, int], float] = {}
        for i in range(n):
            for j in range(i + 1, n):
                similar[i, j] = similar[j, i] = cosine(grams[i], grams[j])
        return [sum(similar[i, j] for j in range(n) if j != i) / (n - 1) for i in range(n)]

    def _bigrams(self, option: str) -> Counter[str]:
        found = self.grams.get(option)
        if found is None:
            if len(self.grams) >= GRAMS_MEMO:
                self.grams.clear()
            found = self.grams[option] = bigrams(option)
        return found


@dataset_check("shortcut_longest", "picking the longest option is near chance", GROUP)
class Longest(_Picker):
    name = "shortcut_longest"
    method = "longest: characters of the option, spacing at both ends ignored"

    def score(self, options: list[str], question: str) -> list[float]:
        return [float(len(o.strip())) for o in options]


@dataset_check(
    "shortcut_format_cue",
    "picking the option singled out by a surface feature (spacing, punctuation, case) "
    "is near chance",
    GROUP,
)
class FormatCue(_Picker):
    name = "shortcut_format_cue"
    method = (
        "format cue: the option that alone differs from the three others in leading or "
        "trailing spacing, doubled spaces, terminal punctuation, capitalisation or "
        "full-width characters; a guess when none or several are singled out"
    )

    def score(self, options: list[str], question: str) -> list[float]:
        marked = {i for i, _ in singled_out(options)}
        return [1.0 if i in marked and len(marked) == 1 else 0.0 for i in range(len(options))]


@dataset_check(
    "shortcut_in_question",
    "picking the option the question itself says is near chance (an answer that appears "
    "in the question by coincidence is as often a distractor that does)",
    GROUP,
)
class InQuestion(_Picker):
    name = "shortcut_in_question"
    method = (
        "in question: the options whose text (normalised, or a part of a two-part option) "
        "appears in the question win; a guess when none does"
    )

    def score(self, options: list[str], question: str) -> list[float]:
        asked = squash(question)
        return [float(any(len(p) >= 2 and p in asked for p in _parts(o))) for o in options]


def _parts(option: str) -> list[str]:
    pieces = [option, *re.split(r"\s*[;；]\s*", option)] if re.search("[;；]", option) else [option]
    return [squash(p) for p in pieces if not squash(p).isdigit()]


K = 5


@dataset_check(
    "shortcut_position",
    "the first and the last 5 messages hold the evidence no more often than a random 5",
    GROUP,
)
class Position:
    def __init__(self, ctx: AuditContext, stats: CheckStats):
        self.ctx, self.stats = ctx, stats
        self.sums: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
        stats.notes.append(
            f"recall@{K} = |evidence among the picked {K}| / min({K}, #evidence); random "
            f"{K} is its exact expectation min({K}, n)/n * #evidence / min({K}, #evidence)"
        )

    def visit(self, item: AuditItem) -> list[Finding] | None:
        order = [m.get("mid") for m in item.messages]
        steps = item.qa.get("target_step_id")
        evidence = {s for s in steps if s in order} if isinstance(steps, list) else set()
        if not evidence or not order:
            return None
        n, e = len(order), len(evidence)
        norm = min(K, e)
        first = len(evidence & set(order[:K])) / norm
        last = len(evidence & set(order[-K:])) / norm
        random = min(K, n) / n * e / norm
        for key in (item.type, "all"):
            s = self.sums[key]
            s["n"] += 1
            for name, value in (("first5", first), ("last5", last), ("random5", random)):
                s[name] += value
            for name, value in (("first5", first), ("last5", last)):
                d = value - random
                s[f"d_{name}"] += d
                s[f"d2_{name}"] += d * d
        return []

    def finish(self) -> list[Finding]:
        out: list[Finding] = []
        for kind in sorted(self.sums, key=lambda k: (k == "all", k)):
            s = self.sums[kind]
            n = s["n"]
            row: dict[str, float] = {"n": int(n)}
            for name in ("first5", "last5", "random5"):
                row[name] = round(s[name] / n, 4)
            for name in ("first5", "last5"):
                row[f"z_{name}"] = round(_z(s[f"d_{name}"], s[f"d2_{name}"], n), 2)
            self.stats.scores[kind] = row
            for name in ("first5", "last5"):
                sub = {"n": n, name: row[name], "random5": row["random5"], "z": row[f"z_{name}"]}
                if kind != "all":
                    out += report_excess(
                        self.ctx, "shortcut_position", {kind: sub}, name, "random5"
                    )
        return out


def _z(total: float, squares: float, n: float) -> float:
    if n < 2:
        return 0.0
    mean = total / n
    var = max(squares / n - mean * mean, 0.0) * n / (n - 1)
    return mean / math.sqrt(var / n) if var > 0 else (999.0 if mean > 0 else 0.0)


__all__ = ["Accuracy", "Centroid", "FormatCue", "Longest", "Position", "credit", "severity_for"]
