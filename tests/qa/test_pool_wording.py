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
        # a measure word is a word: a token in it is filled by nothing
        ("measure: 家", 'measure: "{kind}家"', "{kind}"),
    ],
)
def test_a_misspelt_token_in_pool_wording_is_an_error_at_its_line(
    tmp_path: Path, good: str, bad: str, said: str
) -> None:
    text = (DATA / "gamedev.zh.yaml").read_text(encoding="utf-8")
    wrong = text.replace(good, bad, 1)
    assert wrong != text
    _fails_at_its_line(tmp_path / "g.zh.yaml", wrong, bad, said)


def _fails_at_its_line(path: Path, wrong: str, bad: str, said: str) -> None:
    """The schema text ``wrong`` at ``path`` stops at the line that holds ``bad``,
    saying ``said``."""
    path.write_text(wrong, encoding="utf-8")
    line = next(i for i, t in enumerate(wrong.splitlines(), 1) if bad in t)
    with pytest.raises(ValueError) as err:
        schema_locale(load_schema(path))
    messages = str(err.value).splitlines()
    assert any(m.startswith(f"{path}:{line}:") and said in m for m in messages), messages


def _conditionals(schema: str, scenario: str, n: int = 200) -> list[str]:
    ctx = make_context(load_schema(DATA / schema), 0)
    rng = np.random.default_rng(0)
    out = []
    for p in ProfileSampler(ctx.net).profiles(0, 0, n):
        draft = QA_KINDS.get("conditional").make(ctx, p, scenario, rng)
        if draft is not None:
            out.append(draft.question)
    return out


def test_a_pool_picks_one_out_with_its_own_measure_word() -> None:
    """A shoot picked out by a value or by its time was "……的那个拍摄" where the studio
    counts shoots with 单: the pool's ``measure`` is said by the general condition
    phrase and by the locale's phrase of the time role alike."""
    asked = _conditionals("photostudio.zh.yaml", "events")
    by_value = [q for q in asked if "”的那" in q]
    by_time = [q for q in asked if "”的那" not in q and "的那" in q]
    assert any("”的那单拍摄" in q for q in by_value), by_value
    assert any("的那单拍摄" in q for q in by_time), by_time
    assert not [q for q in asked if "的那个拍摄" in q]


def test_a_pool_picks_one_out_by_its_name_or_time_with_its_own_measure_word() -> None:
    """A team member picked out by name was "叫……的那个团队成员" (the locale's phrase of
    the name role) where the studio's overlay counts its people with 位; a game
    developer's release picked out by its time "……的那个版本发布" where it is 那次. A
    pool that declares no measure word says the locale's (below)."""
    named = [q for q in _conditionals("photostudio.zh.yaml", "roles") if "叫" in q]
    assert any("的那位团队成员" in q for q in named), named
    assert not [q for q in named if "的那个团队成员" in q]
    timed = [q for q in _conditionals("gamedev.zh.yaml", "events") if "的那" in q]
    assert any("的那次版本发布" in q for q in timed), timed
    assert not [q for q in timed if "的那个版本发布" in q]


@pytest.mark.parametrize(
    ("good", "bad", "said"),
    [
        ("{value}的那{measure}{group}", "{value}的那{measur}{group}", "{measur}"),
        ("{value}的那{measure}{group}", "的那{measure}{group}", "lacks {value}"),
    ],
)
def test_a_misspelt_token_in_a_condition_by_role_is_an_error_at_its_line(
    tmp_path: Path, good: str, bad: str, said: str
) -> None:
    """A role's condition phrase in a schema's overlay is checked as the general one
    is (it was a KeyError at generation)."""
    text = (DATA / "gamedev.zh.yaml").read_text(encoding="utf-8")
    anchor = "    questions:\n"
    assert text.count(anchor) == 1
    own = f'      by_role:\n        time:\n          condition: ["{bad}"]\n'
    path = tmp_path / "g.zh.yaml"
    _fails_at_its_line(path, text.replace(anchor, anchor + own, 1), bad, said)
    path.write_text(text.replace(anchor, anchor + own.replace(bad, good), 1), encoding="utf-8")
    assert schema_locale(load_schema(path)).questions.by_role["time"]["condition"] == [good]


def test_people_whose_pool_declares_no_measure_word_are_counted_as_people() -> None:
    """Held-out schemas whose overlays declare no measure word read "叫向倩的那个工作人员"
    (tour zh's crew), "叫张淑英的那个学生" (a class teacher's students): a person is picked
    out with the locale's word for people (zh ``questions.measure_people``, 位), anything
    else with its ``measure`` (个: a pet by its chip number)."""
    crew = [q for q in _conditionals("tour.zh.yaml", "roles", 120) if "叫" in q]
    assert crew and all("的那位" in q for q in crew), crew
    pets = _conditionals("pets.zh.yaml", "roles", 120)
    carers = [q for q in pets if "照顾宠物的人" in q]
    animals = [q for q in pets if "宠物" in q and "照顾宠物的人" not in q]
    assert carers and all("那位" in q and "那个" not in q for q in carers), carers
    assert animals and not [q for q in animals if "那位" in q], animals
