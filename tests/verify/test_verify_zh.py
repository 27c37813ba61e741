"""memsim.verify on hand-written Chinese: Chinese numerals, dates, clock times with parts
of the day, relative days, facts, and which rewrites are rejected. All of it comes from
the zh locale's data (its calendar and ``recognise`` section)."""

from __future__ import annotations

import datetime as dt

import pytest
from stated import stated_at

from memsim.schema import load_schema
from memsim.verbalize import load_locale
from memsim.verify import (
    StatedFact,
    Vocabulary,
    check_rewrite,
    clocks_in,
    dates_in,
    fact_stated,
    new_terms,
    numbers_in,
    relative_days_in,
    vocabulary_for,
)
from memsim.verify._dates import DateMention

ZH = load_locale("zh")
WED = dt.datetime(2024, 4, 3, 10, 0)  # 周三


def stated(
    attr: str, type_: str, value: object, kind: str = "relative", **facts: object
) -> StatedFact:
    return stated_at(WED, attr, type_, value, kind, **facts)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("我母亲今年62岁。", [62]),
        ("我母亲今年六十二岁。", [62]),
        ("十二", [12]),
        ("一百零五人", [105]),
        ("两千人", [2000]),
        ("三万五千", [35000]),
        ("２０岁", [20]),  # full-width digits
        ("五百人和五千人", [500, 5000]),
    ],
)
def test_chinese_numerals(text: str, expected: list[int]) -> None:
    assert numbers_in(text, ZH) == expected


def test_dates_in_every_chinese_form() -> None:
    found = dates_in(
        "4月3日、2024年5月28日、十二月三十一号、2024/7/4、2024年04月03日 周三 07:53", ZH
    )
    assert {
        DateMention(None, 4, 3),
        DateMention(2024, 5, 28),
        DateMention(None, 12, 31),
        DateMention(2024, 7, 4),
        DateMention(2024, 4, 3),
    } <= found
    assert dates_in("我有28个理由", ZH) == set()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("晚上7点30分", {(19, 30)}),  # not also 19:00
        ("下午7点半", {(19, 30)}),
        ("晚上七点半", {(19, 30)}),
        ("19:30", {(19, 30)}),
        ("19点30分", {(19, 30)}),
        ("晚上7点", {(19, 0)}),
        ("中午12点", {(12, 0)}),
        ("凌晨12点", {(0, 0)}),
        ("早上八点", {(8, 0)}),
        ("下午两点", {(14, 0)}),
        ("上午9点30分", {(9, 30)}),
    ],
)
def test_clock_times_with_parts_of_the_day(text: str, expected: set[tuple[int, int]]) -> None:
    assert clocks_in(text, ZH) == expected


def test_relative_days_follow_the_renderers_week_rule() -> None:
    # said on Wednesday 2024-04-03: 这周六 is the 6th, 下周一 the 8th, 下周五 the 12th
    assert relative_days_in("明天上午9点", WED, ZH) == {dt.date(2024, 4, 4)}
    assert relative_days_in("这周六下午2点", WED, ZH) == {dt.date(2024, 4, 6)}
    assert relative_days_in("本周日", WED, ZH) == {dt.date(2024, 4, 7)}
    assert relative_days_in("下周一早上8点", WED, ZH) == {dt.date(2024, 4, 8)}
    assert relative_days_in("下个星期五", WED, ZH) == {dt.date(2024, 4, 12)}
    assert relative_days_in("下礼拜天", WED, ZH) == {dt.date(2024, 4, 14)}


@pytest.mark.parametrize(
    ("fact", "yes", "no"),
    [
        (stated("age", "integer", 62), "我妈妈今年六十二了", "我妈妈今年63岁"),
        (stated("birthday", "month_day", "07-12"), "她是七月十二号出生的", "她是7月13日出生的"),
        (
            stated("time", "datetime", "2024-04-12T19:30", kind="work_event[0]"),
            "发布会定在下周五晚上7点30分。",
            "发布会定在这周五晚上7点30分。",
        ),
        (
            stated("time", "datetime", "2024-04-12T19:30", kind="work_event[0]"),
            "发布会在2024年4月12日19:30开始。",
            "发布会在2024年4月12日早上7点30分开始。",
        ),
        (stated("phone", "text", "13412345678"), "电话是134 1234 5678。", "电话是13412345679。"),
        (
            stated("email", "text", "zhangwei0715@szhy.com"),
            "邮箱是ZhangWei0715@szhy.com，别记错",
            "邮箱是zhangwei0716@szhy.com",
        ),
        (stated("scale", "categorical", "五百人"), "大概有500人参加", "大概有五千人参加"),
        (stated("duration", "categorical", "两小时"), "一共2小时", "一共两天"),
        (stated("hometown", "categorical", "广东深圳"), "她来自广东 深圳。", "她来自广东广州。"),
    ],
)
def test_fact_stated(fact: StatedFact, yes: str, no: str) -> None:
    assert fact_stated(yes, fact, ZH)
    assert not fact_stated(no, fact, ZH)


@pytest.fixture(scope="module")
def vocab() -> Vocabulary:
    schema = load_schema("schemas/daily_life.zh.yaml")
    return vocabulary_for(schema, ZH, extra_values=["赵雅琳", "人民公园"])


AGE = stated("age", "integer", 62, relation="母亲")
SOURCE = "我母亲今年62岁。"


def test_a_faithful_chinese_rewrite_passes(vocab: Vocabulary) -> None:
    assert check_rewrite(SOURCE, "说起来，我母亲都已经62岁啦！", [AGE], ZH, vocab) == []
    assert check_rewrite(SOURCE, "我母亲今年六十二了，一起过个生日吧。", [AGE], ZH, vocab) == []


@pytest.mark.parametrize(
    ("rewrite", "reason"),
    [
        ("我母亲年纪不小了。", "drops relative[0].age"),
        ("我母亲今年63岁。", "drops relative[0].age"),
        ("我父亲今年62岁。", "drops relative[0].relation"),
        ("我母亲今年62岁，住在5公里外。", "new number 5"),
        ("我母亲今年62岁，住在上海。", "new value '上海'"),
        ("我母亲赵雅琳今年62岁。", "new value '赵雅琳'"),
        # names outside the schema, from the locale's known_names: no capitals betray them
        ("我母亲今年62岁，后来我们去了乌鲁木齐。", "new value '乌鲁木齐'"),
        ("我母亲今年62岁，她在腾讯上班。", "new value '腾讯'"),
        ("以下是改写后的消息：我母亲今年62岁。", "meta text"),
    ],
)
def test_unfaithful_chinese_rewrites_are_rejected(
    vocab: Vocabulary, rewrite: str, reason: str
) -> None:
    reasons = check_rewrite(SOURCE, rewrite, [AGE], ZH, vocab)
    assert any(r.startswith(reason) for r in reasons), reasons


def test_a_clock_said_another_way_is_not_a_new_number(vocab: Vocabulary) -> None:
    event = stated("time", "datetime", "2024-04-12T19:30", kind="work_event[0]")
    src = "发布会定在下周五晚上7点30分。"
    assert check_rewrite(src, "下周五19:30有发布会，别忘了。", [event], ZH, vocab) == []
    assert check_rewrite(src, "下周五晚上七点半有发布会。", [event], ZH, vocab) == []


def test_a_known_value_inside_a_larger_number_is_not_new(vocab: Vocabulary) -> None:
    # "十人" (a scale value) is not found inside "五十人": both sides compare as digits
    src = "这次团建的规模大概是五十人。"
    assert new_terms(src, "顺便说一下，这次团建的规模大概是五十人。", vocab, ZH) == []
    assert new_terms(src, "这次团建大概五十人，另外还有十人的小会。", vocab, ZH) != []


def test_a_latin_name_right_after_chinese_is_stated() -> None:
    item = stated("name", "categorical", "OPPO Reno7", kind="item")
    assert fact_stated("我喜欢的手机是OPPO Reno7。", item, ZH)
    assert fact_stated("OPPO Reno7手感不错。", item, ZH)
    assert not fact_stated("我喜欢的手机是OPPO Reno8。", item, ZH)
