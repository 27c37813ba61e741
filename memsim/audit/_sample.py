"""The sample the option prior is estimated on: seeded profiles far from any dataset's,
indexed by what a question reveals about an entity (its naming values, or a condition,
and what a text is made of), and the raw answer values of the most frequent transforms.

Guarantees: the sample depends only on the schema and the audit's seed; an entity of
the item is matched, in each sample profile, to a distinct entity with the same revealed
values (only those the asked attribute depends on, by d-separation), or to the same slot
when fewer than ``MIN_MATCHES`` sample profiles have such entities.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from memsim.audit._columns import Columns
from memsim.audit._context import AuditContext
from memsim.audit._derive import Deriver
from memsim.audit._faithful import refer_fields
from memsim.audit._transforms import COMPARE
from memsim.profile import Entity, Profile
from memsim.schema import within_margin

SAMPLE_START = 3 * 10**9
"""Stream indices of the prior sample: far from datasets' (0..), value pools' (10**9..)
and noise profiles'."""
MIN_MATCHES = 30


Naming = tuple[str, tuple[tuple[str, str], ...]]
Table = dict[tuple[str, ...], list[str]]
"""A sample profile's entities of one kind by their values of some attributes."""
GROUP_TRANSFORMS = ("count",)
"""Questions that name a group ("my relatives and colleagues"), not its members."""


class Sample:
    """Seeded sample profiles, indexed by what a question reveals about an entity."""

    def __init__(self, ctx: AuditContext, d: Deriver):
        from memsim.sampling import ProfileSampler

        n = ctx.options.prior_sample
        start = SAMPLE_START
        self.net = ctx.net
        self.d = d
        self.profiles = list(ProfileSampler(ctx.net).profiles(ctx.options.seed, start, start + n))
        self.index = [self._index(p) for p in self.profiles]
        self._mappings: dict[str, list[tuple[Profile, dict[str, str]]]] = {}
        self._revealed: dict[tuple[str, tuple[str, ...], tuple[str, ...]], list[str]] = {}
        self._tables: dict[tuple[str, tuple[str, ...]], list[dict[tuple[str, ...], list[str]]]] = {}
        self._rows: dict[tuple[str, tuple[str, ...]], dict[tuple[str, ...], list[int]]] = {}
        self._columns: Columns | None = None

    def columns(self) -> Columns:
        """The sample in columns (built on first use)."""
        if self._columns is None:
            self._columns = Columns(self.d, self.profiles)
        return self._columns

    def revealed(self, entity: Entity, attrs: list[str] | None, asked: list[str]) -> list[str]:
        """The discrete attributes of ``entity`` a question reveals by naming it with
        ``attrs`` (default: its ``refer`` fields, "my {relation}"): each discrete one, and
        for a text one the discrete attributes it is made from (an event's name from its
        type and location). Of those, only the ones the ``asked`` attributes depend on
        (d-separation in the BRNet) are kept: the others change no probability."""
        if attrs is None:
            template = self.d.schema.entities[entity.kind].refer.get(self.d.loc.code, "")
            attrs = [f for f in refer_fields(template) if f in entity.facts]
        key = (entity.id, tuple(attrs), tuple(asked))
        hit = self._revealed.get(key)
        if hit is None:
            hit = self._revealed[key] = self._reveal(entity, attrs, asked)
        return hit

    def _reveal(self, entity: Entity, attrs: list[str], asked: list[str]) -> list[str]:
        out: list[str] = []
        for name in attrs:
            todo = [name]
            while todo:  # through texts made of texts (e-mail <- employer <- work city)
                fact = entity.facts[todo.pop()]
                if fact.type == "categorical":
                    out.append(fact.attribute)
                elif fact.type == "text" or fact.attribute == name:
                    for parent in self.net[fact.id].parents:
                        slot, attr = parent.rsplit(".", 1)
                        if slot == entity.id and attr in entity.facts and attr not in out:
                            todo.append(attr)
        nodes = {f"{entity.id}.{a}" for a in asked}
        keep = [f"{entity.id}.{a}" for a in dict.fromkeys(out)]
        for node in list(keep):
            rest = set(keep) - {node}
            if node not in nodes and _separated(self.net.graph, nodes, {node}, rest):
                keep.remove(node)
        return [k.rsplit(".", 1)[1] for k in keep]

    def naming(self, entity: Entity, attrs: list[str] | None, asked: list[str]) -> Naming:
        """(kind, ((attribute, value), ...)): what a question reveals about an entity."""
        found = self.revealed(entity, attrs, asked)
        return entity.kind, tuple((a, str(entity.facts[a].value)) for a in found)

    def _index(self, p: Profile) -> dict[str, list[Entity]]:
        out: dict[str, list[Entity]] = {}
        for e in p.entities:
            out.setdefault(e.kind, []).append(e)
        return out

    def _by_values(
        self, kind: str, wanted: tuple[tuple[str, str], ...]
    ) -> tuple[list[dict[tuple[str, ...], list[str]]], tuple[str, ...]]:
        """Per profile, entities of ``kind`` by their values of the wanted attributes."""
        attrs = tuple(a for a, _ in wanted)
        key = (kind, attrs)
        table = self._tables.get(key)
        if table is None:
            table = []
            for index in self.index:
                rows: dict[tuple[str, ...], list[str]] = {}
                for e in index.get(kind, []):
                    values = tuple(str(e.facts[a].value) if a in e.facts else "" for a in attrs)
                    rows.setdefault(values, []).append(e.id)
                table.append(rows)
            self._tables[key] = table
        return table, tuple(v for _, v in wanted)

    def _rows_with(self, kind: str, wanted: tuple[tuple[str, str], ...]) -> list[int]:
        """The rows (in order) of the profiles with an entity of ``kind`` holding the
        wanted values: the only rows where that entity can be mapped."""
        attrs = tuple(a for a, _ in wanted)
        found = self._rows.get((kind, attrs))
        if found is None:
            found = self._rows[kind, attrs] = {}
            for row, by_values in enumerate(self._by_values(kind, wanted)[0]):
                for values in by_values:
                    found.setdefault(values, []).append(row)
        return found.get(tuple(v for _, v in wanted), [])

    def _one(
        self, rows: Iterable[int], eid: str, lookup: tuple[list[Table], tuple[str, ...]]
    ) -> list[tuple[Profile, dict[str, str]]]:
        """:meth:`_many` of one entity (most questions): every listed row maps it."""
        by_values, values = lookup
        profiles = self.profiles
        out = []
        for row in rows:
            free = by_values[row][values]
            out.append((profiles[row], {eid: eid if eid in free else free[0]}))
        return out

    def _many(
        self, rows: Iterable[int], lookups: list[tuple[str, tuple[list[Table], tuple[str, ...]]]]
    ) -> list[tuple[Profile, dict[str, str]]]:
        out = []
        for row in rows:
            profile = self.profiles[row]
            mapping: dict[str, str] = {}
            for eid, (by_values, values) in lookups:
                free = by_values[row].get(values, [])
                if mapping:  # the first entity has every candidate free
                    taken = mapping.values()
                    free = [x for x in free if x not in taken]
                if not free:
                    break
                mapping[eid] = eid if eid in free else free[0]
            else:
                out.append((profile, mapping))
        return out

    def mappings(self, named: list[tuple[str, Naming]]) -> list[tuple[Profile, dict[str, str]]]:
        """Per sample profile, the item's entity ids mapped to entities with the same
        revealed values (profiles lacking one are left out); the same slots when fewer
        than MIN_MATCHES profiles have them all."""
        key = repr(named)
        hit = self._mappings.get(key)
        if hit is not None:
            return hit
        lookups = [(eid, self._by_values(kind, wanted)) for eid, (kind, wanted) in named]
        # a row where the first entity has no candidate maps nothing: only the rows that
        # have one are walked (in order, so the pairs are the same list)
        rows: Iterable[int] = self._rows_with(*named[0][1]) if named else range(len(self.profiles))
        if len(named) > 1:  # nor can a row where another entity has none
            rest = [set(self._rows_with(*naming)) for _, naming in named[1:]]
            rows = [r for r in rows if all(r in other for other in rest)]
        out = self._one(rows, *lookups[0]) if len(lookups) == 1 else self._many(rows, lookups)
        if len(out) < MIN_MATCHES:
            same = {eid: eid for eid, _ in named}
            out = [(profile, same) for profile in self.profiles]
        self._mappings[key] = out
        return out


def _identity_value(d: Deriver, p: Profile, params: dict[str, Any]) -> Any:
    """The asked value (its initial one: the prior is over the sampled values)."""
    return p.entity(params["entity"]).facts[params["attribute"]].value


def _compare_value(d: Deriver, p: Profile, params: dict[str, Any]) -> Any:
    a, b = p.entity(params["first"]), p.entity(params["second"])
    fa, fb = a.facts[params["attribute"]], b.facts[params["attribute"]]
    margin = float(params.get("margin") or 0)  # stated in the question
    if margin and within_margin(fa.type, fa.value, fb.value, margin):
        return "same"
    x, y = d.key(a, fa, fa.value), d.key(b, fb, fb.value)
    return "first" if x > y else "second" if y > x else "same"


def _count_value(d: Deriver, p: Profile, params: dict[str, Any]) -> Any:
    attr, op, threshold = params["attribute"], params["op"], params["threshold"]
    named = [p.entity(e) for e in params["entities"]]
    if op == "eq":
        return sum(str(e.facts[attr].value) == str(threshold) for e in named)
    first = named[0]
    limit = d.key(first, first.facts[attr], threshold)
    test = COMPARE[op]
    return sum(bool(test(d.key(e, e.facts[attr], e.facts[attr].value), limit)) for e in named)


FAST = {"identity": _identity_value, "compare": _compare_value, "count": _count_value}
"""Shortcuts to the raw answer value of the two most frequent transforms (the same
computation as :mod:`memsim.audit._transforms`, without rendering anything)."""


def _separated(graph: Any, x: set[str], y: set[str], given: set[str]) -> bool:
    import networkx as nx

    test = getattr(nx, "is_d_separator", None) or nx.d_separated
    return bool(test(graph, x, y, given))


__all__ = ["FAST", "GROUP_TRANSFORMS", "MIN_MATCHES", "SAMPLE_START", "Naming", "Sample"]
