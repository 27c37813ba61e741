"""Questions worded from what a schema declares, not from daily life's names, on the
held-out tour and workshop schemas (tests/data): a conditional question names the kinds
of one pool ("the bandmate whose ...", never "the bandmate or crew member"); an event's
``role: time`` is asked "When is ...?"; a date that is not when its entity happens is
named by its label in date transforms; a group's label is pluralised by the locale's
grammar ("deliveries"); a distractor is quoted as someone's words only if it is a
sentence (a name is said to be someone else's)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from memsim.dataset import make_context
from memsim.qa import QA_KINDS, QAContext
from memsim.qa._context import said_words
from memsim.qa.post_processing import TRANSFORMS
from memsim.sampling import ProfileSampler
from memsim.schema import load_schema
from memsim.verbalize import load_locale

DATA = Path(__file__).parents[1] / "data"
PROFILES = 30


@pytest.fixture(scope="module")
def tour() -> tuple[QAContext, list[Any]]:
    ctx = make_context(load_schema(DATA / "tour.en.yaml"), 0)
    return ctx, list(ProfileSampler(ctx.net).profiles(0, 0, PROFILES))


@pytest.fixture(scope="module")
def workshop() -> tuple[QAContext, list[Any]]:
    ctx = make_context(load_schema(DATA / "workshop.en.yaml"), 0)
    return ctx, list(ProfileSampler(ctx.net).profiles(0, 0, PROFILES))


def _drafts(made: tuple[QAContext, list[Any]], kind: str, scenario: str) -> list[Any]:
    ctx, profiles = made
    rng = np.random.default_rng(0)
    out = []
    for p in profiles:
        for _ in range(50):
            draft = QA_KINDS.get(kind).make(ctx, p, scenario, rng)
            if draft is not None:
                out.append(draft)
                break
    return out


def test_a_conditional_question_names_the_kinds_of_one_pool(
    tour: tuple[QAContext, list[Any]],
) -> None:
    drafts = _drafts(tour, "conditional", "roles")
    assert len(drafts) >= PROFILES // 2
    for d in drafts:
        q = d.question
        assert " or " not in q, q  # bandmates and crew members are pooled apart
        kind = d.params["entity"].split("[")[0]
        assert ("bandmate" if kind == "bandmate" else "crew member") in q, q


def test_an_events_time_is_asked_when_it_is(tour: tuple[QAContext, list[Any]]) -> None:
    timed = [d for d in _drafts(tour, "simple", "events") if d.params["attribute"] == "time"]
    timed += [d for d in _drafts(tour, "noisy", "events") if d.params["attribute"] == "time"]
    assert timed
    for d in timed:
        assert "when is my " in d.question.lower(), d.question
        assert "showtime" not in d.question


def test_a_date_that_is_not_the_entitys_time_is_named_by_its_label(
    workshop: tuple[QAContext, list[Any]],
) -> None:
    ctx, profiles = workshop
    rng = np.random.default_rng(1)
    asked = []
    for p in profiles:
        clients = [e for e in p.entities if e.kind == "client"]
        for name in ("weekday", "days_between"):
            draft = TRANSFORMS[name](ctx, clients, rng)
            if draft is not None:
                asked.append(draft.question)
    assert asked
    assert all("start date of my client" in q for q in asked), asked
    # an event's own time keeps the event's wording
    deliveries = [e for e in profiles[0].entities if e.kind == "delivery"]
    draft = next(
        d for _ in range(50) if (d := TRANSFORMS["weekday"](ctx, deliveries, rng)) is not None
    )
    assert "delivery slot" not in draft.question and "the " in draft.question


def test_a_groups_label_is_pluralised_by_the_locales_grammar() -> None:
    en, zh = load_locale("en"), load_locale("zh")
    assert [en.plural_of(x) for x in ("delivery", "box", "client", "day", "crew member")] == [
        "deliveries",
        "boxes",
        "clients",
        "days",
        "crew members",
    ]
    assert zh.plural_of("演出") == "演出"


def test_only_sentences_are_quoted_as_someones_words(
    tour: tuple[QAContext, list[Any]],
) -> None:
    ctx, profiles = tour
    attrs = ctx.schema.attributes_of("instrument")
    assert said_words(attrs["story"])
    assert not said_words(attrs["serial"])
    assert not said_words(ctx.schema.attributes_of("crew")["name"])
    assert not said_words(ctx.schema.attributes_of("crew")["email"])
    crew = next(e for e in profiles[0].entities if e.kind == "crew")
    said = ctx.hearsay(crew, "name", ["Ann Lee", "Bo Chen", "Cy Ray", "Di Fox"], [])
    assert said and all(h.label for h in said)  # a hearsay_of line, with its label


def test_a_number_is_asked_by_its_owners_possessive(
    tour: tuple[QAContext, list[Any]],
) -> None:
    # the tour schema words no question for a bandmate's age: the locale's wording by
    # type asks "What is our drummer's age?", not "What is the age of our drummer?"
    asked = [d.question for d in _drafts(tour, "simple", "roles") if d.params["attribute"] == "age"]
    assert asked
    for q in asked:
        assert "the age of" not in q and "'s age?" in q, q


def test_comparison_words_follow_the_unit_where_the_attribute_has_none() -> None:
    ctx = make_context(load_schema(DATA / "tour.zh.yaml"), 0)
    kitchen = make_context(load_schema(DATA / "kitchen.zh.yaml"), 0)
    profile = next(iter(ProfileSampler(ctx.net).profiles(0, 0, 1)))
    bandmate = next(e for e in profile.entities if e.kind == "bandmate")
    assert ctx.more(bandmate, "age", "higher") == "更大"  # 岁
    # the attribute's own word wins over its unit's (在乐队的年数: 更长)
    assert ctx.more(bandmate, "years_in_band", "higher") == "更长"
    crew = next(e for e in profile.entities if e.kind == "crew")
    assert ctx.more(crew, "tours_done", "higher") == "更多"  # 次
    assert ctx.more(crew, "day_rate", "higher") == "更高"  # 元: no word of its own
    # the table is the locale's, keyed by unit; no attribute is named
    zh = load_locale("zh").questions
    assert zh.more("higher", "anything", "岁") == "更大"
    assert zh.more("higher", "anything", "年") == "更高"
    assert kitchen.loc.questions.by_unit["分钟"]["higher"] == "更长"
    en = load_locale("en").questions
    assert en.more("higher", "drive", "minutes") == "longer"
    assert en.more("higher", "age", "years") == "higher"  # an age or a time spent


def test_a_count_says_its_predicate_as_the_unit_compares() -> None:
    # a held-out class teacher's schema asked "有几场考试时长高于83分钟？" where its
    # comparisons said 更长 (dom14): a unit's counting predicate follows its comparison
    zh = load_locale("zh").questions
    assert zh.predicate("gt", "anything", "分钟") == "长于{value}"
    assert zh.predicate("le", "anything", "小时") == "不长于{value}"
    assert zh.predicate("lt", "anything", "个座位") == "少于{value}"  # by its measure word
    assert zh.predicate("ge", "anything", "人") == "不少于{value}"
    assert zh.predicate("gt", "anything", "公斤") == "高于{value}"  # 体重高于, not 重于
    assert zh.predicate("gt", "anything", "元") == "高于{value}"
    assert zh.predicate("gt", "anything") == "高于{value}"
    # an attribute's own predicate comes first (daily life's duration, in its overlay)
    daily = make_context(load_schema(DATA.parent.parent / "schemas" / "daily_life.zh.yaml"), 0)
    assert daily.loc.questions.predicate("gt", "age", "岁") == "大于{value}"
    assert load_locale("en").questions.predicate("gt", "drive", "minutes") == "more than {value}"
    ctx = make_context(load_schema(DATA / "classteacher.zh.yaml"), 0)
    profile = next(iter(ProfileSampler(ctx.net).profiles(0, 0, 1)))
    exam = next(e for e in profile.entities if e.kind == "exam")
    assert ctx.predicate(exam, "minutes", "gt") == "长于{value}"


def test_a_compound_unit_compares_as_its_measure_word() -> None:
    # a measure word and a noun (个座位 seats, 只狗 dogs, 万次下载 downloads) counts
    # things: "更多", not the general "更高"; the longest key the unit begins with wins
    zh = load_locale("zh").questions
    for unit in ("个座位", "只狗", "片场地", "万次下载", "本"):
        assert zh.more("higher", "anything", unit) == "更多", unit
    assert zh.more("higher", "anything", "个月") == "更长"  # its own key, not 个's
    assert zh.more("higher", "anything", "个小时") == "更长"
    assert zh.more("higher", "anything", "周岁") == "更大"  # not 周's 更长
    assert zh.more("higher", "anything", "元") == "更高"  # no key begins it
    assert zh.more("later", "anything", "个座位") == "更晚"  # no 个 entry for later
    # a schema's attribute with such a unit: the club's halls count courts (片场地)
    ctx = make_context(load_schema(DATA / "club.zh.yaml"), 0)
    profile = next(iter(ProfileSampler(ctx.net).profiles(0, 0, 1)))
    hall = next(e for e in profile.entities if e.kind == "hall")
    unit = ctx.attribute(hall, "courts").unit
    assert unit == "片场地"
    assert ctx.more(hall, "courts", "higher") == "更多"


def test_an_overlay_changes_a_units_comparison_word(tmp_path: Path) -> None:
    text = (DATA / "kitchen.zh.yaml").read_text(encoding="utf-8")
    assert "\n    questions:\n" in text
    text = text.replace(
        "\n    questions:\n",
        "\n    questions:\n      by_unit:\n        岁: {higher: 年纪更大}\n",
        1,
    )
    path = tmp_path / "kitchen.zh.yaml"
    path.write_text(text, encoding="utf-8")
    ctx = make_context(load_schema(path), 0)
    assert ctx.loc.questions.more("higher", "age", "岁") == "年纪更大"
    assert ctx.loc.questions.more("higher", "age", "分钟") == "更长"  # the rest merged


def test_only_people_are_asked_with_the_words_for_people(tmp_path: Path) -> None:
    # zh asks about people with 谁 and 位 (the locale's roles wording); a pet, a roles
    # kind that is not a person, is asked as things are ("有几个", "哪个"). The pets
    # schema's overlay worded its roles questions with 个 to work around it: without
    # that override, its carers are still asked with 位 and its pets not
    overlay = (DATA / "overlays" / "pets.yaml").read_text(encoding="utf-8")
    start = overlay.index("    by_scenario:\n")
    end = overlay.index("    noisy_preface:\n", start)
    assert "几个" in overlay[start:end]
    (tmp_path / "overlays").mkdir()
    (tmp_path / "overlays" / "pets.yaml").write_text(overlay[:start] + overlay[end:], "utf-8")
    (tmp_path / "pets.zh.yaml").write_bytes((DATA / "pets.zh.yaml").read_bytes())
    made = make_context(load_schema(tmp_path / "pets.zh.yaml"), 0)
    assert "几位" in "".join(made.loc.questions.by_scenario["roles"]["aggregative"])
    profiles = list(ProfileSampler(made.net).profiles(0, 0, PROFILES))
    asked: dict[bool, list[str]] = {True: [], False: []}
    for kind in ("comparative", "aggregative", "conditional"):
        for d in _drafts((made, profiles), kind, "roles"):
            kind_of = d.evidence[0].entity.split("[")[0]  # "pet[1]": a pet
            asked[kind_of != "pet"].append(d.question)
    assert asked[False] and asked[True]
    for q in asked[False]:
        assert "谁" not in q and "几位" not in q and "那位" not in q, q
    assert any("谁" in q or "位" in q for q in asked[True]), asked[True]
