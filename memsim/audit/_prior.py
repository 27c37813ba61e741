"""The option-prior shortcut: pick the option most probable under the schema's priors,
given what the question reveals (the named entities' discrete naming values, "my
mother" -> relation = mother, and a discrete condition), with no memory at all.

- a discrete asked attribute (a categorical node): exact inference,
  P(node | revealed values), by :class:`memsim.graph.ExactPosterior` (the same tables
  as :func:`memsim.graph.to_pgmpy`, and the same answers as pgmpy's variable
  elimination, without importing pgmpy);
- anything else (numbers, dates, text, and every derived answer: counts, comparisons,
  digit sums, day differences, seasons, weekdays, domains): the empirical distribution
  of the answer re-derived (same transform, same parameters) on a large seeded sample
  of profiles, the named entities matched by their naming values (or the same slots
  when fewer than ``MIN_MATCHES`` sampled profiles have them).

A hybrid option's probability is the product of its two parts'. Ties are broken at
random (fractional credit), so an answer the prior cannot tell from the distractors
scores chance.
"""

from __future__ import annotations

import datetime as dt
import json
from collections import Counter
from typing import Any

from memsim.audit._columns import VECTORISED, Pairs
from memsim.audit._context import AuditContext
from memsim.audit._derive import DerivationError, entity_ids, reference_time, remap
from memsim.audit._framework import dataset_check
from memsim.audit._lean import LEAN
from memsim.audit._sample import FAST, GROUP_TRANSFORMS, Sample
from memsim.audit._shortcuts import Accuracy, credit, report_excess
from memsim.audit._text import fold, squash
from memsim.audit._transforms import derive
from memsim.audit._types import AuditItem, CheckStats, Finding
from memsim.graph import ExactPosterior
from memsim.profile import Profile

NEVER_TOLD_SHARE = 0.25
"""The share of abstention questions whose answer is "never told", as the kind states it
(one of four options): a memory-free reader that knows it gives that option this prior."""


@dataset_check(
    "shortcut_prior",
    "picking the option most probable under the schema's priors, given what the question "
    "reveals, is near chance",
    "shortcut",
    ("provenance", "profiles", "schema"),
)
class OptionPrior:
    def __init__(self, ctx: AuditContext, stats: CheckStats):
        from memsim.audit._correctness import deriver

        self.ctx, self.stats, self.d = ctx, stats, deriver(ctx)
        self.acc = Accuracy()
        self.sample: Sample | None = None
        self.exact = ExactPosterior(ctx.net)
        self.cache: dict[str, Counter[Any]] = {}
        self.shown: dict[tuple[Any, ...], dict[str, float]] = {}
        how = "exact inference (the query's ancestors' tables, numpy) for discrete attributes"
        stats.notes.append(
            f"{how}; the empirical distribution of the re-derived answer over "
            f"{ctx.options.prior_sample} sampled profiles (seed {ctx.options.seed}) for "
            "everything else, named entities matched by their naming values"
        )

    def visit(self, item: AuditItem) -> list[Finding] | None:
        prov, choices, truth = item.provenance, item.choices(), item.qa.get("ground_truth")
        profile = self.ctx.profile(item)
        if prov is None or profile is None or truth not in choices:
            return None
        letters = sorted(choices)
        when = reference_time(prov)
        transform, params = str(prov.get("transform")), dict(prov.get("params") or {})
        try:
            if item.type == "abstention":
                probs = self._abstention(profile, transform, params, when, choices, letters)
            elif transform == "hybrid":
                first, second = (
                    self._dist(profile, str(p["transform"]), p["params"], when)
                    for p in params["parts"]
                )
                join = self.d.loc.questions.answer_join
                probs = [_split_prob(choices[k], join, first, second) for k in letters]
            else:
                dist = self._dist(profile, transform, params, when)
                probs = [dist.get(squash(choices[k]), 0.0) for k in letters]
        except DerivationError:
            self.stats.counts["no prior"] += 1
            return None
        self.acc.add(item.type, credit(probs, letters.index(str(truth))), 1 / len(letters))
        return []

    def _abstention(
        self,
        profile: Profile,
        transform: str,
        params: dict[str, Any],
        when: dt.datetime,
        choices: dict[str, str],
        letters: list[str],
    ) -> list[float]:
        """An abstention question's "never told" option has the prior the kind gives it
        (NEVER_TOLD_SHARE); the values share the rest by the asked attribute's prior
        (the entity a false premise names has none: they tie)."""
        dist: dict[str, float] = {}
        if transform in ("identity", "never_told"):
            asked = {"entity": params["entity"], "attribute": params["attribute"]}
            dist = self._dist(profile, "identity", asked, when)
        marker = fold(self.d.loc.history.never_told_answer.split("{", 1)[0])
        return [
            NEVER_TOLD_SHARE
            if fold(choices[k]).startswith(marker)
            else (1 - NEVER_TOLD_SHARE) * dist.get(squash(choices[k]), 0.0)
            for k in letters
        ]

    def _dist(
        self, profile: Profile, transform: str, params: dict[str, Any], when: dt.datetime
    ) -> dict[str, float]:
        """P(answer), keyed by the squashed text the item would display for it."""
        values = self._values(profile, transform, params, when)
        shown, how = self._shown(profile, transform, params, when)
        # the counts live in self.cache for the whole run, so their id names them: an
        # answer distribution is displayed once per way of showing it, not once per item
        key = (id(values), how)
        out = self.shown.get(key)
        if out is None:
            total = sum(values.values()) or 1
            out = self.shown[key] = {}
            for value, n in values.items():
                text = squash(shown(value))
                out[text] = out.get(text, 0.0) + n / total
        return out

    def _shown(
        self, profile: Profile, transform: str, params: dict[str, Any], when: dt.datetime
    ) -> tuple[Any, tuple[Any, ...]]:
        """How the item displays a value of its answer, and what that display depends on."""
        if transform == "identity":
            entity, fact = self.d.fact(profile, params["entity"], params["attribute"])
            how = ("identity", entity.kind, fact.attribute, fact.type)
            return (lambda v: self.d.display(entity, fact, v)), how
        if transform == "compare":
            words = self.d.loc.questions.comparative_options
            text = {
                "first": self.d.as_option(profile.entity(params["first"])),
                "second": self.d.as_option(profile.entity(params["second"])),
                "same": words["same"],
                "unknown": words["unknown"],
            }
            return (lambda v: text[str(v)]), ("compare", *text.values())
        if transform == "difference":  # said in the attribute's unit ("6 hours")
            entity = profile.entity(params["entities"][0])
            unit = self.d.attribute(entity, params["attribute"]).unit
            return (lambda v: self.d.loc.with_unit_of(str(v), unit)), ("unit", unit)
        return str, ("str",)

    def _values(
        self, profile: Profile, transform: str, params: dict[str, Any], when: dt.datetime
    ) -> Counter[Any]:
        if transform == "identity":
            exact = self._exact(profile, params)
            if exact is not None:
                self.stats.counts["exact"] += 1
                return exact
        self.stats.counts["empirical"] += 1
        sample = self._sample()
        by: list[str] | None = None  # the entity is named by its refer fields...
        if transform == "identity" and "condition" in params:
            by = [params["condition"]]  # ...or, in a conditional question, by the condition
            params = {k: v for k, v in params.items() if k not in ("condition", "condition_value")}
        named = (
            []
            if transform in GROUP_TRANSFORMS
            else [
                (eid, sample.naming(profile.entity(eid), by, _asked(params, eid)))
                for eid in entity_ids(params)
            ]
        )
        key = json.dumps([transform, params, named], sort_keys=True, default=str)
        counts = self.cache.get(key)
        if counts is None:
            pairs = sample.mappings(named)
            columns = sample.columns() if transform in VECTORISED else None
            found = None if columns is None else columns.counts(transform, params, pairs, when)
            counts = found if found is not None else self._each(transform, params, pairs, when)
            self.cache[key] = counts
        return counts

    def _each(
        self, transform: str, params: dict[str, Any], pairs: Pairs, when: dt.datetime
    ) -> Counter[Any]:
        """The answer re-derived on each sample profile (what the columns cannot do)."""
        counts: Counter[Any] = Counter()
        fast, lean = FAST.get(transform), LEAN.get(transform)
        # most sample profiles map the entities alike: remap once per distinct mapping
        # (neither the shortcuts nor the transforms change their params)
        remapped: dict[tuple[tuple[str, str], ...], dict[str, Any]] = {}
        for other, mapping in pairs:
            slots = tuple(mapping.items())
            these = remapped.get(slots)
            if these is None:
                these = remapped[slots] = remap(params, mapping)
            try:
                if fast is not None:
                    value = fast(self.d, other, these)
                elif lean is not None:
                    value = lean(self.d, other, these, when)
                else:
                    found = derive(self.d, other, transform, these, frozenset(), when)
                    value = _hashable(found.value)
            except (DerivationError, KeyError):
                continue
            except (TypeError, IndexError):
                if lean is None:
                    raise  # derive() turns them into DerivationError; the shortcuts do not
                continue  # as derive() would have
            counts[value] += 1
        return counts

    def _sample(self) -> Sample:
        if self.sample is None:
            self.sample = Sample(self.ctx, self.d)
        return self.sample

    def _exact(self, profile: Profile, params: dict[str, Any]) -> Counter[Any] | None:
        entity = profile.entity(params["entity"])
        nid = f"{entity.id}.{params['attribute']}"
        if nid not in self.exact:
            return None
        by = [str(params["condition"])] if "condition" in params else None
        revealed = self._sample().revealed(entity, by, [params["attribute"]])
        evidence = {
            f"{entity.id}.{f}": str(entity.facts[f].value)
            for f in revealed
            if f"{entity.id}.{f}" in self.exact and f"{entity.id}.{f}" != nid
        }
        key = json.dumps([nid, evidence], sort_keys=True)
        hit = self.cache.get(key)
        if hit is None:
            hit = self.cache[key] = Counter(self.exact.query(nid, evidence))
        return hit

    def finish(self) -> list[Finding]:
        self.stats.scores = self.acc.scores()
        return report_excess(self.ctx, "shortcut_prior", self.stats.scores, "accuracy", "chance")


def _split_prob(option: str, join: str, first: dict[str, float], second: dict[str, float]) -> float:
    cuts = [i for i in range(len(option)) if option.startswith(join, i)]
    return max(
        (
            first.get(squash(option[:i]), 0.0) * second.get(squash(option[i + len(join) :]), 0.0)
            for i in cuts
        ),
        default=0.0,
    )


__all__ = ["OptionPrior", "Sample"]


def _asked(params: dict[str, Any], eid: str) -> list[str]:
    """The attributes asked of entity ``eid``: a transform over pairs asks the i-th
    entity its i-th attribute (an appointment's slot and a walk's start: each kind
    has its own time attribute), other questions ask every entity the same ones."""
    entities, attrs = params.get("entities"), params.get("attributes")
    if isinstance(entities, list) and isinstance(attrs, list) and len(entities) == len(attrs):
        return [str(a) for e, a in zip(entities, attrs, strict=True) if e == eid and a]
    attrs = attrs or [params.get("attribute")]
    return [str(a) for a in attrs if a]


def _hashable(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value
