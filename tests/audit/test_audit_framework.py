"""The audit framework and its text helpers, on small hand-made inputs."""

from __future__ import annotations

import datetime as dt
import gc
from collections.abc import Callable
from pathlib import Path

import pytest

from memsim.audit import CHECKS, AuditOptions, item_check, load_context, open_source, run_audit
from memsim.audit._answer_dates import zh_relative_days
from memsim.audit._messages import garbage
from memsim.audit._times import dates_seen, parse_stamp

GOOD = ["2024-05-01T08:00", "2024-05-01T09:30", "2024-05-01T12:00"]
BACKWARDS = ["2024-05-01T08:00", "2024-05-01T07:00", "2024-05-01T06:00"]


def test_a_crashing_check_becomes_an_error_and_the_run_goes_on(
    native: Callable[[str, list[list[str]]], Path],
) -> None:
    @item_check("test_crashes_on_second", "nothing", "structure")
    def crashes(item, ctx, stats):  # type: ignore[no-untyped-def]
        if item.index == 1:
            raise RuntimeError("boom")
        return []

    try:
        ctx = load_context(open_source(native("d", [GOOD, GOOD, GOOD])))
        report = run_audit(ctx, ["test_crashes_on_second", "timestamps_increasing"])
    finally:
        CHECKS._items.pop("test_crashes_on_second")
    crashed = report.results["test_crashes_on_second"]
    assert [f.tid for f in crashed.findings] == [1]
    assert "the check failed: RuntimeError: boom" in crashed.findings[0].message
    assert crashed.stats.items == 2  # items 0 and 2 were checked
    assert report.results["timestamps_increasing"].stats.items == 3
    assert report.exit_status == 1


def test_findings_are_counted_all_and_kept_up_to_the_cap(
    native: Callable[[str, list[list[str]]], Path],
) -> None:
    ctx = load_context(
        open_source(native("d", [BACKWARDS] * 3)), options=AuditOptions(max_findings=2)
    )
    result = run_audit(ctx, ["timestamps_increasing"]).results["timestamps_increasing"]
    assert result.severities["error"] == 6  # two steps back in each of three trajectories
    assert len(result.findings) == 2 and result.omitted == 4
    assert result.stats.counts["trajectories not increasing"] == 3


def test_the_collector_is_as_the_caller_left_it_after_a_run(
    native: Callable[[str, list[list[str]]], Path],
) -> None:
    """The run's survivors are handed to the oldest generation through gc.freeze: the
    thresholds come back, nothing stays frozen, and a caller's own frozen objects stay
    frozen until it unfreezes them."""
    ctx = load_context(open_source(native("d", [GOOD] * 3)))
    before = gc.get_threshold()
    assert gc.get_freeze_count() == 0
    run_audit(ctx, ["timestamps_increasing"])
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0
    kept = [[n] for n in range(100)]  # tracked containers the caller freezes
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        run_audit(ctx, ["timestamps_increasing"])
        assert gc.get_threshold() == before and gc.get_freeze_count() >= frozen
    finally:
        gc.unfreeze()
    assert gc.get_freeze_count() == 0 and kept


@pytest.mark.parametrize(
    ("text", "when", "weekday_ok"),
    [
        ("2024年04月03日 周三 07:53", dt.datetime(2024, 4, 3, 7, 53), True),
        ("2024年04月03日 周四 07:53", dt.datetime(2024, 4, 3, 7, 53), False),
        ("2024-04-03 Wed 07:53", dt.datetime(2024, 4, 3, 7, 53), True),
        ("2024-04-03T07:53", dt.datetime(2024, 4, 3, 7, 53), True),
    ],
)
def test_timestamps_in_every_form(text: str, when: dt.datetime, weekday_ok: bool) -> None:
    stamp = parse_stamp(text)
    assert stamp is not None and stamp.when == when and stamp.weekday_ok == weekday_ok


def test_unreadable_timestamps() -> None:
    assert parse_stamp("2024-02-30T07:53") is None  # no such day
    assert parse_stamp("yesterday") is None and parse_stamp(None) is None


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("2月30日", "day 30 does not exist in month 2"),
        ("February 30", "day 30 does not exist in month 2"),
        ("30 February 2023", "day 30 does not exist in month 2 of 2023"),
        ("2023-02-29", "day 29 does not exist in month 2 of 2023"),
        ("2024年04月15日 周六", "weekday Saturday does not match 2024-04-15 (a Monday)"),
        ("13月01日", "month 13 does not exist"),
    ],
)
def test_impossible_dates(text: str, problem: str) -> None:
    assert [d.problem() for d in dates_seen(text)] == [problem]


def test_possible_dates_and_non_dates() -> None:
    assert all(d.problem() is None for d in dates_seen("February 29, 2024; 2月29日; 12/31/2024"))
    assert dates_seen("May 40 people came") == []


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("", "empty"),
        ("My mother's age is {value}.", "template token '{value}'"),
        ("[无效输出]", "placeholder '[无效输出]'"),
        ("Internal Server Error", "API-error text 'internal server error'"),
        ("Here is the rewritten message: I am 30.", "prompt leakage or meta text 'rewritten'"),
        (
            "我的上司的邮箱是a@b.com。重写后的用户消息：我上司的邮箱是a@b.com",
            "prompt leakage or meta text '重写后'",
        ),
    ],
)
def test_garbage_messages(text: str, why: str) -> None:
    assert garbage(text) == why


def test_ordinary_messages_are_not_garbage() -> None:
    for text in (
        "My boss's personality? Mostly outgoing.",
        "我表哥今年35岁。",
        "I had the strangest dream.",
    ):
        assert garbage(text) is None, text


def test_chinese_relative_days() -> None:
    friday = dt.datetime(2024, 4, 5, 18, 37)  # MemDaily: "下周一" said on Friday 5 April
    assert zh_relative_days("模型艺术盛宴的时间是下周一晚上七点。", friday) == {dt.date(2024, 4, 8)}
    assert zh_relative_days("下下周三下午两点", friday) == {dt.date(2024, 4, 17)}
    assert zh_relative_days("明天见，这周日再说", friday) == {
        dt.date(2024, 4, 6),
        dt.date(2024, 4, 7),
    }


def test_a_shortcut_is_an_error_only_on_our_data_far_above_chance_on_enough_items() -> None:
    from types import SimpleNamespace

    from memsim.audit._context import AuditOptions
    from memsim.audit._shortcuts import severity_for

    ours = SimpleNamespace(own=True, options=AuditOptions())
    theirs = SimpleNamespace(own=False, options=AuditOptions())
    assert severity_for(ours, 0.05, 9.0, 500) is None  # within 10 points of chance
    assert severity_for(ours, 0.2, 9.0, 500) == "error"
    assert severity_for(ours, 0.2, 2.0, 500) == "warning"  # could be luck
    assert severity_for(ours, 0.39, 3.7, 2) == "warning"  # 2 items are no evidence
    assert severity_for(theirs, 0.2, 9.0, 500) == "warning"  # external data: reported
