"""The benchmark on multi-session histories (datasets written with ``memsim generate
--history-tokens``): every mechanism over each question's whole history.

Each history is read expanded (:func:`memsim.history.read_histories`), one at a time;
every turn, the user's and the assistant's, is a message a memory observes, in order.
Per mechanism and question:

- turn level: recall_any@k (some evidence turn in the top k), recall_all@k (every
  evidence turn in the top k) and NDCG@k with binary relevance, over the ranked turns;
- session level: the ranked turns mapped to their sessions, each session kept at its
  first place; the same three figures against the evidence sessions (LongMemEval's
  retrieval evaluation defines both levels this way);
- ``full_context`` gives the reader what fits in ``window`` tokens, the most recent
  turns first kept; the results say how often and how much it cut, and how often the
  cut took evidence away.

Accuracy (with its bootstrap interval) and the means are reported overall, by evidence
depth bucket (the depth each history records) and by history length (its budget).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Collection, Iterable, Sequence
from pathlib import Path
from typing import Any

from memsim._io import MANIFEST, atomic_output_dir, dumps
from memsim.bench._api import BENCH_KIND, BenchOptions
from memsim.bench._memory import MEMORY, Memory
from memsim.bench._metrics import bootstrap_ci, mean
from memsim.bench._reader import BATCH, Reader, ReaderItem, memory_line
from memsim.bench._types import Labels, Message, Query
from memsim.records import Record

DEFAULT_WINDOW = 128_000
"""The reader's context window in tokens (full_context cuts to it)."""


def is_history_dataset(path: Path) -> bool:
    from memsim.history import STORE_FILE

    folder = path if path.is_dir() else path.parent
    return (folder / STORE_FILE).is_file() and (folder / "dataset.jsonl").is_file()


def retrieval_scores(ranked: Sequence[Any], relevant: Collection[Any], k: int) -> dict[str, float]:
    """recall_any@k, recall_all@k and NDCG@k (binary relevance) of a ranking."""
    top = list(ranked[:k])
    hits = [1.0 if x in relevant else 0.0 for x in top]
    dcg = sum(h / math.log2(r + 2) for r, h in enumerate(hits))
    ideal = sum(1.0 / math.log2(r + 2) for r in range(min(k, len(relevant))))
    return {
        "recall_any": float(any(hits)),
        "recall_all": float(all(x in top for x in relevant)),
        "ndcg": dcg / ideal if ideal else 0.0,
    }


def sessions_ranked(ranked_turns: Sequence[int], session_of: Sequence[int]) -> list[int]:
    """Sessions in the order their turns first appear in a turn ranking."""
    return list(dict.fromkeys(session_of[t] for t in ranked_turns))


class _Window:
    """Cuts full_context's memory to the reader's window, counting tokens per text once."""

    def __init__(self, window: int, count: Callable[[str], int] | None) -> None:
        self.window, self.count = window, count
        self.cache: dict[str, int] = {}

    def cut(self, shown: list[Message]) -> tuple[list[Message], int]:
        """The most recent messages that fit, and the tokens left out."""
        if self.count is None:
            return shown, 0
        sizes = []
        for m in shown:
            line = memory_line(m)
            n = self.cache.get(line)
            if n is None:
                n = self.cache[line] = self.count(line)
            sizes.append(n)
        kept, total = len(shown), 0
        for i in range(len(shown) - 1, -1, -1):
            if total + sizes[i] > self.window:
                kept = len(shown) - 1 - i
                break
            total += sizes[i]
        dropped = sum(sizes[: len(shown) - kept])
        return shown[len(shown) - kept :], dropped


def run_history_bench(
    path: Path,
    out: Path,
    options: BenchOptions,
    reader: Reader,
    window: int = DEFAULT_WINDOW,
    progress: Callable[[Iterable[Record], int], Iterable[Record]] | None = None,
) -> dict[str, Any]:
    from memsim._tokens import token_counter
    from memsim.history import depth_bucket, read_histories

    folder = path if path.is_dir() else path.parent
    mechanisms: list[Memory] = [MEMORY.get(name)(k=options.k) for name in options.mechanisms]
    counter = token_counter()
    windows = _Window(window, counter.count if counter else None)
    rows: dict[str, list[dict[str, Any]]] = defaultdict(list)
    pending: dict[str, list[tuple[dict[str, Any], ReaderItem]]] = defaultdict(list)
    taken: dict[str, int] = defaultdict(int)
    with open(folder / "dataset.jsonl", "rb") as lines:
        total = sum(1 for _ in lines)
    records: Iterable[Record] = read_histories(folder)
    if progress is not None:
        records = progress(records, total)
    for record in records:
        if options.limit is not None and taken[record.type] >= options.limit:
            continue
        taken[record.type] += 1
        history = record.extra.get("history", {})
        messages, session_of, evidence, evidence_sessions = _messages(record)
        group = {
            "qa_type": record.type,
            "depth": depth_bucket(float(history.get("evidence_depth", 0.0))),
            "length": int(history.get("budget", 0)),
            "gold": record.qa.gold,
        }
        query = Query(record.qa.question, record.qa.time)
        for memory in mechanisms:
            memory.reset(Labels(frozenset(evidence), frozenset()))
            memory.observe_all(messages)
            retrieved = memory.retrieve(query)
            row = dict(group)
            if memory.ranks:
                ranked = [m.mid for m in retrieved]
                turn = retrieval_scores(ranked, evidence, options.k)
                sess = retrieval_scores(
                    sessions_ranked(ranked, session_of), evidence_sessions, options.k
                )
                row |= {f"turn_{k}": v for k, v in turn.items()}
                row |= {f"session_{k}": v for k, v in sess.items()}
            shown = sorted(retrieved, key=lambda m: m.mid)
            if memory.name == "full_context":
                shown, dropped = windows.cut(shown)
                kept = {m.mid for m in shown}
                row |= {"cut_tokens": dropped, "cut_evidence": not evidence <= kept}
            item = ReaderItem(query.question, query.time, record.qa.choices, tuple(shown))
            pending[memory.name].append((row, item))
            if len(pending[memory.name]) >= BATCH:
                rows[memory.name] += _answer(reader, pending.pop(memory.name))
    for name in list(pending):
        rows[name] += _answer(reader, pending.pop(name))
    results = _results(rows, options, window)
    with atomic_output_dir(out, BENCH_KIND) as stage:
        (stage / "results.json").write_bytes(dumps(results))
        (stage / "results.md").write_text(_markdown(results, reader.label), encoding="utf-8")
        (stage / MANIFEST).write_bytes(
            dumps({"kind": BENCH_KIND, "input": str(folder), "options": options.to_json()})
        )
    return results


def _messages(record: Record) -> tuple[list[Message], list[int], set[int], set[int]]:
    messages: list[Message] = []
    session_of: list[int] = []
    evidence: set[int] = set()
    wanted = set(record.qa.evidence)
    for s, session in enumerate(record.sessions):
        for turn in session.turns:
            mid = len(messages)
            messages.append(Message(mid, turn.text, turn.time, turn.place))
            session_of.append(s)
            if turn.id in wanted:
                evidence.add(mid)
    return messages, session_of, evidence, {session_of[e] for e in evidence}


def _answer(reader: Reader, batch: list[tuple[dict[str, Any], ReaderItem]]) -> list[dict[str, Any]]:
    answers = reader.answer([item for _, item in batch])
    out = []
    for (row, _), answer in zip(batch, answers, strict=True):
        out.append(row | {"correct": answer is not None and answer == row["gold"]})
    return out


def _summary(rows: list[dict[str, Any]], seed: int, name: str) -> dict[str, Any]:
    correct = sum(r["correct"] for r in rows)
    ci = bootstrap_ci(correct, len(rows), seed, name)
    out: dict[str, Any] = {
        "n": len(rows),
        "accuracy": correct / len(rows) if rows else None,
        "accuracy_ci": None if ci is None else [round(ci[0], 4), round(ci[1], 4)],
    }
    for key in ("turn_recall_any", "turn_recall_all", "turn_ndcg"):
        out[key] = mean([r.get(key) for r in rows])
    for key in ("session_recall_any", "session_recall_all", "session_ndcg"):
        out[key] = mean([r.get(key) for r in rows])
    if any("cut_tokens" in r for r in rows):
        cut = [r for r in rows if r["cut_tokens"]]
        out["cut"] = {
            "items_cut": len(cut),
            "tokens_cut_mean": mean([float(r["cut_tokens"]) for r in rows]),
            "evidence_cut": sum(bool(r["cut_evidence"]) for r in rows),
        }
    return out


def _results(
    rows: dict[str, list[dict[str, Any]]], options: BenchOptions, window: int
) -> dict[str, Any]:
    out: dict[str, Any] = {"k": options.k, "window": window, "mechanisms": {}}
    for name, got in rows.items():
        by: dict[str, Any] = {"all": _summary(got, options.seed, f"{name}/all")}
        for axis in ("depth", "length", "qa_type"):
            groups: dict[Any, list[dict[str, Any]]] = defaultdict(list)
            for r in got:
                groups[r[axis]].append(r)
            by[f"by_{axis}"] = {
                str(key): _summary(g, options.seed, f"{name}/{axis}/{key}")
                for key, g in sorted(groups.items())
            }
        out["mechanisms"][name] = by
    return out


def summary_lines(results: dict[str, Any]) -> list[str]:
    """One line per mechanism for the terminal."""
    k = results["k"]
    out = []
    for name, by in results["mechanisms"].items():
        s = by["all"]
        depth = ", ".join(f"{d} {_fmt(v['accuracy'])}" for d, v in by["by_depth"].items())
        out.append(
            f"{name:>13}  accuracy {_fmt(s['accuracy'])}  session recall_any@{k} "
            f"{_fmt(s['session_recall_any'])}  by depth: {depth}"
        )
    return out


def _fmt(x: Any) -> str:
    return "n/a" if x is None else f"{x:.3f}"


def _markdown(results: dict[str, Any], reader: str) -> str:
    k = results["k"]
    lines = [
        f"# Benchmark on multi-session histories (reader {reader}, k = {k})",
        "",
        f"| mechanism | depth | n | accuracy | turn recall_any@{k} | turn NDCG@{k} "
        f"| session recall_any@{k} | session recall_all@{k} | session NDCG@{k} |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for name, by in results["mechanisms"].items():
        for depth, s in [("all", by["all"]), *by["by_depth"].items()]:
            lines.append(
                f"| {name} | {depth} | {s['n']} | {_fmt(s['accuracy'])} "
                f"| {_fmt(s['turn_recall_any'])} | {_fmt(s['turn_ndcg'])} "
                f"| {_fmt(s['session_recall_any'])} | {_fmt(s['session_recall_all'])} "
                f"| {_fmt(s['session_ndcg'])} |"
            )
    for name, by in results["mechanisms"].items():
        cut = by["all"].get("cut")
        if cut:
            lines += [
                "",
                f"{name}: the reader's window is {results['window']:,} tokens; "
                f"{cut['items_cut']} of {by['all']['n']} histories were cut (mean "
                f"{cut['tokens_cut_mean']:,.0f} tokens left out), and the cut took "
                f"evidence away in {cut['evidence_cut']}.",
            ]
    return "\n".join(lines) + "\n"
