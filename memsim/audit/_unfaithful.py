"""Messages say nothing beyond their facts.

``messages_state_facts`` proves each fact a message carries is stated; this check
proves nothing else is: an appended sentence, a swapped value, a denial ("I don't...")
or a self-correction ("26 ... no wait, 31") is an error.

- A template message (``verbalizer`` template or template_fallback, or none) must equal
  one of its renderings: the fact's phrasings at the message's time (both facts' and
  every joiner for a two-fact message), or one of the locale's chit-chat lines for a
  message with no facts, or a rendering wrapped in the locale's words for a change said
  explicitly with the day of the change that brought the value in force, as the
  generator writes it. Equality, so no corruption can pass.
- An LLM message (any other verbalizer) must keep its ``template``, which must itself be
  a rendering, and pass :func:`memsim.verify.check_rewrite` against it with the
  vocabulary the rewrite used (the schema's values and the value pool's text values,
  sampled again from the generation seed): no number, date, known name or place that is
  not one of its facts' values, no new capitalised name, no denial or correction.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
import string
from collections.abc import Callable, Container
from functools import lru_cache
from typing import Any

from memsim.audit._context import AuditContext
from memsim.audit._correctness import GROUP
from memsim.audit._framework import item_check
from memsim.audit._noise import noise_profiles
from memsim.audit._types import AuditItem, CheckStats, Finding, finding
from memsim.profile import Entity, Fact, Profile
from memsim.records import ASSISTANT
from memsim.verbalize import (
    LocaleData,
    TemplateVerbalizer,
    outsider_pattern,
    outsider_phrasings,
    render_date,
)
from memsim.verify import Vocabulary, check_rewrite

NAME = "messages_faithful"
TEMPLATE_PATHS = (None, "template", "template_fallback")


def _verbalizer(ctx: AuditContext) -> TemplateVerbalizer:
    found = ctx.shared.get("template_verbalizer")
    if found is None:
        assert ctx.schema is not None and ctx.locale is not None
        found = ctx.shared["template_verbalizer"] = TemplateVerbalizer(ctx.schema, ctx.locale)
    assert isinstance(found, TemplateVerbalizer)
    return found


def _vocabulary(ctx: AuditContext) -> Vocabulary:
    """The rewrite's vocabulary, built again (once) from the generation seed."""
    found = ctx.shared.get("rewrite_vocabulary")
    if found is None:
        from memsim.qa import ValuePool
        from memsim.rewrite._checks import pool_vocabulary

        assert ctx.schema is not None and ctx.locale is not None
        pool = ValuePool.sample(ctx.net, ctx.generation_seed or 0)
        found = ctx.shared["rewrite_vocabulary"] = pool_vocabulary(ctx.schema, ctx.locale, pool)
    assert isinstance(found, Vocabulary)
    return found


def _facts(ctx: AuditContext, profile: Profile, ids: list[str]) -> list[tuple[Entity, Fact]]:
    out = []
    for qualified in ids:
        owner = profile
        fid = qualified
        if ":" in qualified:  # noise: a fact of another profile, sampled again
            pid, fid = qualified.split(":", 1)
            owner = noise_profiles(ctx).get(pid)
        entity_id, attr = fid.rsplit(".", 1)
        entity = owner.entity(entity_id)
        out.append((entity, entity.facts[attr]))
    return out


class _Renderings:
    """``TemplateVerbalizer.renderings(facts, when)``, asked one text at a time: a text
    of two facts is cut at a joiner's words and its two halves looked up among each
    fact's sentences, instead of making every pair (joiners x phrasings x phrasings
    strings for each message). The same answers as the set: a text is in it exactly
    when it is prefix + first + middle + second + suffix for one joiner."""

    def __init__(self, options: list[list[str]], joiners: list[str]):
        self.whole: frozenset[str] | None = None
        if len(options) == 1:  # most messages: the set of the fact's sentences
            self.whole = frozenset(options[0])
            return
        self.split = [_joiner_parts(j) for j in joiners]
        self.first = list(dict.fromkeys(options[0]))
        self.second = frozenset(options[1])
        if any(parts is None for parts in self.split):  # not plain "{first}..{second}"
            self.whole = frozenset(
                j.format(first=a, second=b) for j in joiners for a in options[0] for b in options[1]
            )

    def __contains__(self, text: object) -> bool:
        if self.whole is not None:
            return text in self.whole
        assert isinstance(text, str)
        for parts in self.split:
            assert parts is not None
            prefix, middle, suffix = parts
            if len(text) < len(prefix) + len(suffix) or not (
                text.startswith(prefix) and text.endswith(suffix)
            ):
                continue
            inner = text[len(prefix) : len(text) - len(suffix)]
            for a in self.first:
                if (
                    inner.startswith(a)
                    and inner.startswith(middle, len(a))
                    and inner[len(a) + len(middle) :] in self.second
                ):
                    return True
        return False


@lru_cache(maxsize=64)
def _joiner_parts(joiner: str) -> tuple[str, str, str] | None:
    """(prefix, middle, suffix) of a joiner that is plain ``prefix{first}middle{second}
    suffix`` (braces doubled as str.format reads them); None for any other form."""
    try:
        parsed = list(string.Formatter().parse(joiner))
    except ValueError:
        return None
    parts, fields = [""], []
    for literal, name, spec, conversion in parsed:
        parts[-1] += literal  # an escaped brace ends a literal piece early
        if name is not None:
            fields.append((name, spec, conversion))
            parts.append("")
    if fields != [("first", "", None), ("second", "", None)]:
        return None
    return parts[0], parts[1], parts[2]


def _change_told(
    text: str, renderings: Container[str], templates: list[str], days: set[str]
) -> bool:
    """Whether ``text`` is one of its renderings wrapped in the locale's words for a
    change said explicitly ("Since {cause} on {date}, things are different: {sentence}"),
    with the day of the change that brought the value in force (``days``: that day of
    each of the message's facts, as the generator writes it; a date off by a week
    passed when only the sentence was compared)."""
    # the date group matches one of the days literally, so a day the text does not
    # hold can match nowhere: leaving it out keeps the same first match, and the
    # pattern (compiled once per template and days) recurs across messages
    present = tuple(sorted(d for d in days if d in text))
    if not present:
        return False
    for template in templates:
        # a text lacking one of the template's own words cannot match it: most texts
        # are one template's, so the others are neither compiled for these days nor run
        if not all(piece in text for piece in _change_literals(template)):
            continue
        found = _change_match(template, present, text)
        if found is None:
            continue
        if found.group("sentence") in renderings:
            return True
        if found.group("opener") + found.group("sentence") in renderings:
            return True
    return False


@lru_cache(maxsize=256)
def _change_literals(template: str) -> tuple[str, ...]:
    """The text :func:`_change_pattern` matches literally: the template without the
    first ``{sentence}``, ``{cause}`` and ``{date}`` (the ones it replaces)."""
    for key in ("sentence", "cause", "date"):
        template = template.replace("{" + key + "}", "\0", 1)
    return tuple(piece for piece in template.split("\0") if piece)


def _change_match(template: str, days: tuple[str, ...], text: str) -> re.Match[str] | None:
    """:func:`_change_pattern` of ``days`` fullmatched against ``text``: the days are
    written before the text (each ended by NUL, then SOH), where the pattern's first
    groups take them one by one, and its date group is the alternation of
    backreferences to them, in order, which matches what the alternation of the days
    themselves matched (a backreference matches its group's text literally); so the
    pattern is compiled once per template and number of days (about 6 on make
    dataset's data), not once per template and days (540, a third of the check)."""
    if any("\0" in d or "\1" in d for d in days):
        return _change_pattern(template, days).fullmatch(text)  # days that would not split
    subject = "".join(d + "\0" for d in days) + "\1" + text
    return _days_pattern(template, len(days)).fullmatch(subject)


@lru_cache(maxsize=256)
def _days_pattern(template: str, days: int) -> re.Pattern[str]:
    """:func:`_change_pattern` with its date one of the ``days`` texts the subject
    starts with (see :func:`_change_match`)."""
    heads = "".join(f"(?P<day{i}>[^\\x00]*)\\x00" for i in range(days)) + "\\x01"
    said = "(?:" + "|".join(f"(?P=day{i})" for i in range(days)) + ")"
    return re.compile(heads + _change_body(template, said))


@lru_cache(maxsize=64)
def _change_pattern(template: str, days: tuple[str, ...]) -> re.Pattern[str]:
    """A change template as a pattern: the sentence any text, the cause any words, the
    date one of ``days``, after an optional opener."""
    # the days themselves, not any words: a Chinese template puts the cause right after
    # the date ("自从{date}{cause}以后"), where a lazy group would take one digit
    return re.compile(_change_body(template, "(?:" + "|".join(re.escape(d) for d in days) + ")"))


def _change_body(template: str, said: str) -> str:
    """The regex of :func:`_change_pattern`, its date group ``said``."""
    pattern = re.escape(template)
    for key, group in (
        ("sentence", "(?P<sentence>.+)"),
        ("cause", "[^.。!?？]+?"),
        ("date", said),
    ):
        pattern = pattern.replace(re.escape("{" + key + "}"), group, 1)
    # an opener may come first ("Quick update: ..."): short, and without a number
    return r"(?P<opener>[^0-9]{0,24}?)" + pattern


def _change_days(facts: list[tuple[Entity, Fact]], when: dt.datetime, loc: LocaleData) -> set[str]:
    """The day of the change that brought each fact's value in force at ``when``, as
    :func:`memsim.trajectory._changes.change_text` writes it."""
    stamp = when.isoformat(timespec="minutes")
    out = set()
    for _, fact in facts:
        step = fact.last_change(stamp)
        if step is not None and step.since is not None:
            out.add(render_date(dt.datetime.fromisoformat(step.since).date(), loc))
    return out


def _hearsay(text: str, item: AuditItem, templates: list[str]) -> bool:
    """Whether ``text`` is one of the locale's hearsay lines (``hearsay``, or
    ``hearsay_of`` with any ``{label}``) repeating a distractor: a value in a wrong
    option of the question and not in its right one."""
    choices = item.choices()
    gold = choices.get(str(item.qa.get("ground_truth")), "")
    wrong = [o for o in choices.values() if o != gold]
    for template in templates:
        found = _hearsay_pattern(template).fullmatch(text)
        if found is not None:
            value = found.group("value")
            if value not in gold and any(value in o for o in wrong):
                return True
    return False


@lru_cache(maxsize=256)
def _hearsay_pattern(template: str) -> re.Pattern[str]:
    """A hearsay template as a pattern: ``{value}`` any text, ``{label}`` any words
    (compiled once per template: it is matched against every chit-chat message)."""
    pattern = re.escape(template)
    pattern = pattern.replace(re.escape("{label}"), ".+?", 1)
    return re.compile(pattern.replace(re.escape("{value}"), "(?P<value>.+)", 1), re.DOTALL)


def _said_of_outsider(text: str, item: AuditItem, ctx: AuditContext, profile: Profile) -> bool:
    """Whether ``text`` says a distractor of the question (in a wrong option, not in
    the right one) of a person outside the profile, in a phrasing of an attribute the
    question reads (its facts', withheld or not): the locale's ``hearsay_people`` in the
    attribute's own words ("My friend Grace is 172 cm tall.")."""
    assert ctx.schema is not None and ctx.locale is not None
    if not ctx.locale.hearsay_people:
        return False
    prov = item.provenance or {}
    ids = [str(f) for key in ("fact_ids", "withheld") for f in prov.get(key) or ()]
    choices = item.choices()
    gold = choices.get(str(item.qa.get("ground_truth")), "")
    wrong = [o for o in choices.values() if o != gold]
    for fid in dict.fromkeys(ids):
        entity_id, attr = fid.rsplit(".", 1)
        try:
            kind = profile.entity(entity_id).kind
        except (KeyError, ValueError):
            continue
        unit = ctx.schema.attributes_of(kind)[attr].unit or ""
        for template in outsider_phrasings(ctx.schema, ctx.locale, kind, attr):
            found = outsider_pattern(template, ctx.locale, unit).fullmatch(text)
            if found is None:
                continue
            value = found.group("value")
            shown = ctx.locale.with_unit_of(value, unit)
            if shown not in gold and any(shown in o for o in wrong):
                return True
    return False


@lru_cache(maxsize=1)
def _assistant() -> tuple[
    Callable[[str, LocaleData], bool], Callable[[str, LocaleData], str | None]
]:
    """memsim.history's test of its task and assistant lines and its unwrapping of a
    lookup reply, imported on first use (not at import: memsim.history is the
    generator's), once, not once per message."""
    from memsim.history._assistant import conversation_line, unwrap_found

    return conversation_line, unwrap_found


def _problem(m: dict[str, Any], item: AuditItem, ctx: AuditContext, profile: Profile) -> str | None:
    """Why message ``m`` says more or other than its facts (None: it does not)."""
    conversation_line, unwrap_found = _assistant()
    assert ctx.locale is not None
    ids = [str(f) for f in m.get("facts", ())]
    text, path = str(m.get("message")), m.get("verbalizer")
    when = dt.datetime.fromisoformat(str(m.get("time")))
    if not ids:
        if text in ctx.locale.chit_chat or _hearsay(
            text, item, [*ctx.locale.hearsay, *ctx.locale.hearsay_of]
        ):
            return None
        if _said_of_outsider(text, item, ctx, profile):
            return None
        if conversation_line(text, ctx.locale):
            return None  # a history's task and assistant lines (memsim.history)
        if m.get("speaker") == ASSISTANT and path not in TEMPLATE_PATHS:
            return None  # an LLM's assistant turn: the assistant_turns check proves it
        return "has no facts and is not one of the locale's chit-chat or hearsay lines"
    if m.get("speaker") == ASSISTANT:
        text = unwrap_found(text, ctx.locale) or text  # a lookup reply quotes the note
    try:
        facts = _facts(ctx, profile, ids)
    except (KeyError, ValueError):
        return f"carries facts {ids} its profiles do not have"
    renderings = _Renderings(_verbalizer(ctx).sentences(facts, when), ctx.locale.two_facts)
    told = ctx.locale.history.change_told
    if path in TEMPLATE_PATHS:
        if text in renderings:
            return None
        if _change_told(text, renderings, told, _change_days(facts, when, ctx.locale)):
            return None
        return "is not its template re-rendered"
    template = m.get("template")
    if not isinstance(template, str):
        return f"was written by {path!r} and does not keep its template"
    if template not in renderings and not _change_told(
        template, renderings, told, _change_days(facts, when, ctx.locale)
    ):
        return "keeps a template that is not its facts re-rendered"
    from memsim.rewrite._checks import stated_facts

    noise = {
        q.split(":", 1)[0]: noise_profiles(ctx).get(q.split(":", 1)[0]) for q in ids if ":" in q
    }
    turn = next(t for t in item.record.turns if t.id == m.get("mid"))
    stated = stated_facts(dataclasses.replace(turn, facts=tuple(ids)), profile, noise)
    reasons = check_rewrite(template, text, stated, ctx.locale, _vocabulary(ctx))
    return f"says more than its template: {'; '.join(reasons)}" if reasons else None


@item_check(
    NAME,
    "every message says nothing beyond its facts: a template message is its template "
    "re-rendered; an LLM message passes memsim.verify.check_rewrite against its template "
    "(no new number, date, name or place, no denial or correction)",
    GROUP,
    ("provenance", "profiles", "schema"),
)
def messages_faithful(
    item: AuditItem, ctx: AuditContext, stats: CheckStats
) -> list[Finding] | None:
    profile = ctx.profile(item)
    if profile is None:
        return None
    out = []
    for m in item.messages:
        if any(":" in str(f) for f in m.get("facts", ())) and ctx.generation_seed is None:
            stats.counts["noise messages not checked (no seed)"] += 1
            continue
        stats.counts["messages checked"] += 1
        why = _problem(m, item, ctx, profile)
        if why:
            stats.counts["unfaithful messages"] += 1
            shown = str(m.get("message"))[:120]
            out.append(finding(NAME, "error", item, f"message {m.get('mid')} {why}: {shown}"))
    return out


__all__ = ["messages_faithful"]
