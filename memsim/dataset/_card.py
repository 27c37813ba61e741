"""The data card: MemDaily's statistics table, for MemDaily or for a memsim dataset.

Per question type (and in total): trajectories, messages, questions, messages per
trajectory and tokens per message (mean ± population standard deviation, as the
release's own ``data_card_raw.csv`` computes it with ``np.std``). Tokens are counted
offline with ``bpe-openai`` (its vocabularies ship inside the wheel); MemDaily's paper
counted with GLM-4's tokenizer, so its token figures differ from ours.
"""

from __future__ import annotations

import contextlib
import csv
import io
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from memsim._io import atomic_write_text
from memsim.formats.memdaily import KNOWN_TYPES
from memsim.records import Record

TOKENIZER_MODELS = {"o200k_base": "GPT-4o", "cl100k_base": "GPT-4 / GPT-3.5"}
"""Which models use a tokenizer, for the card's note."""

CSV_COLUMNS = (
    "type",
    "trajectories",
    "messages",
    "questions",
    "messages_per_trajectory",
    "tokens",
    "tokens_per_message_mean",
    "tokens_per_message_std",
    "tokenizer",
)


@dataclass(frozen=True)
class CardRow:
    """One line of the card: a question type, or ``total``.

    ``tokens`` is the number of tokens in all messages; the means and the standard
    deviation are None when there is nothing to average.
    """

    type: str
    trajectories: int
    messages: int
    questions: int
    tokens: int
    messages_per_trajectory: float | None
    tokens_mean: float | None
    tokens_std: float | None


@dataclass(frozen=True)
class DataCard:
    rows: tuple[CardRow, ...]
    """One per question type: MemDaily's order first, then other types as first met."""
    total: CardRow
    tokenizer: str

    @property
    def tokenizer_note(self) -> str:
        model = TOKENIZER_MODELS.get(self.tokenizer)
        name = f"{self.tokenizer} ({model})" if model else self.tokenizer
        return f"tokens counted with {name} via bpe-openai"

    def to_markdown(self, title: str = "Data card", extra_lines: Iterable[str] = ()) -> str:
        lines = [
            f"# {title}",
            "",
            "| Type | Trajectories | Messages | Questions | Messages / trajectory "
            "| Tokens / message |",
            "|:-----|-------------:|---------:|----------:|----------------------:"
            "|-----------------:|",
        ]
        for row in (*self.rows, self.total):
            name = "**Total**" if row is self.total else row.type
            lines.append(
                f"| {name} | {row.trajectories:,} | {row.messages:,} | {row.questions:,} | "
                f"{_fmt(row.messages_per_trajectory)} | "
                f"{_fmt_pm(row.tokens_mean, row.tokens_std)} |"
            )
        lines += [
            "",
            f"Tokens / message: mean ± standard deviation (population) over messages; "
            f"{self.tokenizer_note}.",
        ]
        extra = list(extra_lines)
        if extra:
            lines += ["", *extra]
        return "\n".join(lines) + "\n"

    def to_csv(self) -> str:
        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\n")
        writer.writerow(CSV_COLUMNS)
        for row in (*self.rows, self.total):
            writer.writerow(
                [
                    row.type,
                    row.trajectories,
                    row.messages,
                    row.questions,
                    _fmt(row.messages_per_trajectory, 4, ""),
                    row.tokens,
                    _fmt(row.tokens_mean, 4, ""),
                    _fmt(row.tokens_std, 4, ""),
                    self.tokenizer,
                ]
            )
        return buf.getvalue()


CARD_TOKENIZER = "o200k_base"


def data_card(items: Iterable[Record], tokenizer_name: str = CARD_TOKENIZER) -> DataCard:
    """The card of ``items`` (filter them first: every item given is counted).

    Needs the optional package ``bpe-openai`` (``pip install 'memsim[tokens]'``).
    """
    tally = CardTally(tokenizer_name)
    for item in items:
        tally.add(item)
    return tally.card()


class CardTally:
    """The card's counts, one record at a time: a dataset being written is counted as
    its records go to disk, not by reading the file back. The tokenizer is loaded at
    the first record (or by :meth:`card`), so a tally made before worker processes are
    forked does not hand them a half-loaded one."""

    def __init__(self, tokenizer_name: str = CARD_TOKENIZER) -> None:
        self.tokenizer = tokenizer_name
        self._count: Callable[[str], int] | None = None
        # type -> [trajectories, messages, questions, tokens, sum of squared tokens]
        self._stats: dict[str, list[int]] = {}

    def add(self, item: Record) -> None:
        """Count one record (ImportError without bpe-openai)."""
        count = self._count or self._counter()
        s = self._stats.setdefault(item.type, [0, 0, 0, 0, 0])
        s[0] += 1
        s[1] += len(item.turns)
        s[2] += 1  # MemDaily has one question per trajectory
        for turn in item.turns:
            n = count(turn.text)
            s[3] += n
            s[4] += n * n

    def card(self) -> DataCard:
        """The card of the records added so far (integer sums: the same whatever their order)."""
        if self._count is None:
            self._counter()  # no records: still needs the tokenizer, as a card of some does
        stats = self._stats
        order = [t for t in KNOWN_TYPES if t in stats] + [t for t in stats if t not in KNOWN_TYPES]
        rows = tuple(_row(t, stats[t]) for t in order)
        total = _row("total", [sum(stats[t][k] for t in order) for k in range(5)])
        return DataCard(rows=rows, total=total, tokenizer=self.tokenizer)

    def _counter(self) -> Callable[[str], int]:
        self._count = _token_counter(self.tokenizer)
        return self._count


def write_data_card(
    card: DataCard,
    md_path: str | Path,
    csv_path: str | Path,
    title: str = "Data card",
    extra_lines: Iterable[str] = (),
) -> None:
    """Write the card as a Markdown table and as a CSV, each atomically."""
    atomic_write_text(md_path, card.to_markdown(title, extra_lines))
    atomic_write_text(csv_path, card.to_csv())


def _row(name: str, s: Sequence[int]) -> CardRow:
    trajectories, messages, questions, tokens, squares = s
    mean = std = None
    if messages:
        mean = tokens / messages
        # exact integer variance: the same figure whatever the order of the messages
        std = math.sqrt((messages * squares - tokens * tokens) / (messages * messages))
    per_trajectory = messages / trajectories if trajectories else None
    return CardRow(
        type=name,
        trajectories=trajectories,
        messages=messages,
        questions=questions,
        tokens=tokens,
        messages_per_trajectory=per_trajectory,
        tokens_mean=mean,
        tokens_std=std,
    )


def _fmt(x: float | None, digits: int = 2, missing: str = "n/a") -> str:
    return missing if x is None else f"{x:.{digits}f}"


def _fmt_pm(mean: float | None, std: float | None) -> str:
    return "n/a" if mean is None or std is None else f"{mean:.2f} ± {std:.2f}"


@lru_cache(maxsize=4)
def _token_counter(name: str) -> Callable[[str], int]:
    """The token count of a text, as bpe-openai's ``encode_ordinary`` makes it (text
    that looks like a special token is counted as plain text): from its compiled
    tokenizer alone where that holds ``name`` (:func:`memsim._tokens.fast_count`, 0.05
    CPU s to load where the package's import takes 0.6), else through the package."""
    try:
        from memsim._tokens import fast_count

        fast = fast_count(name)
    except ImportError as e:
        raise _missing() from e
    if fast is not None:
        return fast
    encoding = data_card_encoding(name)

    def count(text: str) -> int:
        return len(encoding.encode_ordinary(text))

    return count


def load_card_tokenizer(name: str = CARD_TOKENIZER) -> None:
    """Load the card's tokenizer now, once per process, so that a process with time to
    spare (while its workers draft) does not spend it at the first record; without it,
    nothing: the card says so when it is written."""
    with contextlib.suppress(ImportError, ValueError):
        _token_counter(name)


def _missing() -> ImportError:
    return ImportError(
        "token counts for the data card need the optional package bpe-openai: "
        "pip install 'memsim[tokens]'"
    )


@lru_cache(maxsize=4)
def data_card_encoding(name: str) -> Any:
    """The tokenizer ``name`` (bpe-openai), loaded once per process."""
    try:
        import bpe_openai  # type: ignore[import-untyped,unused-ignore]
    except ImportError as e:
        raise _missing() from e
    known = bpe_openai.list_encoding_names()
    if name not in known:
        raise ValueError(f"unknown tokenizer {name!r} (bpe-openai has: {', '.join(known)})")
    try:
        return bpe_openai.get_encoding(name)
    except (RuntimeError, OSError, bpe_openai.TokenizerError) as e:  # e.g. gpt2 needs tiktoken
        raise ValueError(f"tokenizer {name!r} cannot be loaded offline: {e}") from e
