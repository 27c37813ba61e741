"""The data card: counts and token statistics per question type."""

from __future__ import annotations

import csv
import io
import statistics
from pathlib import Path

import pytest

from memsim.dataset._card import CSV_COLUMNS, data_card, write_data_card
from memsim.formats.memdaily import (
    TYPES,
    MemDailyItem,
    drop_flagged,
    item_record,
    read_memdaily,
)
from memsim.records import Record

bpe_openai = pytest.importorskip(
    "bpe_openai", reason="token counts need pip install 'memsim[tokens]'"
)

REAL = Path(__file__).parents[2].parent / "shared" / "memdaily"


def _item(type_: str, tid: int, texts: list[str]) -> Record:
    return item_record(
        MemDailyItem(
            type=type_,
            scenario="roles",
            tid=tid,
            messages=tuple(
                {"mid": j, "message": t, "time": "2024-04-01 Mon 08:00", "place": "home"}
                for j, t in enumerate(texts)
            ),
            qa={
                "qid": 0,
                "question": "q?",
                "answer": "a",
                "target_step_id": [0],
                "choices": {"A": "a", "B": "b", "C": "c", "D": "d"},
                "ground_truth": "A",
                "time": "2024-04-02 Tue 08:00",
            },
            source="hand-built",
        )
    )


ITEMS = [  # noisy first: the card still lists types in MemDaily's order
    _item("noisy", 0, ["Ugh, what a day. Anyway: how old is my mother?", "ok"]),
    _item(
        "simple",
        0,
        ["My mother is 61 years old.", "我的上司名叫赵雅琳。", "The weather is nice 🌧️."],
    ),
    _item(
        "simple",
        1,
        [
            "My boss's email is zhao.yalin0205@szfinancecenter.com.",
            "I wrote <|endoftext|> in a note, oddly.",
        ],
    ),
    _item("aggregative", 0, ["", "One.", "Two words.", "Three little words."]),
]


def _tokens(text: str) -> int:
    enc = bpe_openai.get_encoding("o200k_base")
    return len(enc.encode(text, disallowed_special=()))


def test_card_figures_match_an_independent_count():
    card = data_card(ITEMS)
    assert [row.type for row in card.rows] == ["simple", "aggregative", "noisy"]
    assert card.tokenizer == "o200k_base"
    assert card.tokenizer_note == "tokens counted with o200k_base (GPT-4o) via bpe-openai"
    groups = {t: [i for i in ITEMS if i.type == t] for t in ("simple", "aggregative", "noisy")}
    groups["total"] = ITEMS
    for row in (*card.rows, card.total):
        items = groups[row.type]
        counts = [_tokens(t.text) for i in items for t in i.turns]
        assert row.trajectories == len(items)
        assert row.questions == len(items)
        assert row.messages == len(counts)
        assert row.tokens == sum(counts)
        assert row.messages_per_trajectory == pytest.approx(len(counts) / len(items), rel=1e-12)
        assert row.tokens_mean == pytest.approx(statistics.fmean(counts), rel=1e-12)
        assert row.tokens_std == pytest.approx(statistics.pstdev(counts), rel=1e-12, abs=1e-12)
    assert card.total.tokens_std > 0 and card.total.messages == 11


def test_markdown_and_csv(tmp_path):
    card = data_card(ITEMS)
    md, csv_path = tmp_path / "card" / "data_card.md", tmp_path / "card" / "data_card.csv"
    write_data_card(card, md, csv_path, title="Tiny", extra_lines=["- seed: 0", "- profiles: 4"])
    text = md.read_text(encoding="utf-8")
    assert text.startswith("# Tiny\n\n| Type |")
    table = [line for line in text.splitlines() if line.startswith("| ")]
    assert len(table) == 1 + 3 + 1  # header, one row per type, total
    assert table[1].startswith("| simple | 2 | 5 | 2 | 2.50 | ")
    assert table[-1].startswith("| **Total** | 4 | 11 | 4 | 2.75 | ")
    simple = card.rows[0]
    assert f"{simple.tokens_mean:.2f} ± {simple.tokens_std:.2f} |" in table[1]
    assert "o200k_base (GPT-4o) via bpe-openai" in text
    assert text.endswith("- seed: 0\n- profiles: 4\n")

    rows = list(csv.DictReader(io.StringIO(csv_path.read_text(encoding="utf-8"))))
    assert tuple(rows[0]) == CSV_COLUMNS
    assert [r["type"] for r in rows] == ["simple", "aggregative", "noisy", "total"]
    for r, row in zip(rows, (*card.rows, card.total), strict=True):
        counts = [int(r[k]) for k in ("trajectories", "messages", "questions", "tokens")]
        assert counts == [row.trajectories, row.messages, row.questions, row.tokens]
        assert float(r["tokens_per_message_mean"]) == pytest.approx(row.tokens_mean, abs=5e-5)
        assert float(r["tokens_per_message_std"]) == pytest.approx(row.tokens_std, abs=5e-5)
        assert r["tokenizer"] == "o200k_base"

    before = (md.read_bytes(), csv_path.read_bytes())
    write_data_card(
        data_card(list(reversed(ITEMS))),
        md,
        csv_path,
        title="Tiny",
        extra_lines=["- seed: 0", "- profiles: 4"],
    )
    assert (md.read_bytes(), csv_path.read_bytes()) == before  # order of the items does not matter


def test_empty_card():
    card = data_card([])
    assert card.rows == ()
    assert (card.total.trajectories, card.total.messages, card.total.tokens_mean) == (0, 0, None)
    assert "| **Total** | 0 | 0 | 0 | n/a | n/a |" in card.to_markdown()


def test_unknown_tokenizer():
    with pytest.raises(ValueError, match="unknown tokenizer 'o300k_base'"):
        data_card(ITEMS, tokenizer_name="o300k_base")


def test_other_tokenizer_is_named():
    card = data_card(ITEMS, tokenizer_name="cl100k_base")
    assert "cl100k_base (GPT-4 / GPT-3.5)" in card.to_markdown()


def test_real_memdaily_card():
    if not (REAL / "01_simple_roles.json").is_file():
        pytest.skip(
            f"the MemDaily reference data is not at {REAL} (it is only on the project's machines)"
        )
    card = data_card(item_record(i) for i in drop_flagged(read_memdaily(REAL)))
    assert [row.type for row in card.rows] == list(TYPES)
    assert [row.questions for row in card.rows] == [500, 500, 492, 462, 500, 500]
    assert card.total.questions == card.total.trajectories == 2954
    assert card.total.messages == 26003
    assert 10 < card.total.tokens_mean < 25
