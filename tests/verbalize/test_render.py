"""Relative times are resolved against the message that says them."""

from __future__ import annotations

import datetime as dt

import pytest

from memsim.verbalize import load_locale, relative_form, render_datetime, resolve_relative

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
