"""The option prior's lean derivations (memsim.audit._lean.LEAN) give the raw value of the
full transform (memsim.audit._transforms.derive) on every sampled profile, and refuse
(or fail) exactly where it does, for every transform they stand in for."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest

from memsim.audit._derive import DerivationError, Deriver
from memsim.audit._lean import LEAN
from memsim.audit._transforms import derive
from memsim.graph import BRNet
from memsim.profile import Profile
from memsim.sampling import ProfileSampler
from memsim.schema import load_schema
from memsim.verbalize import schema_locale

ROOT = Path(__file__).resolve().parents[2]
EVENTS = ["work_event[0]", "work_event[1]", "leisure_event[0]", "leisure_event[1]"]
PEOPLE = ["relative[0]", "relative[1]", "colleague[0]", "colleague[1]"]

CASES: dict[str, list[dict[str, Any]]] = {
    "value_at": [
        {"entity": e, "attribute": a, "day": day}
        for e in ("user", "relative[1]")
        for a in ("hobby", "work_city", "weight", "age")
        for day in ("2024-03-02", "2024-07-31", "2024-12-30", "not a day")
    ],
    "count_between": [
        {"entities": es, "attribute": "time", "start": s, "end": t}
        # the same events in other orders: their days (or refusal) are remembered per
        # profile and set of events, in any order
        for es in (
            EVENTS[:2],
            EVENTS[2:],
            EVENTS,
            EVENTS[::-1],
            EVENTS[1::-1],
            EVENTS[:1],
            [*EVENTS[:1], "ghost[0]"],
            ["ghost[0]", *EVENTS[:1]],
        )
        for s, t in (("2024-01-01", "2024-06-30"), ("2024-05-01", "2024-12-31"))
    ]
    + [{"entities": EVENTS[:2], "attribute": "name", "start": "2024-01-01", "end": "2024-12-31"}],
    "first_of": [
        {"entities": es, "attribute": "time"} for es in (EVENTS[:2], EVENTS[2:], ["user", *EVENTS])
    ],
    "digit_sum": [
        {"entity": e, "attribute": a, "k": k}
        for e in ("user", "colleague[0]")
        for a in ("phone", "email", "age")
        for k in (2, 4, 40)
    ],
    "age_difference": [
        {"entities": es, "attribute": a}
        for es in (["user", PEOPLE[0]], PEOPLE[:2], PEOPLE[1:4], ["user", "ghost[3]"])
        for a in ("age", "height", "birthday")
    ],
    "days_between": [
        {"entities": es, "attributes": ats}
        for es in (EVENTS[:2], ["user", EVENTS[3]], ["user"])
        for ats in (["time", "time"], ["birthday", "time"], ["time"])
    ],
    "season": [
        {"entity": e, "attribute": a}
        for e in ("user", *PEOPLE, EVENTS[0])
        for a in ("birthday", "time", "age")
    ],
    "weekday": [{"entity": e, "attribute": "time"} for e in (*EVENTS, "user")],
    "email_domain": [
        {"entity": e, "attribute": a} for e in ("user", *PEOPLE) for a in ("email", "name")
    ],
    "current_value": [
        {"entity": e, "attribute": a} for e in ("user", *PEOPLE) for a in ("hobby", "weight", "age")
    ],
    "value_before": [
        {"entity": e, "attribute": a, "change": k}
        for e in ("user", PEOPLE[0])
        for a in ("hobby", "work_city", "weight", "age")
        for k in (1, 2, 5)
    ],
    "elapsed": [
        {"entity": e, "attribute": a, "change": k, "unit": unit}
        for e in ("user", PEOPLE[1])
        for a in ("hobby", "weight")
        for k in (1, 3)
        for unit in ("days", "weeks", "months")
    ],
    "date_of": [{"entity": e, "attribute": "time"} for e in (*EVENTS, "ghost[1]")],
}
CASES["difference"] = CASES["age_difference"]


@pytest.fixture(scope="module", params=["en", "zh"])
def sample(request: pytest.FixtureRequest) -> tuple[Deriver, list[Profile]]:
    schema = load_schema(ROOT / "schemas" / f"daily_life.{request.param}.yaml")
    profiles = list(ProfileSampler(BRNet(schema)).profiles(11, 0, 150))
    return Deriver(schema, schema_locale(schema)), profiles


def _outcome(run: Any, *args: Any) -> tuple[str, Any]:
    """What ``run(*args)`` gives: its value, a refusal, or the error that escapes."""
    try:
        return "value", run(*args)
    except (DerivationError, KeyError, TypeError, IndexError):
        return "refused", None  # derive() turns the last three into a refusal
    except ValueError as exc:
        return "ValueError", type(exc).__name__


def _full(d: Deriver, profile: Profile, transform: str, params: dict[str, Any], when: Any) -> Any:
    return derive(d, profile, transform, params, frozenset(), when).value


def test_every_lean_transform_is_tested() -> None:
    assert set(CASES) == set(LEAN)


@pytest.mark.parametrize("transform", sorted(CASES))
def test_lean_gives_the_value_and_refusals_of_derive(
    sample: tuple[Deriver, list[Profile]], transform: str
) -> None:
    d, profiles = sample
    when = dt.datetime(2024, 11, 20, 12, 0)
    outcomes: set[str] = set()
    for params in CASES[transform]:
        for profile in profiles:
            lean = _outcome(LEAN[transform], d, profile, params, when)
            full = _outcome(_full, d, profile, transform, params, when)
            assert lean == full, (transform, params, profile.id)
            outcomes.add(lean[0])
    assert "value" in outcomes  # the cases reach real answers...
    assert "refused" in outcomes  # ...and refusals
