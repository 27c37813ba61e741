"""A pool may be worded apart (``questions.by_pool`` in a locale or a schema's overlay):
a held-out game developer's publishers, a ``roles`` kind that is not people, were
counted "有几位" and compared "谁的规模更高" like the playtesters; its overlay now
counts them with 家 and asks 哪家, while the playtesters keep the locale's 位 and 谁. A
misspelt token in such wording is an error at its line, as in the kinds' wording."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from memsim.dataset import make_context
from memsim.qa import QA_KINDS
from memsim.sampling import ProfileSampler
from memsim.schema import load_schema
from memsim.verbalize._overlay import schema_locale

DATA = Path(__file__).parents[1] / "data"


def test_publishers_are_counted_and_compared_as_companies() -> None:
    ctx = make_context(load_schema(DATA / "gamedev.zh.yaml"), 0)
    rng = np.random.default_rng(0)
    asked: dict[str, list[str]] = {"publisher": [], "tester": []}
    for p in ProfileSampler(ctx.net).profiles(0, 0, 40):
        for kind in ("aggregative", "comparative"):
            draft = QA_KINDS.get(kind).make(ctx, p, "roles", rng)
            if draft is None:
                continue
            first = str(draft.params.get("first") or draft.params["entities"][0])  # type: ignore[index]
            asked[first.split("[")[0]].append(draft.question)
    assert asked["publisher"] and asked["tester"], asked
    assert all("家" in q and "位" not in q and "谁" not in q for q in asked["publisher"])
    assert not [q for q in asked["tester"] if "几家" in q or "哪家" in q]  # 玩家 is no measure
    assert any("位" in q or "谁" in q for q in asked["tester"])


@pytest.mark.parametrize(
    ("good", "bad", "said"),
    [
        # a pool's question wording, and the phrase that picks one of the pool out
        ("{cond_value}”的那家", "{cond_valu}”的那家", "lacks {cond_value}"),
        ("“{value}”的那家{group}", "“{valeu}”的那家{group}", "{valeu}"),
    ],
)
def test_a_misspelt_token_in_pool_wording_is_an_error_at_its_line(
    tmp_path: Path, good: str, bad: str, said: str
) -> None:
    text = (DATA / "gamedev.zh.yaml").read_text(encoding="utf-8")
    wrong = text.replace(good, bad, 1)
    assert wrong != text
    path = tmp_path / "g.zh.yaml"
    path.write_text(wrong, encoding="utf-8")
    line = next(i for i, t in enumerate(wrong.splitlines(), 1) if bad in t)
    with pytest.raises(ValueError) as err:
        schema_locale(load_schema(path))
    messages = str(err.value).splitlines()
    assert any(m.startswith(f"{path}:{line}:") and said in m for m in messages), messages


def test_a_pool_picks_one_out_with_its_own_measure_word() -> None:
    """A shoot picked out by a value was "……的那个拍摄" where the studio counts shoots
    with 单; the pool's ``condition`` says "……的那单拍摄" (a time still reads 那个: that
    phrase is the locale's, by role)."""
    ctx = make_context(load_schema(DATA / "photostudio.zh.yaml"), 0)
    rng = np.random.default_rng(0)
    picked = []
    for p in ProfileSampler(ctx.net).profiles(0, 0, 200):
        draft = QA_KINDS.get("conditional").make(ctx, p, "events", rng)
        if draft is not None and "”的那" in draft.question:  # picked out by a value
            picked.append(draft.question)
    assert any("”的那单拍摄是什么时候" in q for q in picked), picked
    assert not [q for q in picked if "”的那个拍摄" in q]
