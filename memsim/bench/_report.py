"""Result records, the Markdown table and the plot.

One record per (mechanism, noise level, QA kind, scenario), plus ``scenario = "all"``
per kind and ``qa_type = "all"`` overall. Every figure except the four ``*_ms``
latency fields is a deterministic function of the data, the seed and the options;
with ``--no-timings`` those are null and ``results.json`` is byte-identical run to run.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from memsim.bench._metrics import LatencyHistogram, bootstrap_ci, mean
from memsim.bench._run import BenchRun, Row

ALL = "all"


def records(run: BenchRun) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for memory in run.mechanisms:
        for level in run.levels:
            cell = run.cells[memory.name, level]
            kinds = list(dict.fromkeys(r.qa_type for r in cell.rows))
            for kind in [*kinds, ALL]:
                rows_kind = [r for r in cell.rows if kind in (ALL, r.qa_type)]
                scenarios = (
                    list(dict.fromkeys(r.scenario for r in rows_kind)) if kind != ALL else []
                )
                for scenario in [*scenarios, ALL]:
                    rows = [r for r in rows_kind if scenario in (ALL, r.scenario)]
                    groups = [
                        g for g in cell.write if kind in (ALL, g[0]) and scenario in (ALL, g[1])
                    ]
                    out.append(_record(run, memory.name, level, kind, scenario, rows, groups))
    return out


def _record(
    run: BenchRun,
    mechanism: str,
    level: int,
    kind: str,
    scenario: str,
    rows: list[Row],
    groups: list[tuple[str, str]],
) -> dict[str, Any]:
    cell = run.cells[mechanism, level]
    n = len(rows)
    correct = sum(1 for r in rows if r.answer is not None and r.answer == r.ground_truth)
    name = f"{mechanism}|{level}|{kind}|{scenario}"
    ci = bootstrap_ci(correct, n, run.seed, name)
    write, read = LatencyHistogram(), LatencyHistogram()
    for g in groups:
        write.merge(cell.write[g])
        read.merge(cell.read[g])
    return {
        "mechanism": mechanism,
        "reader": run.reader.name,
        "reader_kind": run.reader.kind,
        "noise": level,
        "qa_type": kind,
        "scenario": scenario,
        "n": n,
        "correct": correct,
        "answered": sum(1 for r in rows if r.answer is not None),
        "accuracy": _round(correct / n if n else None),
        "accuracy_ci_low": _round(ci[0] if ci else None),
        "accuracy_ci_high": _round(ci[1] if ci else None),
        "k": run.k,
        "n_with_evidence": sum(1 for r in rows if r.seen is not None),
        "recall_at_5": _round(mean([r.recall_5 for r in rows])),
        "ndcg_at_5": _round(mean([r.ndcg_5 for r in rows])),
        "recall_at_k": _round(mean([r.recall_k for r in rows])),
        "ndcg_at_k": _round(mean([r.ndcg_k for r in rows])),
        "evidence_seen": _round(mean([r.seen for r in rows])),
        "memory_messages": _round(mean([float(r.memory_messages) for r in rows])),
        "prompt_tokens": _round(
            mean([None if r.tokens is None else float(r.tokens) for r in rows])
        ),
        "write_ms_p50": _round(write.percentile_ms(50)),
        "write_ms_p95": _round(write.percentile_ms(95)),
        "read_ms_p50": _round(read.percentile_ms(50)),
        "read_ms_p95": _round(read.percentile_ms(95)),
    }


def _round(x: float | None, digits: int = 6) -> float | None:
    return None if x is None else round(x, digits)


# --------------------------------------------------------------------------- Markdown


def markdown(recs: Sequence[dict[str, Any]], title: str, notes: Iterable[str]) -> str:
    overall = [r for r in recs if r["qa_type"] == ALL]
    k = overall[0]["k"] if overall else 5
    reader = f"{overall[0]['reader']} ({overall[0]['reader_kind']})" if overall else "?"
    lines = [f"# {title}", "", f"Reader: **{reader}**.", ""]
    lines += [f"- {note}" for note in notes] + [""]
    lines += [
        "## Overall",
        "",
        f"| mechanism | noise | n | accuracy [95% CI] | recall@{k} | NDCG@{k} | evidence seen "
        "| memory msgs | prompt tokens | write ms p50/p95 | read ms p50/p95 |",
        "|:--|--:|--:|:--|--:|--:|--:|--:|--:|--:|--:|",
    ]
    for r in overall:
        lines.append(
            f"| {r['mechanism']} | {r['noise']}x | {r['n']} | {_acc(r)} | {_f(r['recall_at_k'])} "
            f"| {_f(r['ndcg_at_k'])} | {_f(r['evidence_seen'])} | {_f(r['memory_messages'], 1)} "
            f"| {_f(r['prompt_tokens'], 0)} | {_ms(r, 'write')} | {_ms(r, 'read')} |"
        )
    kinds = list(dict.fromkeys(r["qa_type"] for r in recs if r["qa_type"] != ALL))
    for metric, label in (("accuracy", "Accuracy"), ("recall_at_k", f"Recall@{k}")):
        lines += [
            "",
            f"## {label} per QA kind",
            "",
            "| mechanism | noise | " + " | ".join(kinds) + " |",
            "|:--|--:|" + "--:|" * len(kinds),
        ]
        by_key = {
            (r["mechanism"], r["noise"], r["qa_type"]): r for r in recs if r["scenario"] == ALL
        }
        for r in overall:
            cells = [
                _f(by_key[r["mechanism"], r["noise"], kd][metric])
                if (r["mechanism"], r["noise"], kd) in by_key
                else ""
                for kd in kinds
            ]
            lines.append(f"| {r['mechanism']} | {r['noise']}x | " + " | ".join(cells) + " |")
    lines += [
        "",
        "Per scenario figures are in `results.json`. n/a: not defined (no ranking, "
        "no evidence, or not measured).",
    ]
    return "\n".join(lines) + "\n"


def _f(x: float | None, digits: int = 3) -> str:
    return "n/a" if x is None else f"{x:.{digits}f}"


def _acc(r: dict[str, Any]) -> str:
    if r["accuracy"] is None:
        return "n/a"
    return f"{r['accuracy']:.3f} [{r['accuracy_ci_low']:.3f}, {r['accuracy_ci_high']:.3f}]"


def _ms(r: dict[str, Any], what: str) -> str:
    p50, p95 = r[f"{what}_ms_p50"], r[f"{what}_ms_p95"]
    return "n/a" if p50 is None else f"{p50:.3g} / {p95:.3g}"


# --------------------------------------------------------------------------- plot


def plot(recs: Sequence[dict[str, Any]], path: Path, title: str) -> None:
    """Accuracy and recall@k against noise level, one line per mechanism (PNG)."""
    from memsim.graph import MissingExtraError

    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as exc:
        raise MissingExtraError("the plot needs matplotlib: pip install 'memsim[viz]'") from exc
    overall = [r for r in recs if r["qa_type"] == ALL]
    mechanisms = list(dict.fromkeys(r["mechanism"] for r in overall))
    levels = sorted({r["noise"] for r in overall})
    k = overall[0]["k"] if overall else 5
    colours = {m: f"C{i % 10}" for i, m in enumerate(mechanisms)}
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.6))
    for ax, metric, label in (
        (axes[0], "accuracy", "accuracy"),
        (axes[1], "recall_at_k", f"evidence recall@{k}"),
    ):
        for mech in mechanisms:
            points = [
                (r["noise"], r[metric])
                for r in overall
                if r["mechanism"] == mech and r[metric] is not None
            ]
            if points:
                xs, ys = zip(*points, strict=True)
                ax.plot(xs, ys, marker="o", label=mech, color=colours[mech])
        ax.set_xscale("log")
        ax.set_xticks(levels, [f"{lv}x" for lv in levels])
        ax.minorticks_off()
        ax.set_ylim(-0.02, 1.02)
        ax.set_xlabel("noise level (x real messages per trajectory)")
        ax.set_ylabel(label)
        ax.grid(alpha=0.3)
    from matplotlib.lines import Line2D

    handles = [Line2D([], [], color=colours[m], marker="o", label=m) for m in mechanisms]
    fig.legend(handles=handles, loc="lower center", ncol=len(mechanisms), fontsize=8, frameon=False)
    fig.suptitle(title, fontsize=10)
    fig.tight_layout(rect=(0, 0.07, 1, 1))
    fig.savefig(path, dpi=110, metadata={"Software": None})
    plt.close(fig)
