"""The noise pool: facts of other sampled profiles and the locale's chit-chat, rendered
by the template verbalizer exactly as real messages are.

Profiles come from the noise schema's own sampler at stream indices
``NOISE_START .. NOISE_START + NOISE_PROFILES - 1`` (far from a dataset's profiles,
``0..n``, and from the distractor pools at ``10**9``). The user's own facts are never
noise. A noise message must not change any answer, so for each trajectory an entity
of the pool is left out when

- a value it is named by (a relation such as ``mother``, an event's or item's name)
  occurs in the question or in a real message (it would add facts about, or
  contradict, an entity the user talks about);
- the question is about a group as a whole (conditional, comparative, aggregative, or
  a kind this module does not know) and the entity belongs to one of the question's
  scenarios (a noise relative would change "how many of my relatives ...");

and at most one pool entity per referring phrase ("my aunt") is used in a trajectory,
so noise does not contradict itself either. About :data:`CHIT_CHAT_SHARE` of the noise
messages are chit-chat, the others state one fact each. (Real filler messages
sometimes state two facts of one entity; noise does not, which keeps the number of
distinct noise texts bounded by the pool: the embedding mechanism embeds each once.)
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from numpy.typing import NDArray

from memsim.bench._tokenize import has_cjk
from memsim.profile import Entity, Fact
from memsim.schema import Schema
from memsim.verbalize import (
    TemplateVerbalizer,
    parse_when,
    relative_form,
    render_value,
    schema_locale,
    value_at,
)
from memsim.verbalize._render import RELATIVE_HORIZON_DAYS, template_fields

NOISE_START = 2 * 10**9
NOISE_PROFILES = 60
CHIT_CHAT_SHARE = 0.15
SELF_CONTAINED_KINDS = frozenset(
    {"simple", "post_processing", "noisy", "knowledge_update", "abstention"}
)
"""QA kinds whose answer depends only on the entities the question names."""
ALL_SCENARIOS = frozenset({"roles", "events", "items", "places"})
_EPOCH = dt.datetime(1970, 1, 1)
DAY = 24 * 60
STATIC, BY_DATE, BY_MINUTE = 0, 1, 2
"""What a noise fact's text depends on besides its phrasing (see NoisePool._shape)."""
TEXT_CACHE = 1 << 18
"""Rendered noise texts remembered (cleared when full: a cache, never a result)."""
_PHRASINGS = 1 << 8
"""Phrasings a fact may have for :meth:`NoisePool.texts_at`'s keys (more: one by one)."""
_MOMENT_BITS = 33
"""Room in a key for a minute after 1970 (+1): until about the year 18,000."""
_NEVER = 1 << 40
"""A day no date-time falls on (the event days of a fact that names none)."""


@dataclass(frozen=True)
class PoolEntity:
    entity: Entity
    scenario: str
    who: str
    """How the user names it, casefolded ("my aunt")."""
    names: tuple[str, ...]
    """The values it is named by, casefolded ("aunt")."""
    facts: tuple[Fact, ...]


Spec = tuple[int, tuple[int, ...]] | str
"""A noise message to render: (entity index, fact indices) or a chit-chat line."""


class NoisePool:
    def __init__(self, schema: Schema, seed: int, profiles: int = NOISE_PROFILES) -> None:
        from memsim.graph import BRNet
        from memsim.sampling import ProfileSampler

        self.schema = schema
        self.locale = schema_locale(schema)
        self.verbalizer = TemplateVerbalizer(schema, self.locale)
        self.chit_chat = tuple(self.locale.chit_chat)
        self.kind_scenario = {name: kind.scenario for name, kind in schema.entities.items()}
        sampled = ProfileSampler(BRNet(schema)).profiles(seed, NOISE_START, NOISE_START + profiles)
        self.entities = [e for p in sampled for e in self._pool_entities(p.entities)]
        by_name: dict[str, list[int]] = {}
        for i, e in enumerate(self.entities):
            for name in e.names:
                by_name.setdefault(name, []).append(i)
        self._by_name = by_name
        whos = {e.who: i for i, e in reversed(list(enumerate(self.entities)))}
        self._who_ids = np.array([whos[e.who] for e in self.entities], dtype=np.int64)
        self._n_facts = np.array([len(e.facts) for e in self.entities], dtype=np.int64)
        self._offset = np.concatenate(([0], np.cumsum(self._n_facts)[:-1])).astype(np.int64)
        """Each entity's first fact in the flat numbering of every pool fact (codes)."""
        self._fact_entity = np.repeat(np.arange(len(self.entities)), self._n_facts).tolist()
        self._fact_index = [f for e in self.entities for f in range(len(e.facts))]
        self._phrasings = np.zeros(len(self._fact_index), dtype=np.int64)
        """Each fact's phrasing count (0: not yet known) and what its text depends on."""
        self._depends = np.zeros(len(self._fact_index), dtype=np.int64)
        self._first_event = np.full(len(self._fact_index), _NEVER, dtype=np.int64)
        self._last_event = np.full(len(self._fact_index), -_NEVER, dtype=np.int64)
        """A BY_DATE fact's first and last date-time, as days after 1970 (texts_at)."""
        self._by_code: dict[int, str] = {}
        """Texts by their :meth:`_code_keys` key (chit-chat lines by their code)."""
        self._shapes: dict[tuple[int, int], tuple[int, int]] = {}
        self._texts: dict[tuple[int, int, int, int | None], str] = {}
        self._dated: dict[tuple[int, int], tuple[dt.datetime, ...]] = {}
        """A BY_DATE fact's date-times (those its phrasings may name)."""
        self._by_form: dict[tuple[int, int, int, tuple[str | None, ...]], str] = {}
        """BY_DATE texts by how each date-time is said (see _render_new)."""

    def _pool_entities(self, entities: Iterable[Entity]) -> Iterable[PoolEntity]:
        code = self.locale.code
        for entity in entities:
            if entity.scenario not in ALL_SCENARIOS:
                continue  # the user's own facts
            attrs = self.schema.attributes_of(entity.kind)
            facts = tuple(
                f for f in entity.facts.values() if attrs[f.attribute].phrasings.get(code)
            )
            if not facts:
                continue
            refer = self.schema.entities[entity.kind].refer.get(code, "")
            names = tuple(
                render_value(entity.facts[n], entity.facts[n].value, self.locale).casefold()
                for n in template_fields(refer)
                if n in entity.facts
            )
            who = self.verbalizer.who(entity).casefold()
            yield PoolEntity(entity, entity.scenario, who, names or (who,), facts)

    # --- which entities a trajectory may take noise from ----------------------------------
    def question_scenarios(self, scenario: str, fact_ids: Iterable[str]) -> frozenset[str]:
        """The scenarios a question is about: its own, or for a hybrid the scenarios of
        the entities its provenance names (all four when it has none, as in MemDaily)."""
        if scenario in ALL_SCENARIOS:
            return frozenset({scenario})
        kinds = {f.split(":")[-1].split("[")[0].split(".")[0] for f in fact_ids}
        found = {self.kind_scenario[k] for k in kinds if k in self.kind_scenario}
        if found == {"user"}:
            return frozenset()  # the user's own facts, which noise never states
        return frozenset(found & ALL_SCENARIOS) or ALL_SCENARIOS

    def allowed(self, qa_type: str, scenarios: frozenset[str], texts: Iterable[str]) -> list[int]:
        """Pool entities a trajectory may take noise from (see the module docstring)."""
        blob = "\n".join(texts).casefold()
        named = {i for name, ids in self._by_name.items() if _occurs(name, blob) for i in ids}
        group = qa_type not in SELF_CONTAINED_KINDS
        return [
            i
            for i, e in enumerate(self.entities)
            if i not in named and not (group and e.scenario in scenarios)
        ]

    # --- drawing and rendering ------------------------------------------------------------
    def draw(self, count: int, allowed: list[int], rng: np.random.Generator) -> list[Spec]:
        """``count`` noise messages for one trajectory, in a random order."""
        return [self.spec(code) for code in self.draw_codes(count, allowed, rng).tolist()]

    def spec(self, code: int) -> Spec:
        """The message a code of :meth:`draw_codes` stands for."""
        if code < 0:
            return self.chit_chat[-code - 1]
        return self._fact_entity[code], (self._fact_index[code],)

    def draw_codes(
        self, count: int, allowed: list[int], rng: np.random.Generator
    ) -> NDArray[np.int64]:
        """:meth:`draw` as codes: chit-chat line ``i`` is ``-i - 1``, a fact its number
        among every pool fact (entity by entity)."""
        chit = int(rng.binomial(count, CHIT_CHAT_SHARE)) if allowed else count
        codes = [-1 - _cycle(len(self.chit_chat), chit, rng)]
        if count > chit:
            # one entity per referring phrase: the first of each phrase in a random order
            order = rng.permutation(np.asarray(allowed, dtype=np.int64))
            _, first = np.unique(self._who_ids[order], return_index=True)
            chosen = np.sort(order[first])
            ends = np.cumsum(self._n_facts[chosen])
            units = _cycle(int(ends[-1]), count - chit, rng)
            slots = np.searchsorted(ends, units, side="right")
            starts = ends[slots] - self._n_facts[chosen[slots]]
            codes.append(self._offset[chosen[slots]] + units - starts)
        joined = np.concatenate(codes).astype(np.int64)
        return joined[rng.permutation(len(joined))]

    def phrasing_bounds(self, codes: NDArray[np.int64]) -> NDArray[np.int64]:
        """Each code's number of phrasings (its draw is ``rng.integers(bound)``; a
        chit-chat line's bound is 1: it draws nothing)."""
        facts = codes >= 0
        fact_codes = codes[facts]
        unknown = fact_codes[self._phrasings[fact_codes] == 0]
        if len(unknown):
            for code in np.unique(unknown).tolist():
                e, f = self._fact_entity[code], self._fact_index[code]
                known = self._shapes.get((e, f))
                if known is None:
                    known = self._shapes[e, f] = self._shape(e, f)
                self._phrasings[code], self._depends[code] = known
        bounds = np.ones(len(codes), dtype=np.int64)
        bounds[facts] = self._phrasings[fact_codes]
        return bounds

    def texts_at(
        self, codes: NDArray[np.int64], minutes: NDArray[np.int64], choices: NDArray[np.int64]
    ) -> list[str]:
        """The texts of ``codes`` said at ``minutes`` in the drawn phrasings ``choices``
        (0 for chit-chat), after :meth:`phrasing_bounds` has seen the codes: each the
        template verbalizer's text of its fact at its minute in that phrasing
        (``tests/bench/_reference.py`` renders them one by one, for the tests).

        Texts are looked up by a key made as arrays: the fact, its phrasing and what
        its text depends on. A dated fact's text depends on its message's day only
        through how each of its date-times is said then (:func:`relative_form`), which
        is "by its date" unless one falls 1 to 13 days after that day: such days share
        one key (most days, so most dated texts are found, not made)."""
        facts = codes >= 0
        fact_codes = codes[facts]
        if (len(minutes) and int(minutes.min()) < 0) or (
            len(fact_codes) and int(self._phrasings[fact_codes].max()) >= _PHRASINGS
        ):  # the keys would collide: one by one
            each = zip(codes.tolist(), minutes.tolist(), choices.tolist(), strict=True)
            return [self._text_at(c, m, k) for c, m, k in each]
        at = minutes[facts]
        day = at // DAY
        depends = self._depends[fact_codes]
        near = (self._last_event[fact_codes] > day) & (
            self._first_event[fact_codes] <= day + RELATIVE_HORIZON_DAYS
        )
        moment = np.where(
            depends == STATIC,
            0,
            np.where(depends == BY_DATE, np.where(near, day + 1, 0), at + 1),
        )
        keys = codes.copy()
        keys[facts] = ((fact_codes * _PHRASINGS + choices[facts]) << _MOMENT_BITS) + moment
        texts: list[str | None] = list(map(self._by_code.get, keys.tolist()))
        if None in texts:
            self._fill(texts, keys, codes, choices, minutes)
        return texts  # type: ignore[return-value]  # _fill left no None

    def _text_at(self, code: int, minute: int, choice: int) -> str:
        """The text of one code at ``minute`` in phrasing ``choice``, found by its key
        (the fact, the phrasing, what the text depends on) or rendered."""
        if code < 0:
            return self.chit_chat[-code - 1]
        e, f = self._fact_entity[code], self._fact_index[code]
        depends = int(self._depends[code])
        moment = None if depends == STATIC else minute // DAY if depends == BY_DATE else minute
        key = (e, f, choice, moment)
        text = self._texts.get(key)
        return text if text is not None else self._render_new(key, _time(minute))

    def _fill(
        self,
        texts: list[str | None],
        keys: NDArray[np.int64],
        codes: NDArray[np.int64],
        choices: NDArray[np.int64],
        minutes: NDArray[np.int64],
    ) -> None:
        """The texts :meth:`texts_at` did not find, made one by one
        (:meth:`_text_at`) and remembered by their keys."""
        if len(self._by_code) >= TEXT_CACHE:
            self._by_code.clear()
        for i in [i for i, t in enumerate(texts) if t is None]:
            text = self._text_at(int(codes[i]), int(minutes[i]), int(choices[i]))
            texts[i] = self._by_code[int(keys[i])] = text

    def _render_new(self, key: tuple[int, int, int, int | None], when: dt.datetime) -> str:
        entity_index, fact_index, choice, _ = key
        if len(self._texts) >= TEXT_CACHE:
            self._texts.clear()
            self._by_form.clear()
        e = self.entities[entity_index]
        fact = e.facts[fact_index]
        dated = self._dated.get((entity_index, fact_index))
        if dated is None:  # STATIC or BY_MINUTE
            template = self.verbalizer.phrasings(e.entity, fact)[choice]
            made = self._texts[key] = self.verbalizer.render(e.entity, fact, when, template)
            return made
        # A BY_DATE text reads its message's date only through relative_form of each
        # date-time it names (no fact it names changes over time): most days say every
        # one of them by its date, so days share their texts and few are rendered.
        forms = tuple(relative_form(event, when) for event in dated)
        text = self._by_form.get((entity_index, fact_index, choice, forms))
        if text is None:
            template = self.verbalizer.phrasings(e.entity, fact)[choice]
            text = self.verbalizer.render(e.entity, fact, when, template)
            self._by_form[entity_index, fact_index, choice, forms] = text
        self._texts[key] = text
        return text

    def _shape(self, entity_index: int, fact_index: int) -> tuple[int, int]:
        """How many phrasings a fact has, and what its rendering depends on besides the
        phrasing: nothing (:data:`STATIC`), the message's date (a date-time said
        relatively, "next Friday") or its minute (a value that changes over time, in
        the fact itself or in a field its phrasings or the entity's name use)."""
        e = self.entities[entity_index]
        fact = e.facts[fact_index]
        phrasings = self.verbalizer.phrasings(e.entity, fact)
        refer = self.schema.entities[e.entity.kind].refer.get(self.locale.code, "")
        names = {fact.attribute, *template_fields(refer)}
        for template in phrasings:
            names.update(template_fields(template))
        used = [e.entity.facts[n] for n in sorted(names) if n in e.entity.facts]
        if any(f.history for f in used):
            return len(phrasings), BY_MINUTE
        if any(f.type == "datetime" for f in used):
            dated = self._dated[entity_index, fact_index] = tuple(
                parse_when(str(f.value)) for f in used if f.type == "datetime"
            )
            days = [(when.date() - _EPOCH.date()).days for when in dated]
            code = int(self._offset[entity_index]) + fact_index
            self._first_event[code], self._last_event[code] = min(days), max(days)
            return len(phrasings), BY_DATE
        return len(phrasings), STATIC

    def fact_value(self, spec: Spec, when: dt.datetime) -> object:
        """The value a fact message states at ``when`` (for tests)."""
        assert not isinstance(spec, str)
        e = self.entities[spec[0]]
        return value_at(e.facts[spec[1][0]], when)


def _time(minute: int) -> dt.datetime:
    return _EPOCH + dt.timedelta(minutes=minute)


def _cycle(n: int, count: int, rng: np.random.Generator) -> NDArray[np.int64]:
    """``count`` indices below ``n``: without replacement while they last, then again."""
    if count <= 0 or n <= 0:
        return np.zeros(0, dtype=np.int64)
    rounds = [rng.permutation(n) for _ in range(-(-count // n))]
    return np.concatenate(rounds)[:count]


@lru_cache(maxsize=1 << 14)
def _word_regex(name: str) -> re.Pattern[str]:
    return re.compile(rf"(?<!\w){re.escape(name)}(?!\w)")


def _occurs(name: str, blob: str) -> bool:
    if not name or name not in blob:
        return False
    return has_cjk(name) or _word_regex(name).search(blob) is not None
