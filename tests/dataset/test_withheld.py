"""A draw is redone when a message says a withheld value: for the user (named by no
value) only a message about the user says it, as the audit reads it; for a named
person any message that writes the value does."""

from __future__ import annotations

from pathlib import Path

from memsim.dataset._generate import _says_withheld
from memsim.qa import Draft, FactRef, Message, make_context
from memsim.sampling import ProfileSampler
from memsim.schema import load_schema

ROOT = Path(__file__).parents[2]


def _draft(withheld: FactRef) -> Draft:
    return Draft(
        kind="abstention", scenario="user", question="", answer="", options=(),
        evidence=(), withheld=(withheld,),
    )  # fmt: skip


def _message(text: str, *facts: str) -> Message:
    return Message(0, text, "2024-05-01T10:00", "home", "filler", tuple(facts))


def test_the_users_withheld_value_is_said_only_about_the_user() -> None:
    ctx = make_context(load_schema(ROOT / "schemas" / "daily_life.en.yaml"), 0)
    profile = next(iter(ProfileSampler(ctx.net).profiles(0, 0, 1)))
    relative = profile.of_kind("relative")[0]
    value = ctx.display(profile.entity("user"), "occupation")
    user_draft = _draft(FactRef("user", "occupation"))
    of_relative = _message(f"My relative is a {value}.", f"{relative.id}.occupation")
    assert not _says_withheld(ctx, profile, user_draft, [of_relative])
    of_user = _message(f"I am a {value}, and I was born in May.", "user.birthday")
    assert _says_withheld(ctx, profile, user_draft, [of_user])
    assert _says_withheld(ctx, profile, user_draft, [_message(f"A {value} called.")])
    # a named person's withheld value is said by any message that writes it
    named = _draft(FactRef(relative.id, "occupation"))
    said = ctx.display(relative, "occupation")
    assert _says_withheld(ctx, profile, named, [_message(f"I am a {said}.", "user.occupation")])
