"""MemDaily's simple and conditional answers re-derived from its sampled profiles
(``graphs.json``), where the trajectory-to-profile mapping allows.

In the per-type files, trajectory ``tid`` of a file belongs to profile ``tid // k``: k = 2
for roles and events, 1 for items and places, 4 for hybrid in types 01/02/05/06 and 6
in 03/04 (the merged file renumbers ``tid``, so it has no mapping). MemDaily's questions
are free Chinese text with no provenance, so the asked entity is found from the
question (its relation word, its event name; the only item or place; for a conditional
question, the entity whose attribute value the question quotes), and the answer is the
one option that equals a value of that entity. The item is re-derived when exactly one
option does; it is reported wrong when that option is not the ground truth, and
ambiguous when the condition fits entities with different answers.

memsim's own MemDaily export (``memsim export --to memdaily``) writes one profile per
trajectory, in file order, and says so in its manifest (``graphs_by: position``): item
i is then checked against ``graphs.json[i]``, hybrid questions are split where the
locale joins their two parts, and an option that is a value of the named entity under
an attribute the question does not name is not taken for the answer.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Collection
from pathlib import Path
from typing import Any

from memsim.audit._context import AuditContext
from memsim.audit._framework import dataset_check
from memsim.audit._text import squash
from memsim.audit._types import AuditItem, CheckStats, Finding, finding
from memsim.audit._wording import worded_labels

PER_TYPE = re.compile(r"^(\d+)_([a-z_]+?)_([a-z]+)\.json$")
SCENARIO_KEYS = {
    "roles": ("relation_profiles", "colleague_profiles"),
    "events": ("work_events", "rest_events"),
    "items": ("items",),
    "places": ("places",),
}
RELATION_WORDS = {
    "母亲": ("母亲", "妈妈", "老妈"),
    "父亲": ("父亲", "爸爸", "老爸"),
    "上司": ("上司", "领导", "老板"),
    "下属": ("下属", "手下"),
}
NAMES = ("事件名称", "物品名称", "地点名称")
PART_SPLIT = re.compile(r"另外[，,]\s*")


def profile_divisor(type_number: int, scenario: str) -> int:
    if scenario in ("roles", "events"):
        return 2
    if scenario in ("items", "places"):
        return 1
    return 6 if type_number in (3, 4) else 4


Entity = dict[str, Any]


def entities(graph: dict[str, Any], scenario: str) -> list[Entity]:
    keys = SCENARIO_KEYS.get(scenario) or tuple(k for ks in SCENARIO_KEYS.values() for k in ks)
    return [e for k in keys for e in graph.get(k, []) if isinstance(e, dict)]


def all_entities(graph: dict[str, Any]) -> list[Entity]:
    """Every entity of a profile but the user (questions name the others)."""
    return [
        e
        for k, v in graph.items()
        if k != "user_profile" and isinstance(v, list)
        for e in v
        if isinstance(e, dict)
    ]


def named(entity: Entity, question: str) -> bool:
    """Whether the question names the entity (its relation word or its name)."""
    relation = str(entity.get("关系", ""))
    words = RELATION_WORDS.get(relation, (relation,) if len(relation) >= 2 else ())
    names = [str(entity[n]) for n in NAMES if n in entity]
    return any(w and w in question for w in (*words, *names))


def quoted(entity: Entity, question: str, skip: set[str]) -> bool:
    """Whether the question quotes one of the entity's values (a condition)."""
    return quote_length(entity, question, skip) > 0


def quote_length(entity: Entity, question: str, skip: set[str]) -> int:
    """The length of the longest of the entity's values the question quotes (0: none)."""
    said = squash(question)
    lengths = [
        len(squash(v))
        for k, v in entity.items()
        if k not in skip and isinstance(v, str) and len(squash(v)) >= 2 and squash(v) in said
    ]
    return max(lengths, default=0)


def values_of(entity: Entity, question: str = "", worded: Collection[str] = ()) -> dict[str, str]:
    """The entity's values (squashed) -> their keys; with ``question``, only the values
    of the keys the question names when it names any (our graphs' keys are labels): by
    the label itself, or by the attribute's own wording (``worded``: "Where is my peer's
    workplace?" names the work city, :mod:`memsim.audit._wording`)."""
    values = {squash(str(v)): k for k, v in entity.items() if isinstance(v, str)}
    if question:
        asked = {
            v: k
            for v, k in values.items()
            if (len(k) >= 3 and squash(k) in squash(question)) or k in worded
        }
        if asked:
            return asked
    return values


def derive_part(
    question: str,
    options: list[str],
    pool: list[Entity],
    conditional: bool,
    by_label: bool = False,
    worded: Collection[str] = (),
) -> tuple[str, Any]:
    """(outcome, detail): outcome is derived | unidentified | no_match | ambiguous."""
    option_keys = {squash(o) for o in options}
    if len(pool) == 1:
        candidates = pool
    else:
        candidates = [] if conditional else [e for e in pool if named(e, question)]
        if not candidates:  # a condition names it ("the one whose work city is ...")
            candidates = [
                e
                for e in pool
                if quoted(e, question, {k for k, v in e.items() if squash(str(v)) in option_keys})
            ]
        if by_label and not conditional and len(candidates) > 1:
            # our questions name the entity itself ("the Design Thinking Workshop in Los
            # Angeles"): the entity quoted at most length, not one that shares a city
            length = {
                id(e): quote_length(
                    e, question, {k for k, v in e.items() if squash(str(v)) in option_keys}
                )
                for e in candidates
            }
            best = max(length.values())
            candidates = [e for e in candidates if length[id(e)] == best]
    if not candidates:
        return "unidentified", None
    said = question if by_label else ""
    matches = {
        i: {squash(o) for o in options if squash(o) in values_of(e, said, worded)}
        for i, e in enumerate(candidates)
    }
    found = {next(iter(m)) for m in matches.values() if len(m) == 1}
    if not any(matches.values()):
        return "no_match", None
    if len(found) == 1 and all(len(m) <= 1 for m in matches.values()):
        return "derived", found.pop()
    return "ambiguous", sorted(found) or None


@dataset_check(
    "memdaily_answers",
    "MemDaily's simple and conditional answers equal the value the profile (graphs.json) "
    "gives the entity the question names, where the trajectory-to-profile mapping allows",
    "memdaily",
    ("graphs",),
)
class MemDailyAnswers:
    def __init__(self, ctx: AuditContext, stats: CheckStats):
        self.ctx, self.stats = ctx, stats
        self.graphs = ctx.graphs or []
        self.tally: dict[str, Counter[str]] = {}
        self.by_position = ctx.source.graphs_by_position
        join = ctx.locale.questions.hybrid_join if ctx.locale is not None else ""
        between = join.split("{first}")[-1].split("{second}")[0] if "{second}" in join else ""
        self.part_split = re.compile(re.escape(between)) if between.strip() else PART_SPLIT
        mapping = (
            "profile = graphs.json[i] for the i-th trajectory (memsim's export, graphs_by: "
            "position)"
            if self.by_position
            else "profile = graphs.json[tid // k] (k: 2 roles/events, 1 items/places, 4 "
            "hybrid in 01/02/05/06, 6 in 03/04)"
        )
        stats.notes.append(
            f"{mapping}; entity from the question (relation word, event "
            "name, the only item or place; conditional: the entity whose value the question "
            "quotes); re-derived when exactly one option is a value of that entity"
        )

    def visit(self, item: AuditItem) -> list[Finding] | None:
        if item.type not in ("simple", "conditional", "noisy") or item.flags:
            return None
        m = PER_TYPE.match(Path(item.source).name)
        if self.by_position:
            index = item.index
        elif m is None:
            self.stats.counts["no mapping (merged file)"] += 1
            return None
        else:
            index = item.tid // profile_divisor(int(m[1]), item.scenario)
        if index >= len(self.graphs):
            self.stats.counts["no profile"] += 1
            return None
        graph = self.graphs[index]
        question = str(item.qa.get("question", ""))
        options = list(item.choices().values())
        answer = str(item.qa.get("answer", ""))
        questions = self.part_split.split(question) if item.scenario == "hybrid" else [question]
        if len(questions) != 2 and item.scenario == "hybrid":
            return []
        out = []
        for part, q in enumerate(questions):
            scenario = item.scenario if item.scenario != "hybrid" else "hybrid"
            split = (
                [o.split(";", len(questions) - 1 if self.by_position else -1) for o in options]
                if item.scenario == "hybrid"
                else [[o] for o in options]
            )
            part_options = [s[part].strip() for s in split if len(s) == len(questions)]
            part_answer = (
                answer.split(";", len(questions) - 1 if self.by_position else -1)[part].strip()
                if item.scenario == "hybrid"
                else answer
            )
            pool = all_entities(graph) if self.by_position else entities(graph, scenario)
            outcome, detail = derive_part(
                q,
                part_options,
                pool,
                item.type == "conditional",
                self.by_position,
                worded_labels(self.ctx, q) if self.by_position else (),
            )
            tally = self.tally.setdefault(f"{item.type}/{item.scenario}", Counter())
            tally[outcome] += 1
            if outcome == "derived" and detail != squash(part_answer):
                tally["wrong"] += 1
                out.append(
                    finding(
                        "memdaily_answers",
                        "error",
                        item,
                        f"profile {index} gives {detail!r}, the answer is {part_answer!r}",
                    )
                )
            elif outcome == "ambiguous" and detail:
                out.append(
                    finding(
                        "memdaily_answers",
                        "warning",
                        item,
                        f"the question fits entities of profile {index} with answers {detail}",
                    )
                )
        return out

    def finish(self) -> list[Finding]:
        total: Counter[str] = Counter()
        for key, tally in sorted(self.tally.items()):
            total.update(tally)
            self.stats.scores[key] = dict(sorted(tally.items()))
        if total:
            self.stats.scores["all"] = dict(sorted(total.items()))
        derived = total["derived"]
        if not derived:
            return []
        parts = sum(total[k] for k in ("derived", "unidentified", "no_match", "ambiguous"))
        return [
            finding(
                "memdaily_answers",
                "info",
                None,
                f"{derived} of {parts} question parts re-derived from graphs.json; "
                f"{total['wrong']} wrong ({total['wrong'] / derived:.1%}), "
                f"{total['ambiguous']} ambiguous",
            )
        ]


__all__ = ["MemDailyAnswers", "derive_part", "profile_divisor"]
