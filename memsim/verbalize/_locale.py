"""Per-locale language data: grammar forms, calendar words, chit-chat, question wording.

A locale is data, not code: ``locales/<code>.yaml`` next to this file (or any file
passed to :func:`load_locale`) maps key for key onto :class:`LocaleData`.
"""

from __future__ import annotations

import os
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator
from pydantic_core import InitErrorDetails, PydanticCustomError

from memsim._yaml import safe_load
from memsim.verbalize import _wording as w

LOCALES_DIR = Path(__file__).parent / "locales"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Forms(_Strict):
    """Words that agree with the subject: the user ("I") or someone else."""

    whose: str
    """Possessive; ``{who}`` in it is replaced ("{who}'s" -> "my mother's")."""
    be: str
    have: str
    s: str
    """Verb ending: "" for "I work", "s" for "she works" (the stem may change it: see
    :attr:`Grammar.verb_endings`)."""
    whom: str = "{who}"
    """The object form ("me"; ``{who}`` in it is replaced): what a phrasing's ``{who}``
    says where it is the object ("Promoters can reach me at ...", see
    :class:`Grammar`)."""
    again: str | None = None
    """The possessive of a subject the phrasing has already named ("their"): a
    ``{whose}`` after the phrasing's first ``{who}`` or ``{whose}`` ("{who} got {whose}
    first colony": "my mentor got their first colony", not "my mentor got my mentor's
    first colony"). None: :attr:`whose` again."""
    again_whom: str | None = None
    """The object form of a subject the phrasing has already named, in another clause
    ("them": "{who} {be} in {value}, and friends visit {who} there": "my bandmate is
    in Denver, and friends visit them there"). None: :attr:`whom`."""
    reflexive: str | None = None
    """The object form of a subject named again in its own clause ("myself",
    "themselves": "{who} would call {who} {a} {value}": "I would call myself a
    hobbyist", not "I would call I a hobbyist"). None: ``{who}`` as written."""


class Grammar(_Strict):
    """Agreement the tokens alone cannot carry (memsim.verbalize._agree), so that a
    phrasing written naturally for anyone reads right for the user and for others."""

    verb_endings: list[tuple[str, str]] = Field(default_factory=list)
    """(pattern at the end of a stem, replacement): how ``word{s}`` is written when the
    verb ending is not empty; the first that matches wins, else the ending is added
    ("do{s}" -> "does", "carry{s}" -> "carries", "want{s}" -> "wants")."""
    object_after: list[str] = Field(default_factory=list)
    """Words after which ``{who}`` is an object ("write to {who}", "home for {who}"):
    it is then written in the ``whom`` form. Prepositions that also begin a clause
    ("as", "after", "before") belong in :attr:`object_before` only."""
    plural_endings: list[tuple[str, str]] = Field(default_factory=list)
    """(pattern at the end of a label, replacement): a group's label in the plural where
    the ``plural`` template would misspell it ("delivery" -> "deliveries", "box" ->
    "boxes"); the first that matches wins, else the ``plural`` template."""
    singular: list[tuple[str, str]] = Field(default_factory=list)
    """(pattern at the end of a unit, replacement): a unit said after a value of one
    ("1 year", not "1 years"); the first that matches wins (none: units as written)."""
    singular_words: dict[str, str] = Field(default_factory=dict)
    """Units whose singular no pattern makes, by their last word ("people": "person")."""
    unit_head_before: list[str] = Field(default_factory=list)
    """Words that follow the head of a unit of several words ("frames of brood",
    "dollars a kilo"): the word before the first of them is made singular, not the
    last ("1 frame of brood", "1 dollar a kilo"). None: the last word is the head."""
    one: list[str] = Field(default_factory=list)
    """Values that take the singular unit ("1")."""
    clause_openers: list[str] = Field(default_factory=list)
    """Words that open a clause ("and", "when", "because"): a ``{who}`` named again right
    after one, or after punctuation, is a subject ("When {who} {be} off the road,
    {who} {be} in ..."); anywhere else it is an object, of its own clause
    (:attr:`Forms.reflexive`) or of another (:attr:`Forms.again_whom`). None: a
    ``{who}`` named again is said as written."""
    object_before: list[str] = Field(default_factory=list)
    """Words before which a ``{who}`` that follows a word (not the start of a clause) is
    an object ("reach {who} at", "know {who} as"); so is one followed by the value or
    the end of a sentence ("calls {who} {value}"). None of either: never changed."""


class Calendar(_Strict):
    weekdays: list[str] = Field(min_length=7, max_length=7)
    """Monday first."""
    weekdays_short: list[str] = Field(min_length=7, max_length=7)
    months: list[str] = Field(min_length=12, max_length=12)
    message_time: str
    """Message and question timestamps; tokens {year} {month:02d} {day:02d} {weekday_short}
    {hour:02d} {minute:02d}."""
    month_day: str
    date: str
    clock: str
    """Time of day; tokens {hour12} {minute:02d} {ampm} {hour:02d}."""
    clock_on_hour: str | None = None
    """Time of day when the minutes are 0 ("晚上7点" rather than "晚上7点00分");
    ``clock`` when unset."""
    am: str = ""
    pm: str = ""
    day_periods: dict[int, str] = Field(default_factory=dict)
    """Words for parts of the day by the hour they start at ({0: 凌晨, 5: 早上, 12: 中午,
    13: 下午, 18: 晚上}); they fill ``{ampm}`` in place of ``am``/``pm`` when given."""
    tomorrow: str
    this_weekday: str
    next_weekday: str
    on_date: str


class PoolWording(_Strict):
    """A pool's own question wording (:attr:`Questions.by_pool`), checked as the
    kinds' general wording is."""

    simple: list[w.Simple] = Field(default_factory=list)
    conditional: list[w.Conditional] = Field(default_factory=list)
    comparative: list[w.Comparative] = Field(default_factory=list)
    aggregative: list[w.Aggregative] = Field(default_factory=list)
    condition: w.Condition | None = None
    """The pool's noun phrase that picks one of its entities out by a value, over
    :attr:`Questions.condition`, where its words differ beyond the measure word."""
    measure: w.Measure | None = None
    """The word the language counts the pool's entities with (zh 单 for shoots, 家 for
    publishers), said by every condition phrase's ``{measure}``: the general one, an
    attribute's and a role's ("……的那单拍摄", not "……的那个拍摄"); none:
    :attr:`Questions.measure`."""


def _problem(loc: tuple[str | int, ...], given: str, message: str) -> InitErrorDetails:
    """A problem of one entry, at its own place (so at its own file:line)."""
    error = PydanticCustomError("wording", "{message}", {"message": message})
    return InitErrorDetails(type=error, loc=loc, input=given)


class Questions(_Strict):
    """Question wording per QA kind; ``{who}``, ``{whose}``, ``{label}`` and kind-specific
    tokens are filled by the QA kinds."""

    simple: list[w.Simple]
    conditional: list[w.Conditional]
    comparative: list[w.Comparative]
    comparative_options: dict[str, str]
    aggregative: list[w.Aggregative]
    aggregative_predicates: dict[str, str]
    post_processing: dict[str, list[str]]
    hybrid_join: w.Join
    answer_join: str
    noisy_preface: list[w.Preface]
    by_scenario: dict[str, dict[str, list[str]]] = Field(default_factory=dict)
    """Wording that replaces a kind's for one scenario, e.g. ``{events: {comparative:
    [...]}}`` where a language words questions about things and about people apart;
    each entry checked as the kind's general wording is (``{who}`` optional in the
    user's scenario), a problem reported at the entry (:func:`w.scenario_check`)."""

    by_pool: dict[str, PoolWording] = Field(default_factory=dict)
    """Wording that replaces a kind's (and :attr:`by_scenario`'s) for the entities of one
    pool (a kind's ``pool``, else the kind's own name), outside the user's scenario: a
    language that counts people and things with different words (zh 位 / 家) words a
    ``roles`` kind that is not people (publishers, rival teams) apart from the people."""

    condition: w.Condition = "the {group} whose {label} is {value}"
    """The noun phrase that picks an entity out by an attribute without a ``condition``
    of its own in :attr:`by_attribute`."""
    measure: w.Measure = ""
    """The measure word a condition phrase's ``{measure}`` says for an entity whose pool
    declares none (zh 个; a language without measure words leaves it empty and its
    phrases never say it)."""
    measure_people: w.Measure | None = None
    """The one it says for a person whose pool declares none (zh 位: "叫孙楠的那位科任老师",
    not 那个; a schema's people need no declaration); none: :attr:`measure`."""
    by_attribute: dict[str, dict[str, list[str]]] = Field(default_factory=dict)
    """Wording of one attribute (``<kind>.<attribute>`` or ``<attribute>``) over the
    kinds' general wording, so a question reads as one would ask it ("What did I think
    of {who}?", not "What is the opinion of {who}?"): ``simple`` questions (``{who}``,
    ``{whose}``, ``{be}``, ``{have}``, ``{s}`` agree with whom they ask about; one with
    ``{who}`` and none of ``{be}``/``{have}``/``{s}`` is not asked of the user),
    ``comparative`` ones (``{a}``, ``{b}``), and ``condition``: the noun phrase that
    picks an entity out by the attribute in a conditional question ("the {group} I
    {value}": "the item I own"; ``{group}``, ``{value}``, ``{a}`` its article)."""

    by_role: dict[str, dict[str, list[str]]] = Field(default_factory=dict)
    """Wording of an attribute by its declared ``role`` (``time``, ``name``), for the
    attributes :attr:`by_attribute` does not word, so any schema's event time reads
    "When is my Tulsa show?" (not "What is the showtime of ...?"); the user's attributes
    are not worded by role (the user's location is not "where I am")."""

    by_type: dict[str, dict[str, list[str]]] = Field(default_factory=dict)
    """Wording of an attribute by its type (``integer``, ``date``, ...), for the
    attributes neither :attr:`by_attribute` nor :attr:`by_role` words: a language may
    ask a number otherwise than a name (zh "……是多少？", not "……是什么？")."""

    asks_by_type: dict[str, dict[str, str]] = Field(default_factory=dict)
    """Words of a general template replaced where it asks a value of a type (zh
    ``integer: {是什么: 是多少}``, ``date: {是什么: 是哪天}``): conditional, knowledge-update
    and "on <day>" questions keep their own wording (a pool's measure word included)
    and ask a number as a number is asked. :attr:`by_type` words simple questions."""

    by_unit: dict[str, dict[str, str]] = Field(default_factory=dict)
    """Comparison words by an attribute's unit (``{岁: {higher: 更大}}``,
    ``{minutes: {higher: longer}}``) and counting predicates (``{分钟: {gt: 长于{value}}}``:
    "考试时长长于83分钟", not 高于), for attributes whose schema and
    ``comparative_options`` (``higher.<attribute>``) say none: a unit that says what is
    measured says how two values compare (an age is older, a weight heavier), whatever
    the attribute is called; a unit that says several things (years: an age or a
    duration) is left out. A unit that is no key compares as the longest key it begins
    with (zh 个座位 as 个): a measure word and a noun. A schema's overlay may add or
    change entries."""

    @field_validator("by_scenario")
    @classmethod
    def _scenario_tokens(cls, found: dict[str, dict[str, list[str]]]) -> Any:
        problems = []
        for scenario, keys in found.items():
            for key, entries in keys.items():
                try:
                    check = w.scenario_check(scenario, key)
                except ValueError as exc:
                    problems.append(_problem((scenario, key), key, str(exc)))
                    continue
                for i, text in enumerate(entries):
                    try:
                        check(text)
                    except ValueError as exc:
                        problems.append(_problem((scenario, key, i), text, str(exc)))
        if problems:
            raise ValidationError.from_exception_data("by_scenario", problems)
        return found

    def of_attribute(
        self,
        kind: str,
        attribute: str,
        key: str,
        role: str | None = None,
        type_: str | None = None,
    ) -> list[str]:
        """The attribute's own wording for ``key``: by ``<kind>.<attribute>``, by the
        attribute's name, by its ``role``, then by its type (none: the kind's general
        wording)."""
        for name in (f"{kind}.{attribute}", attribute):
            found = self.by_attribute.get(name, {}).get(key)
            if found:
                return list(found)
        if role and (found := self.by_role.get(role, {}).get(key)):
            return list(found)
        return list(self.by_type.get(type_, {}).get(key, ())) if type_ else []

    def asked(self, template: str, type_: str) -> str:
        """``template`` as it asks a value of ``type_`` (:attr:`asks_by_type`)."""
        for said, asked in self.asks_by_type.get(type_, {}).items():
            template = template.replace(said, asked)
        return template

    def wording(self, kind: str, scenario: str, pool: str | None = None) -> list[str]:
        """The templates of a kind (simple, conditional, comparative, aggregative) for
        a scenario, or for the entities of a pool where :attr:`by_pool` words it."""
        own = self.by_pool.get(pool) if pool else None
        override = (getattr(own, kind, None) if own else None) or (
            self.by_scenario.get(scenario, {}).get(kind)
        )
        return override if override else list(getattr(self, kind))

    def condition_of(self, pool: str | None) -> str:
        """The noun phrase that picks an entity of ``pool`` out by a value: the pool's
        own (:attr:`PoolWording.condition`), else :attr:`condition`."""
        own = self.by_pool.get(pool) if pool else None
        return own.condition if own is not None and own.condition else self.condition

    def measure_of(self, pool: str | None, person: bool = False) -> str:
        """The measure word of ``pool`` (:attr:`PoolWording.measure`), else
        :attr:`measure_people` for a person, else :attr:`measure`."""
        own = self.by_pool.get(pool) if pool else None
        if own is not None and own.measure:
            return own.measure
        return self.measure_people if person and self.measure_people else self.measure

    @field_validator("by_attribute", "by_role")
    @classmethod
    def _condition_tokens(cls, found: dict[str, dict[str, list[str]]]) -> Any:
        """Each ``condition`` phrase is checked as :attr:`condition` is (a misspelt
        token was a KeyError at generation), a problem reported at the entry."""
        problems = []
        for name, keys in found.items():
            for i, text in enumerate(keys.get("condition", ())):
                try:
                    w.check_condition(text)
                except ValueError as exc:
                    problems.append(_problem((name, "condition", i), text, str(exc)))
        if problems:
            raise ValidationError.from_exception_data("condition", problems)
        return found

    def predicate(self, op: str, attribute: str, unit: str | None = None) -> str:
        """An aggregative predicate for an attribute: ``aggregative_predicates`` may hold
        ``<op>.<attribute>`` ("长于{value}" for a duration), then :attr:`by_unit` the
        predicate for its ``unit`` (zh 分钟: 长于, 人: 多于, as it compares them: 更长,
        更多), before the general ``<op>``."""
        options = self.aggregative_predicates
        own = options.get(f"{op}.{attribute}")
        if own is None and unit:
            own = self._by_unit(unit, op)
        return own if own is not None else options[op]

    def more(self, key: str, attribute: str, unit: str | None = None) -> str:
        """The comparative word for an attribute: ``comparative_options`` may hold
        ``higher.<attribute>`` ("年龄更大", "身高更高"), then :attr:`by_unit` the word for
        its ``unit``, before the general ``higher``."""
        options = self.comparative_options
        own = options.get(f"{key}.{attribute}")
        if own is None and unit:
            own = self._by_unit(unit, key)
        return own if own is not None else options[key]

    def _by_unit(self, unit: str, key: str) -> str | None:
        """The word of the longest :attr:`by_unit` key that ``unit`` begins with: the unit
        itself, else its head, so a compound unit (a measure word and a noun: zh 个座位,
        只狗, 万次下载) compares as its measure word does (个: 更多), not by the general
        ``higher`` (更高)."""
        for n in range(len(unit), 0, -1):
            own = self.by_unit.get(unit[:n], {}).get(key)
            if own is not None:
                return own
        return None


class HistoryWords(_Strict):
    """How messages tell a change and how questions ask about what changed, was never
    told, or happened when (the knowledge_update, temporal and abstention kinds).

    ``change_told`` says a change explicitly: ``{sentence}`` is the fact as its phrasing
    says it at the message's time, ``{cause}`` the change's cause as the schema says it,
    ``{date}`` the day it happened. ``never_told`` is the option of an unanswerable
    question; ``never_told_answer`` its open answer, naming what was not mentioned.
    """

    change_told: list[str] = Field(min_length=1)
    never_told: str
    never_told_answer: str
    knowledge_update: dict[str, list[str]]
    """``now`` ({whose} {label}) and ``before`` (also {cause} {date})."""
    temporal: dict[str, list[str]]
    """``value_at`` ({whose} {label} {date}), ``order`` ({a} {b} {c}), ``elapsed_days``
    and ``elapsed_weeks`` ({whose} {label} {value}), ``count`` ({group} {start} {end}),
    ``date_of`` ({who})."""


class Recognise(_Strict):
    """How :mod:`memsim.verify` recognises values that a message or a rewrite states.

    Date, clock and relative-day patterns use the calendar's tokens ({year} {month}
    {month_name} {day} {weekday} {hour} {hour12} {minute} {ampm}; format specs such as
    ``:02d`` are ignored); a space matches any spacing, a comma is optional. The
    calendar's own rendering templates are always recognised too, so every locale
    recognises what it renders; these lists add the variants an LLM rewrite may use.
    """

    number_words: dict[str, int] = Field(default_factory=dict)
    """Number words and their values ("seven": 7, "七": 7)."""
    number_multipliers: dict[str, int] = Field(default_factory=dict)
    """Words that multiply what precedes them ("hundred": 100, "百": 100)."""
    number_separators: list[str] = Field(default_factory=list)
    """What may stand between the words of one number ("-", " ", " and ")."""
    ordinal_suffix: str = ""
    """A regex allowed right after a day number ("st|nd|rd|th")."""
    months_short: list[str] = Field(default_factory=list)
    weekday_names: list[str] = Field(default_factory=list)
    """Other names of the weekdays, in groups of seven, Monday first ("星期一"..."星期日")."""
    month_day: list[str] = Field(default_factory=list)
    date: list[str] = Field(default_factory=list)
    clock: list[str] = Field(default_factory=list)
    am: list[str] = Field(default_factory=list)
    pm: list[str] = Field(default_factory=list)
    half_hour: list[str] = Field(default_factory=list)
    """Words for "and a half hour" in a clock pattern's {half} token ("半")."""
    tomorrow: list[str] = Field(default_factory=list)
    this_weekday: list[str] = Field(default_factory=list)
    next_weekday: list[str] = Field(default_factory=list)
    capitalised_names: bool = False
    """Whether names are capitalised words (English): a rewrite that brings in a
    capitalised word the source does not have is rejected as a possible new name."""
    function_words: list[str] = Field(default_factory=list)
    """Capitalised words that are never names ("I", "I'm")."""
    meta_markers: list[str] = Field(default_factory=list)
    """Phrases that betray prompt leakage or meta-text in a rewrite ("rewritten")."""
    retractions: list[str] = Field(default_factory=list)
    """Words that deny or take back what a message states ("not", "no wait",
    "actually", "不是", "其实"): a rewrite may not bring one in that its source lacks
    (a negation or a self-correction of a fact)."""
    known_names: list[str] = Field(default_factory=list)
    """Names of places, companies and the like, beyond the schema's values, that a
    rewrite must not bring in unless its source has them. Where names are not
    capitalised (Chinese) this list and the schema's values are how a new name is
    caught; leave out names that are also common words ("美的", "apple")."""


class Task(_Strict):
    """A generic task a user asks the assistant for help with (a task session's topic)."""

    topic: str
    opener: list[str] = Field(min_length=1)
    """What the user says to start the task; states no fact of the user."""
    help: list[str] = Field(min_length=1)
    """The assistant's short help with it; states no fact of the user."""


class Conversation(_Strict):
    """Sessions with assistant turns (:mod:`memsim.history`). No line states a value
    of any fact: the assistant only says what the user has said, or nothing at all;
    ``found`` says the one value an ``assistant_said`` question's evidence holds."""

    tasks: list[Task] = Field(min_length=2)
    acknowledgements: list[str] = Field(min_length=2)
    """The assistant's reply to a user turn that states a fact."""
    follow_ups: list[str] = Field(min_length=2)
    """A follow-up question the assistant may ask after a fact."""
    replies: list[str] = Field(min_length=2)
    """The assistant's reply to chit-chat."""
    thanks: list[str] = Field(min_length=1)
    """The user's closing line of a task session."""
    welcome: list[str] = Field(min_length=1)
    """The assistant's answer to ``thanks``."""
    lookups: list[str] = Field(default_factory=list)
    """The user asks the assistant to look something up: ``{label}`` of ``{who}`` (the
    ``assistant_said`` kind; no value)."""
    found: list[str] = Field(default_factory=list)
    """The assistant's answer to a lookup: the only assistant lines that state a value,
    ``{value}``, and only as the evidence of an ``assistant_said`` question."""
    recalled: list[str] = Field(default_factory=list)
    """The question of the ``assistant_said`` kind: what the assistant found earlier
    (``{label}``, ``{who}``)."""
    llm_prompt: str | None = None
    """System prompt of an LLM that writes the assistant's turns: it gets the user's
    turn in ``<user>`` tags and the template reply in ``<message>`` tags."""


class LocaleData(_Strict):
    code: str
    self_forms: Forms
    other_forms: Forms
    calendar: Calendar
    seasons: dict[str, list[int]]
    """Season name -> months (1-12) it covers."""
    grammar: Grammar = Field(default_factory=Grammar)
    two_facts: list[w.TwoFacts]
    """How two facts become one message: {first} and {second}."""
    chit_chat: list[w.ChitChat] = Field(min_length=20)
    hearsay: list[w.Hearsay] = Field(default_factory=list)
    """How the user repeats what someone else said, ``{value}`` quoted: a distractor said
    by another person, so the answer is not the only option the conversation holds
    (none: no such messages)."""
    hearsay_of: list[w.HearsayOf] = Field(default_factory=list)
    """How the user says a value is someone else's: ``{label}`` (the attribute, with its
    kind: :attr:`hearsay_label`) is ``{value}``, a distractor of any type that nothing
    else in the conversation says (an attribute of the user's own, of a kind with one
    entity): so the answer is not the only option the conversation holds (none: only
    text distractors are repeated, as ``hearsay``)."""
    hearsay_people: list[w.Person] = Field(default_factory=list)
    """A person outside the profile, as a ``hearsay_of`` value of a person's attribute
    is said of them in the attribute's own phrasings ("my friend {first}": ``{first}``
    a first name, ``{last}`` a last name, from the locale's name lists); none: such
    values are said in ``hearsay_of`` lines."""
    hearsay_label: w.HearsayLabel = "{kind}'s {label}"
    """An attribute of an entity other than the user, as a ``hearsay_of`` line names it
    ("textbook's price"); the user's attributes go by their label alone."""
    hearsay_label_by_role: dict[str, w.HearsayRoleLabel] = Field(default_factory=dict)
    """:attr:`hearsay_label` of an attribute by its declared ``role``, where the value
    says what the label would: an English date-time carries its preposition ("on April
    12"), so a time is told as its event ("their hive inspection is on April 12", en
    ``time: "{kind}"``), not "their hive inspection's time is on April 12"."""
    domain_label: w.DomainLabel = "{label} domain"
    """What an e-mail domain is called in a ``hearsay_of`` line ("email address domain")."""
    questions: Questions
    history: HistoryWords
    plural: str = "{label}s"
    """A group's label in the plural ("relatives")."""
    either: str = "{a} or {b}"
    both: str = "{a} and {b}"
    home: str = "home"
    place: str = "{spot}, {city}"
    """A message's place: where the user is (home, the employer, an event) and the city."""
    vowels: str = "aeiou"
    """Values starting with these letters take ``article_before_vowel`` for ``{a}``."""
    article: str = "a"
    """What ``{a}`` says before a value (an empty string where a language has none)."""
    article_before_vowel: str = "an"
    article_exceptions: tuple[str, ...] = ()
    """Beginnings of values whose first letter misleads (lower case): "uni" (a
    university professor) takes ``article``, "hour" takes ``article_before_vowel``."""
    capitalize: bool = True
    """Messages, options and answers that start with a lowercase letter get a capital
    (off for languages without case, where it could only change a value such as
    "iPhone" that happens to begin a sentence)."""
    with_unit: str = "{value} {unit}"
    """A value with its unit, as answers and options write it ("36 years", "36岁")."""
    recognise: Recognise = Field(default_factory=Recognise)
    faker: str | None = None
    """Faker's locale for generated names ("en_US", "zh_CN"); the code itself when unset."""
    name_format: str = "{first} {last}"
    """How a generated full name is written when a ``person_name`` says no ``format``
    (Chinese: ``{last}{first}``)."""
    rewrite_prompts: dict[str, str] = Field(default_factory=dict)
    """LLM rewrite prompts over the language's prompt file, key by key (``system``,
    ``persona_field``, ...; see memsim.rewrite.RewritePrompts)."""
    conversation: Conversation | None = None
    """Assistant turns and task sessions of multi-session histories (None: a locale
    without them cannot make histories)."""

    def plural_of(self, label: str) -> str:
        """A group's label in the plural ("relatives", "deliveries")."""
        for pattern, replacement in self.grammar.plural_endings:
            many, n = re.subn(f"(?:{pattern})$", replacement, label)
            if n:
                return many
        return self.plural.format(label=label)

    def unit_for(self, value: str, unit: str) -> str:
        """``unit`` as said after ``value``: singular after a value of one, where the
        locale's ``grammar`` says how ("1 year", "1 loading bay", "1 person")."""
        g = self.grammar
        if value not in g.one:
            return unit
        words = unit.split(" ")
        at = next((i for i, w in enumerate(words) if i and w in g.unit_head_before), None)
        if at is None:
            at = len(words)
        before, noun, rest = " ".join(words[: at - 1]), words[at - 1], words[at:]
        return " ".join(w for w in (before, self._singular(noun), *rest) if w)

    def _singular(self, noun: str) -> str:
        """One word of a unit in the singular: ``singular_words``, else the first
        ``singular`` pattern that matches, else as written."""
        g = self.grammar
        if noun in g.singular_words:
            return g.singular_words[noun]
        for pattern, replacement in g.singular:
            one, n = re.subn(f"(?:{pattern})$", replacement, noun)
            if n:
                return one
        return noun

    def with_unit_of(self, value: str, unit: str | None) -> str:
        """A value with its unit, as answers, options and margins write it (``with_unit``,
        the unit singular after one); the value alone without a unit."""
        return (
            self.with_unit.format(value=value, unit=self.unit_for(value, unit)) if unit else value
        )

    def article_for(self, value: str) -> str:
        vowel = value[:1].lower() in self.vowels
        if value.lower().startswith(self.article_exceptions):
            vowel = not vowel
        return self.article_before_vowel if vowel else self.article

    def cap(self, text: str) -> str:
        return text[:1].upper() + text[1:] if self.capitalize and text else text

    def as_option(self, who: str, user: bool) -> str:
        """An entity named as an answer option: the user in the object form, since an
        option answers "whose ...?" or "which ... first?" on its own ("Me", not "I";
        zh 我 either way), anyone else as named."""
        return self.self_forms.whom.format(who=who) if user else who


LOCALE_PATH_ENV = "MEMSIM_LOCALE_PATH"
"""Folders (separated like PATH) searched after the bundled ones for ``<code>.yaml``, so
a new locale needs no change to memsim: its data file and a schema's phrasings."""


def locale_dirs() -> list[Path]:
    extra = os.environ.get(LOCALE_PATH_ENV, "")
    return [LOCALES_DIR, *(Path(p) for p in extra.split(os.pathsep) if p)]


def load_locale(code_or_path: str) -> LocaleData:
    """The locale data of a code (a bundled file, or one found in MEMSIM_LOCALE_PATH)
    or of a file path."""
    path = Path(code_or_path)
    if not path.suffix:
        found = [d / f"{code_or_path}.yaml" for d in locale_dirs()]
        path = next((p for p in found if p.exists()), found[0])
    if not path.exists():
        known = ", ".join(sorted({p.stem for d in locale_dirs() for p in d.glob("*.yaml")}))
        raise ValueError(
            f"no locale data for '{code_or_path}' (known: {known}; "
            f"add folders to search with {LOCALE_PATH_ENV})"
        )
    return _parse(path.resolve())


@lru_cache(maxsize=8)
def _parse(path: Path) -> LocaleData:
    try:
        data = safe_load(path.read_bytes(), str(path))
    except OSError as exc:
        raise ValueError(f"{path}: cannot read locale data: {exc}") from None
    try:
        return LocaleData.model_validate(data)
    except ValidationError as exc:
        raise ValueError(f"{path}: invalid locale data:\n{exc}") from None
