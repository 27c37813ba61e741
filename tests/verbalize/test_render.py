"""Relative times are resolved against the message that says them."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from memsim.verbalize import (
    LocaleData,
    load_locale,
    relative_form,
    render_datetime,
    render_message_time,
    resolve_relative,
)

EN = load_locale("en")


@pytest.mark.parametrize(
    "said, event, expected",
    [
        # Wednesday 2024-04-03
        ("2024-04-03T10:00", "2024-04-04T19:00", "tomorrow at 7:00 PM"),
        ("2024-04-03T10:00", "2024-04-06T09:30", "this Saturday at 9:30 AM"),
        ("2024-04-03T10:00", "2024-04-07T12:00", "this Sunday at 12:00 PM"),
        ("2024-04-03T10:00", "2024-04-08T08:00", "next Monday at 8:00 AM"),
        ("2024-04-03T10:00", "2024-04-14T21:00", "next Sunday at 9:00 PM"),
        ("2024-04-03T10:00", "2024-04-15T21:00", "on April 15, 2024 at 9:00 PM"),
        ("2024-04-03T10:00", "2024-04-03T21:00", "on April 3, 2024 at 9:00 PM"),
        ("2024-04-03T10:00", "2024-03-30T21:00", "on March 30, 2024 at 9:00 PM"),
    ],
)
def test_render_datetime(said: str, event: str, expected: str) -> None:
    text = render_datetime(dt.datetime.fromisoformat(event), dt.datetime.fromisoformat(said), EN)
    assert text == expected


def test_resolve_is_the_inverse_of_render_for_every_day_in_the_horizon() -> None:
    for said_day in range(7):
        said = dt.datetime(2024, 4, 1 + said_day, 9, 0)
        for ahead in range(0, 20):
            event = said + dt.timedelta(days=ahead, hours=3)
            text = render_datetime(event, said, EN)
            resolved = resolve_relative(text, said, EN)
            if relative_form(event, said) is None:
                assert resolved is None, text
            else:
                assert resolved == event.date(), (said, text)


ZH = load_locale("zh")
XX = load_locale(str(Path(__file__).parents[1] / "data" / "locales" / "xx.yaml"))


@pytest.mark.parametrize(
    "said, event, expected",
    [
        # Wednesday 2024-04-03
        ("2024-04-03T10:00", "2024-04-04T19:00", "明天晚上7点"),
        ("2024-04-03T10:00", "2024-04-06T09:30", "这周六上午9点30分"),
        ("2024-04-03T10:00", "2024-04-07T12:00", "这周日中午12点"),
        ("2024-04-03T10:00", "2024-04-08T08:00", "下周一早上8点"),
        ("2024-04-03T10:00", "2024-04-12T14:30", "下周五下午2点30分"),
        ("2024-04-03T10:00", "2024-04-14T21:00", "下周日晚上9点"),
        ("2024-04-03T10:00", "2024-04-15T21:00", "2024年4月15日晚上9点"),
        ("2024-04-03T10:00", "2024-04-03T04:30", "2024年4月3日凌晨4点30分"),
    ],
)
def test_render_datetime_zh(said: str, event: str, expected: str) -> None:
    text = render_datetime(dt.datetime.fromisoformat(event), dt.datetime.fromisoformat(said), ZH)
    assert text == expected


def test_message_times_are_written_as_memdaily_writes_them() -> None:
    assert render_message_time(dt.datetime(2024, 4, 3, 7, 53), ZH) == "2024年04月03日 周三 07:53"
    assert render_message_time(dt.datetime(2024, 12, 29, 0, 5), ZH) == "2024年12月29日 周日 00:05"
    assert render_message_time(dt.datetime(2024, 4, 3, 7, 53), EN) == "2024-04-03 Wed 07:53"


@pytest.mark.parametrize("loc", [EN, ZH, XX], ids=lambda loc: loc.code)
def test_resolve_inverts_render_in_every_locale(loc: LocaleData) -> None:
    """Also inside a sentence with no space around the phrase (Chinese)."""
    for said_day in range(7):
        said = dt.datetime(2024, 4, 1 + said_day, 9, 0)
        for ahead in range(0, 20):
            for minute in (0, 30):
                event = said + dt.timedelta(days=ahead, hours=3 + ahead % 10, minutes=minute)
                text = f"X{render_datetime(event, said, loc)}Y"
                resolved = resolve_relative(text, said, loc)
                if relative_form(event, said) is None:
                    assert resolved is None, text
                else:
                    assert resolved == event.date(), (said, text)


def test_locales_are_found_on_the_search_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "qq.yaml").write_text(
        (Path(__file__).parents[1] / "data" / "locales" / "xx.yaml")
        .read_text(encoding="utf-8")
        .replace("code: xx", "code: qq"),
        encoding="utf-8",
    )
    with pytest.raises(ValueError, match=r"no locale data for 'qq'.*MEMSIM_LOCALE_PATH"):
        load_locale("qq")
    monkeypatch.setenv("MEMSIM_LOCALE_PATH", str(tmp_path))
    assert load_locale("qq").code == "qq"
    (tmp_path / "bad.yaml").write_text("code: bad\nunknown_key: 1\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"bad\.yaml: invalid locale data"):
        load_locale("bad")


def test_the_article_follows_the_sound_through_the_locale() -> None:
    said = {v: EN.article_for(v) for v in ("doctor", "accountant", "university professor")}
    assert said == {"doctor": "a", "accountant": "an", "university professor": "a"}
