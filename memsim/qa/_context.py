"""What every QA kind needs: the schema, the locale, the verbalizer and value pools,
plus small helpers over a profile's entities."""

from __future__ import annotations

import re
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, TypeVar

import numpy as np

from memsim.graph import BRNet
from memsim.profile import Entity, Fact, Profile
from memsim.qa._choices import ValuePool, normalise, numeric_options, pick_distinct
from memsim.qa._pool import Given
from memsim.qa._types import FactRef, Hearsay
from memsim.schema import (
    ORDERED_TYPES,
    Attribute,
    Derived,
    Schema,
    Template,
    asked_by,
    is_asked,
    is_ordered,
    is_person,
    is_user,
    pool_of,
    role_of,
    transforms_of,
    word,
)
from memsim.verbalize import LocaleData, TemplateVerbalizer, render_value, template_fields

SENTENCE_ENDS = tuple(".!?。！？")
"""Marks that end a sentence, in the scripts of the bundled locales."""

SCENARIOS = ("roles", "events", "items", "places")
USER_TOO = (*SCENARIOS, "user")
"""The scenarios of the kinds that also ask about the user's own facts."""
LIVES = 8
"""Other lives a profile's questions may mention distractors from (the first that has
usable ones is the trajectory's one other life)."""
MENTIONED = 3
"""At most this many distractors said about people of the other life."""
T = TypeVar("T")


@dataclass(frozen=True)
class QAContext:
    schema: Schema
    net: BRNet
    loc: LocaleData
    verbalizer: TemplateVerbalizer
    pool: ValuePool
    noise_profiles: tuple[Profile, ...]
    kinds: tuple[str, ...] = ()
    """The QA kinds the dataset being made asks (empty: every registered kind): filler
    is drawn in proportion to how often each kind of fact is evidence in *these*."""
    seed: int = 0
    """The generation seed (the pool and the noise profiles were sampled with it)."""

    # --- entities and attributes -------------------------------------------------------
    def group(self, profile: Profile, scenario: str) -> list[Entity]:
        return [e for e in profile.entities if e.scenario == scenario]

    def with_user(self, profile: Profile) -> list[Entity]:
        """The user and the people of their life: the group of a question that compares
        or counts the user among others ("who is older, my father or me?")."""
        return [e for e in profile.entities if e.scenario in ("user", "roles")]

    def pools(self, group: Sequence[Entity]) -> list[list[Entity]]:
        """The group split by the kinds' declared ``pool`` (entities of kinds that declare
        none are pooled together), in order of first appearance."""
        out: dict[str | None, list[Entity]] = {}
        for e in group:
            out.setdefault(pool_of(self.schema, e.kind), []).append(e)
        return list(out.values())

    def pooled(self, a: Entity, b: Entity) -> bool:
        """Whether a group question may set ``a`` beside ``b`` (same declared pool)."""
        return pool_of(self.schema, a.kind) == pool_of(self.schema, b.kind)

    def is_user(self, entity: Entity) -> bool:
        return is_user(self.schema, entity.kind)

    def role(self, entity: Entity, attr: str) -> str | None:
        """The attribute's role as question wording goes by it (none for the user's: see
        :attr:`memsim.verbalize.LocaleData.questions`' ``by_role``)."""
        return None if self.is_user(entity) else role_of(self.schema, entity.kind, attr)

    def transforms(self, entity: Entity, attr: str) -> tuple[str, ...]:
        return transforms_of(self.schema, entity.kind, attr)

    def attribute(self, entity: Entity, attr: str) -> Attribute:
        return self.schema.attributes_of(entity.kind)[attr]

    def naming(self, entity: Entity) -> list[str]:
        """The attributes the entity is named by ("my {relation}" -> relation)."""
        key = ("naming", entity.kind, self.loc.code)
        fields: tuple[str, ...] | None = self.schema.memo.get(key)  # type: ignore[assignment]
        if fields is None:  # once per kind: asked hundreds of thousands of times a dataset
            refer = self.schema.entities[entity.kind].refer.get(self.loc.code, "")
            fields = self.schema.memo[key] = template_fields(refer)
        return [f for f in fields if f in entity.facts]

    def askable(self, entity: Entity, question: str | None = None) -> list[str]:
        """Attributes a question (of kind ``question``) may ask about: not the ones the
        entity is named by (asking "my mother"'s relation gives itself away), not those
        the schema says are never asked, only kinds the attribute allows, and not one
        that changes in the timeline (its questions are the knowledge-update and
        temporal kinds', which read the history; the others assume one value)."""
        return list(
            self._remember("askable", entity, question, lambda: self._askable(entity, question))
        )

    def _askable(self, entity: Entity, question: str | None) -> list[str]:
        named_by = set(self.naming(entity))
        kind = entity.kind
        return [
            a
            for a, fact in entity.facts.items()
            if a not in named_by
            and not fact.history
            and (
                asked_by(self.schema, kind, a, question)
                if question
                else is_asked(self.schema, kind, a)
            )
        ]

    def revealed(self, entity: Entity, attrs: Sequence[str], asked: str) -> Given | None:
        """What a question that names ``entity`` by ``attrs`` tells a reader about the
        ``asked`` attribute: the value of each categorical one, and for a text (a name, an
        e-mail address) or a derived value (a price with tax) what it is made from,
        through other texts (an address from the name and the employer, the employer from
        the occupation and the work city); of those, only the categorical ones ``asked``
        depends on (d-separation in the BRNet), so the pool is not thinned for nothing.
        None when the question gives the asked value away (it is one of those sources, or
        derived from ``attrs``) or reveals another entity's value that the asked one
        depends on (a colleague's address names the user's employer, whose city
        colleagues often share): such a question cannot be flattened.

        Remembered per entity (:meth:`_remember`): a function of the entity's facts and
        the network, asked for every candidate of every draw."""
        return self._remember(  # type: ignore[no-any-return]
            "revealed",
            entity,
            (tuple(attrs), asked),
            lambda: self._revealed(entity, attrs, asked),
        )

    def _revealed(self, entity: Entity, attrs: Sequence[str], asked: str) -> Given | None:
        own: set[str] = set()
        foreign: set[str] = set()
        for attr in attrs:
            own.add(attr)
            if entity.facts[attr].type == "text" or self._derived(entity, attr):
                mine, theirs = self._made_from(entity.facts[attr].id)
                own |= mine
                foreign |= theirs
        if asked in own:
            return None
        # an asked value computed from what names the entity is given away too: "the
        # delivery whose invoice amount is 7906 dollars": its amount with tax is 8459
        if self._derived(entity, asked) and set(attrs) & self._made_from(f"{entity.id}.{asked}")[0]:
            return None
        asked_node = f"{entity.id}.{asked}"
        nodes = tuple(
            sorted(
                {f"{entity.id}.{a}" for a in own if entity.facts[a].type == "categorical"}
                | {n for n in foreign if self.net[n].discrete}
            )
        )
        keep = relevant(self.net, asked_node, nodes)
        if keep & foreign:
            return None
        return tuple(sorted((a, entity.facts[a].value) for a in own if f"{entity.id}.{a}" in keep))

    def _derived(self, entity: Entity, attr: str) -> bool:
        """Whether the attribute is a deterministic function of others (``derived``):
        its sources are said by its value as a text's are."""
        return isinstance(self.attribute(entity, attr).dist, Derived)

    def _made_from(self, node_id: str) -> tuple[set[str], set[str]]:
        """The sources of a text, through other texts: (attributes of the same entity,
        node ids of other entities')."""
        slot = node_id.rsplit(".", 1)[0]
        own: set[str] = set()
        foreign: set[str] = set()
        todo, seen = [node_id], {node_id}
        while todo:
            for parent in self.net[todo.pop()].parents:
                if parent in seen:
                    continue
                seen.add(parent)
                parent_slot, attr = parent.rsplit(".", 1)
                (own.add(attr) if parent_slot == slot else foreign.add(parent))
                if self.net[parent].attribute.type == "text":
                    todo.append(parent)
        return own, foreign

    def ordered(self, entity: Entity, attr: str) -> bool:
        return is_ordered(self.attribute(entity, attr))

    def more(self, entity: Entity, attr: str, key: str) -> str:
        """The comparative word (``higher``/``later``): the attribute's own in the schema,
        else the locale's for it, for its unit, or in general."""
        own = word(self.schema, entity.kind, attr, self.loc.code, key)
        unit = self.attribute(entity, attr).unit
        return own if own is not None else self.loc.questions.more(key, attr, unit)

    def predicate(self, entity: Entity, attr: str, op: str) -> str:
        """An aggregative predicate (``{value}`` to fill), the attribute's own first."""
        own = word(self.schema, entity.kind, attr, self.loc.code, op)
        unit = self.attribute(entity, attr).unit
        return own if own is not None else self.loc.questions.predicate(op, attr, unit)

    def label(self, entity: Entity, attr: str) -> str:
        return self.attribute(entity, attr).label.get(self.loc.code, attr.replace("_", " "))

    def group_label(self, entities: Sequence[Entity], plural: bool) -> str:
        """The label of a group's kinds; the user is left out (a question about "me and
        my relatives" names the user apart). In the plural, a kind of which the group
        holds one entity keeps its singular ("me and my PI and labmates")."""
        others = [e.kind for e in entities if e.scenario != "user"]
        kinds = list(dict.fromkeys(others)) or [entities[0].kind]
        labels = [self.schema.entities[k].label.get(self.loc.code, k) for k in kinds]
        if plural:
            labels = [
                self.loc.plural_of(x) if others.count(k) != 1 or len(kinds) == 1 else x
                for k, x in zip(kinds, labels, strict=True)
            ]
        out = labels[0]
        for extra in labels[1:]:
            out = (self.loc.both if plural else self.loc.either).format(a=out, b=extra)
        return out

    def who(self, entity: Entity) -> str:
        return str(self._remember("who", entity, None, lambda: self.verbalizer.who(entity)))

    def _remember(self, what: str, entity: Entity, extra: object, compute: Any) -> Any:
        """``compute()``, remembered on the entity (:attr:`Entity.memo`) for this
        context's value pool: a question asks the same of the same few dozen entities
        hundreds of times. Keyed by the pool, as when the memo was the pool's (contexts
        copied with other kinds share it); a context with another pool recomputes."""
        key = (what, extra)
        hit = entity.memo.get(key)
        if hit is not None and hit[0] is self.pool:
            return hit[1]
        value = compute()
        entity.memo[key] = (self.pool, value)
        return value

    def remember(self, what: object, profile: Profile, compute: Callable[[], T]) -> T:
        """``compute()``, remembered on the profile (:attr:`Profile.memo`) for this
        context's value pool, as :meth:`_remember` remembers on an entity."""
        hit = profile.memo.get(what)
        if hit is not None and hit[0] is self.pool:
            return hit[1]  # type: ignore[no-any-return]
        value = compute()
        profile.memo[what] = (self.pool, value)
        return value

    # --- values -----------------------------------------------------------------------
    def display(self, entity: Entity, attr: str, value: object | None = None) -> str:
        """A value as an answer or option writes it (absolute dates, with the unit). The
        entity's own value is remembered on it (:meth:`_remember`): the draws of a
        question display the same few facts again on every attempt."""
        if value is None:
            return str(self._remember("display", entity, attr, lambda: self._display(entity, attr)))
        return self._display(entity, attr, value)

    def _display(self, entity: Entity, attr: str, value: object | None = None) -> str:
        fact = entity.facts[attr]
        text = render_value(
            fact, fact.value if value is None else value, self.loc, None, relative=False
        )
        unit = self.attribute(entity, attr).unit
        return self.loc.with_unit_of(text, unit)

    def comparable(self, entities: Sequence[Entity], attr: str) -> bool:
        """Whether the entities' values of ``attr`` can be compared with each other:
        the same type and, for categoricals, the same values in the same order (the
        event kinds' ``type`` attributes, for instance, have different values).
        Remembered per (attribute, the entities' kinds and whether each has it): a
        function of the schema alone."""
        key = ("comparable", attr, tuple((e.kind, attr in e.facts) for e in entities))
        return self.pool.remember(key, lambda: self._comparable(entities, attr))

    def _comparable(self, entities: Sequence[Entity], attr: str) -> bool:
        attrs = [self.attribute(e, attr) for e in entities if attr in e.facts]
        if len(attrs) != len(entities) or len({a.type for a in attrs}) != 1:
            return False
        if attrs[0].type == "categorical":
            return len({tuple(self.schema.values_of(a)) for a in attrs}) == 1
        return True

    def sort_key(self, entity: Entity, attr: str, value: object) -> Any:
        return self.sort_keys(entity, attr)(value)

    def sort_keys(self, entity: Entity, attr: str) -> Callable[[object], Any]:
        """:meth:`sort_key` of ``entity``'s ``attr`` as a function of the value (looked up
        once, for sorting a pool's values)."""
        a = self.attribute(entity, attr)
        if a.type != "categorical":
            return _same
        # the first place of the value in the declared order (as list.index), from a
        # table built once per attribute
        positions, values = _positions(self.schema, entity.kind, attr), self.schema.values_of(a)

        def position(value: object) -> int:
            found = positions.get(str(value))
            return values.index(str(value)) if found is None else found

        return position

    def value_options(
        self,
        entity: Entity,
        attr: str,
        rng: np.random.Generator,
        given: Given = (),
        said: Sequence[str] = (),
        rank: int | None = None,
    ) -> list[str] | None:
        """The entity's value and three distractors of the same attribute, drawn from the
        values the question leaves possible (``given``: what it reveals); ``said`` are
        distractors already chosen (:meth:`said_of_others`), the rest are drawn; a
        number's ``rank`` among its options is drawn, or the one given (dealt)."""
        a = self.attribute(entity, attr)
        fact = entity.facts[attr]
        if a.type == "integer":  # ``said``: numbers said of others, preferred if near
            prefer = [int(v) for v in said]
            numbers = numeric_options(int(fact.value), rng, a.min, a.max, prefer=prefer, rank=rank)
            return None if numbers is None else [self.display(entity, attr, v) for v in numbers]
        answer = self.display(entity, attr)
        wanted = 3 - len(said)
        if wanted <= 0:
            return [answer, *said[:3]]
        # a dozen uniform draws almost always hold 3 usable ones; else look at them all
        for k in (12, 10**9):
            sample = self.pool.sample_support(entity.kind, attr, k, rng, given)
            picked = pick_distinct(
                [self.display(entity, attr, v) for v in sample], [answer, *said], wanted, rng
            )
            if picked is not None:
                return [answer, *said, *picked]
        return None

    def other_lives(self, profile: Profile) -> list[Profile]:
        """The other sampled lives this profile's trajectories may mention, in a fixed
        order (a function of the profile id, so every question about it sees the same)."""
        n = len(self.noise_profiles)
        start = zlib.crc32(profile.id.encode()) % n if n else 0
        return [self.noise_profiles[(start + k) % n] for k in range(min(LIVES, n))]

    def unnamed(self, profile: Profile, life: Profile) -> list[Entity]:
        """The people of ``life`` named like no one of ``profile`` and like no one else
        of ``life`` (so what the trajectory says of them reads as one coherent life)."""
        # every question about a profile asks this of the same lives: remembered on the
        # profile, with the life (kept, so its id is never another's)
        key = ("unnamed", id(life))
        hit = profile.memo.get(key)
        if hit is not None and hit[0] is self.pool and hit[1] is life:
            return list(hit[2])
        found = self._unnamed(profile, life)
        profile.memo[key] = (self.pool, life, found)
        return list(found)

    def _unnamed(self, profile: Profile, life: Profile) -> list[Entity]:
        names = self._names(life)
        own = self._names(profile)
        taken = set(own)
        named = [n for e, n in zip(profile.entities, own, strict=True) if e.scenario != "user"]
        # _holds(a, b) needs b inside a: a name inside none of the named (one search of
        # them joined) and holding none of them is passed over without a call
        joined = "\0".join(named)
        return [
            e
            for e, name in zip(life.entities, names, strict=True)
            if name not in taken
            and names.count(name) == 1
            # "the apple iphone 15 pro" would name "the apple iphone 15" too
            and not (
                (name in joined or any(n in name for n in named))
                and any(_holds(name, n) or _holds(n, name) for n in named)
            )
        ]

    def _names(self, profile: Profile) -> list[str]:
        """Each entity's :meth:`who`, case-folded, once per profile (remembered on it),
        not once per (profile, life) pair."""
        return self.remember(
            "names", profile, lambda: [self.who(e).casefold() for e in profile.entities]
        )

    def strangers(
        self, profile: Profile, life: Profile, entity: Entity, attr: str, avoid: str | None = None
    ) -> list[Entity]:
        """The entities of ``life`` like ``entity`` (same kind, or people of that life for
        the user; with ``attr``) that this profile has no one named like, and (``avoid``:
        a condition attribute) whose value of ``avoid`` is not the entity's (the condition
        still names one entity)."""
        key = normalise(self.display(entity, avoid)) if avoid else None
        return [
            e
            for e in self.unnamed(profile, life)
            # the user is one of a kind: values said of the other life's people stand in
            if (e.kind == entity.kind or (entity.scenario == "user" and e.scenario == "roles"))
            and attr in e.facts
            and (avoid is None or avoid not in e.facts or normalise(self.display(e, avoid)) != key)
        ]

    def said_of_others(
        self,
        profile: Profile,
        entity: Entity,
        attr: str,
        rng: np.random.Generator,
        given: Given = (),
        avoid: str | None = None,
        told: Sequence[Entity] = (),
    ) -> tuple[list[str], tuple[tuple[str, str, str], ...]]:
        """Distractors the conversation says of other people, and the facts of another
        life to state for them (as noise).

        First the values of ``told`` (this profile's entities whose ``attr`` the
        trajectory states: the hard negatives), then those of strangers of one other
        life (the first of :meth:`other_lives` with the most, :meth:`strangers`): each
        value in the support given ``given``, distinct from the answer, and kept by the
        same flattening as answers (p_min / p(value)), up to ``MENTIONED``. Kept values
        are then uniform over the support, as pool distractors are, so a prior over the
        options still says nothing, while the conversation mentions distractors as it
        mentions the answer. For numbers, every value of ``told`` and of the first
        life's strangers is returned (as text, no facts): :meth:`value_options` prefers
        those near the answer, and :meth:`said_numbers` states the strangers'."""
        if self.attribute(entity, attr).type == "integer":
            numbers = [str(e.facts[attr].value) for e in told if attr in e.facts]
            for life in self.other_lives(profile):
                found = self.strangers(profile, life, entity, attr, avoid)
                if found:
                    numbers += [str(e.facts[attr].value) for e in found]
                    break
            return numbers, ()
        support = self.pool.support(entity.kind, attr, given)
        if not support or len(support) < 4:
            return [], ()
        floor = self.pool.floor(entity.kind, attr, given)
        answer = normalise(self.display(entity, attr))
        own: dict[str, str] = {}
        for other in told:
            fact = other.facts.get(attr)
            if fact is None or fact.history or fact.value not in support:
                continue
            shown = self.display(other, attr)
            key = normalise(shown)
            if key != answer and key not in own and rng.random() < floor / support[fact.value]:
                own[key] = shown
        if len(own) >= MENTIONED:
            return list(own.values())[:MENTIONED], ()
        # the other life that says the most distractors (one life: the noise is coherent)
        best: tuple[list[str], tuple[tuple[str, str, str], ...]] = ([], ())
        for life in self.other_lives(profile):
            values: dict[str, str] = {}
            facts: list[tuple[str, str, str]] = []
            for other in self.strangers(profile, life, entity, attr, avoid):
                value = other.facts[attr].value
                shown = self.display(other, attr)
                key = normalise(shown)
                if value not in support or key == answer or key in values or key in own:
                    continue
                if rng.random() < floor / support[value]:
                    values[key] = shown
                    facts.append((life.id, other.id, attr))
                if len(own) + len(facts) == MENTIONED:
                    break
            if len(facts) > len(best[1]):
                best = (list(values.values()), tuple(facts))
            if len(own) + len(facts) == MENTIONED:
                break
        return [*own.values(), *best[0]], best[1]

    def mates(
        self, profile: Profile, group: Sequence[Entity], entity: Entity, attr: str
    ) -> list[Entity]:
        """The entities whose ``attr`` a question about ``entity`` states as hard
        negatives: the others of its group that have it; for the user (one of a kind),
        the people of their life whose ``attr`` is comparable ("my occupation" beside
        "my father's occupation"), so that a question about the user also has its
        look-alikes, and distractors said in the conversation."""
        if self.is_user(entity):
            group = self.with_user(profile)
        return [
            e
            for e in others(group, entity)
            if attr in e.facts and self.comparable((entity, e), attr)
        ]

    def said_options(
        self, options: Sequence[str], said: Sequence[str], mentions: Sequence[object]
    ) -> tuple[str, ...]:
        """The distractors among ``options`` that the conversation states: those of
        ``said`` (values of the hard negatives and of strangers), or, for numbers, the
        ones that are (:meth:`said_of_others` gives candidates, some of them used)."""
        keys = {normalise(x) for x in said}
        out = tuple(o for o in options[1:] if normalise(o) in keys)
        # a number is displayed with its unit ("170 cm"): compare the numbers alone
        numbers = {x for x in said if x.lstrip("-").isdigit()}
        if numbers:
            out += tuple(o for o in options[1:] if o not in out and _number(o) in numbers)
        return out

    def said_numbers(
        self,
        profile: Profile,
        entity: Entity,
        attr: str,
        options: Sequence[str],
        avoid: str | None = None,
    ) -> tuple[tuple[str, str, str], ...]:
        """For a number (whose distractors are spread around the answer, not drawn from
        people), the strangers of the first of :meth:`other_lives` whose value is one of
        the distractors, up to ``MENTIONED``: their facts, to be stated."""
        if self.attribute(entity, attr).type != "integer":
            return ()
        wrong = {normalise(o) for o in options[1:]}
        for life in self.other_lives(profile):
            facts = [
                (life.id, other.id, attr)
                for other in self.strangers(profile, life, entity, attr, avoid)
                if normalise(self.display(other, attr)) in wrong
            ]
            if facts:
                return tuple(facts[:MENTIONED])
        return ()

    def hearsay(
        self, entity: Entity, attr: str, options: Sequence[str], said: Sequence[str]
    ) -> tuple[Hearsay, ...]:
        """Distractors not already said of other people, up to ``MENTIONED``, for the
        user to say are someone else's, as (value, label): a sentence (:func:`said_words`)
        repeated as said by someone else (the locale's ``hearsay``, label ""); any other
        value (a name, an e-mail, a number) said to be someone's ``label``
        (``hearsay_of``: an attribute no one else in the conversation has, a kind with
        one entity, a number far from anyone's). So
        every distractor is mentioned in the conversation, as the answer is. A value
        the answer holds ("5 years" in "15 years") is not said: it would read as the
        answer's. None without the locale's wording."""
        text = said_words(self.attribute(entity, attr))
        if not (self.loc.hearsay if text else self.loc.hearsay_of):
            return ()
        label = "" if text else self.hearsay_label(entity, attr)
        return self.hearsay_values(options, said, label, entity.kind, attr)

    def hearsay_values(
        self,
        options: Sequence[str],
        said: Sequence[str],
        label: str,
        kind: str = "",
        attribute: str = "",
    ) -> tuple[Hearsay, ...]:
        """The distractors of ``options`` (the answer first) not in ``said`` and not
        held by the answer, up to ``MENTIONED`` in all, each with ``label`` (and the
        attribute they are values of, if they are)."""
        keys = {normalise(x) for x in said}
        wrong = [o for o in options[1:] if normalise(o) not in keys and o not in options[0]]
        return tuple(
            Hearsay(o, label, kind, attribute) for o in wrong[: max(MENTIONED - len(said), 0)]
        )

    def hearsay_label(self, entity: Entity, attr: str) -> str:
        """How a ``hearsay_of`` line names ``attr``: the user's by its label ("age"),
        another entity's as the locale words its role (``hearsay_label_by_role``: an
        English time by its kind alone), else with its kind ("textbook's price") unless
        the label says it."""
        label = self.label(entity, attr)
        if self.is_user(entity):
            return label
        kind = self.schema.entities[entity.kind].label.get(self.loc.code, entity.kind)
        role = self.role(entity, attr)
        by_role = self.loc.hearsay_label_by_role.get(role) if role else None
        if by_role:  # a time told as its event: "their repair is on July 14"
            return by_role.format(kind=kind, label=label)
        if normalise(kind) in normalise(label):
            return label
        return self.loc.hearsay_label.format(kind=kind, label=label)

    def accept(
        self, entity: Entity, attr: str, rng: np.random.Generator, given: Given = ()
    ) -> bool:
        """Whether to keep a question about this value (see :class:`ValuePool`); numbers
        are kept (their options are spread around them, with a uniform rank)."""
        a = self.attribute(entity, attr)
        value = entity.facts[attr].value
        if a.type == "integer":
            return True
        if isinstance(a.dist, Template) and self._one_case(entity, attr, a.dist, given):
            # a text drawn uniformly from one case's templates ("{name} is great, ...") is
            # uniform already when the question fixes the case (a name fixes the type);
            # its pool count given a name is a handful of draws, and flattening by that
            # noise (fixed for the whole dataset) made some reviews rarely the answer, a
            # cue a blind reader learnt (zh abstention/places 0.376). Where the case is
            # free (an event's content given its size) the cases' shares are flattened
            return True
        return self.pool.accept(entity.kind, attr, value, rng, given)

    def _one_case(self, entity: Entity, attr: str, dist: Template, given: Given) -> bool:
        """Whether the values a question about ``attr`` may offer, given what it reveals,
        are templates of one case (no more of them than the largest case holds)."""
        support = self.pool.support(entity.kind, attr, given)
        largest = max((len(v) for v in dist.cases.values()), default=len(dist.default))
        return support is not None and 0 < len(support) <= max(largest, len(dist.default))

    @staticmethod
    def ref(entity: Entity, attr: str) -> FactRef:
        return FactRef(entity.id, attr)

    @staticmethod
    def fact(entity: Entity, attr: str) -> Fact:
        return entity.facts[attr]

    def choose(self, items: Sequence[str], rng: np.random.Generator) -> str:
        return items[int(rng.integers(len(items)))]

    def wording(
        self, kind: str, scenario: str, rng: np.random.Generator, entity: Entity | None = None
    ) -> str:
        """One of the locale's question templates for a kind in a scenario. Asked about
        ``entity``: the ``roles`` wording (zh 谁 and 位) only for a kind of people
        (:func:`memsim.schema.is_person`; a pet or a client firm is asked in the general
        wording, 哪个 and 个), and the wording of the entity's pool where the locale words
        that pool apart (not about the user)."""
        pool = None
        if entity is not None:
            if scenario == "roles" and not is_person(self.schema, entity.kind):
                scenario = ""
            if scenario != "user":
                pool = self.pool_name(entity)
        return self.choose(self.loc.questions.wording(kind, scenario, pool), rng)

    def pool_name(self, entity: Entity) -> str:
        """The pool ``entity`` is worded with (:attr:`Questions.by_pool`): its kind's
        ``pool``, else the kind's own name."""
        return pool_of(self.schema, entity.kind) or entity.kind

    def cap(self, text: str) -> str:
        return self.loc.cap(text)


@lru_cache(maxsize=4096)
def _relevant(net: BRNet, asked: str, revealed: tuple[str, ...]) -> frozenset[str]:
    import networkx as nx  # here: a process that never asks it does not import it

    keep = set(revealed) - {asked}
    separated = getattr(nx, "is_d_separator", None) or nx.d_separated
    for node in revealed:
        if node in keep and separated(net.graph, {asked}, {node}, keep - {node}):
            keep.discard(node)  # asked is independent of it given the rest: drop it
    return frozenset(keep | ({asked} & set(revealed)))


def relevant(net: BRNet, asked: str, revealed: tuple[str, ...]) -> frozenset[str]:
    """The revealed nodes ``asked`` depends on given the others; P(asked | revealed) =
    P(asked | these), since each node dropped is d-separated from it by the rest."""
    return _relevant(net, asked, revealed)


def said_words(attr: Attribute) -> bool:
    """Whether the attribute's values are someone's words (an opinion, a description):
    a text whose every template ends a sentence. Such a distractor is quoted as someone
    else's words; a name, an e-mail address, an ID or an employer quoted so ('My
    neighbor keeps saying: "Carla Williams"') says nothing, and is said to be someone
    else's instead ("A friend of mine told me their name is Carla Williams.")."""
    if attr.type != "text" or not isinstance(attr.dist, Template):
        return False
    texts = [*attr.dist.default, *(t for case in attr.dist.cases.values() for t in case)]
    return bool(texts) and all(t.rstrip().endswith(SENTENCE_ENDS) for t in texts)


def others(entities: Sequence[Entity], entity: Entity) -> list[Entity]:
    return [e for e in entities if e.id != entity.id]


__all__ = ["ORDERED_TYPES", "SCENARIOS", "USER_TOO", "QAContext", "others", "said_words"]


def _number(text: str) -> str:
    """The leading integer of an option ("170 cm" -> "170"), or ""."""
    found = re.match(r"-?\d+", text.strip())
    return found.group(0) if found else ""


def _holds(text: str, name: str) -> bool:
    """Whether ``name`` occurs in ``text`` as whole words (or anywhere, in a script
    written without spaces)."""
    # most pairs share no substring at all: that answer needs no regex
    if name not in text:
        return False
    if not name.isascii():
        return True
    return _whole_word(name).search(text) is not None


@lru_cache(maxsize=8192)
def _whole_word(name: str) -> re.Pattern[str]:
    return re.compile(rf"(?<!\w){re.escape(name)}(?!\w)")


def _same(value: object) -> object:
    return value


def _positions(schema: Schema, kind: str, attr: str) -> dict[str, int]:
    """An attribute's values by their first place in its declared order (memoised on
    the schema)."""
    key = ("value_positions", kind, attr)
    found: dict[str, int] | None = schema.memo.get(key)  # type: ignore[assignment]
    if found is None:
        found = {}
        for i, v in enumerate(schema.values_of(schema.attributes_of(kind)[attr])):
            found.setdefault(v, i)
        schema.memo[key] = found
    return found
