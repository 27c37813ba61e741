"""A tiny hand-built dataset (two trajectories) for the benchmark tests that compute
their expectations by hand."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

T0 = {
    "type": "simple",
    "scenario": "roles",
    "messages": [
        ("My mother is 62 years old.", "2024-04-01T08:00"),
        ("I turned 58 last month.", "2024-04-01T08:30"),
        ("My father is old.", "2024-04-01T09:00"),
    ],
    "question": "How old is my mother?",
    "time": "2024-04-01T10:00",
    "choices": {"A": "58", "B": "62", "C": "65", "D": "70"},
    "truth": "B",
    "target": [0],
}
T1 = {
    "type": "conditional",
    "scenario": "roles",
    "messages": [
        ("My sister is 30 years old.", "2024-04-02T08:00"),
        ("The weather was lovely.", "2024-04-02T09:00"),
        ("My sister works as a nurse.", "2024-04-02T10:00"),
        ("I cooked pasta tonight.", "2024-04-02T11:00"),
    ],
    "question": "What does my 30-year-old relative do for work?",
    "time": "2024-04-02T12:00",
    "choices": {"A": "teacher", "B": "nurse", "C": "pilot", "D": "chef"},
    "truth": "B",
    "target": [0, 2],
}
PLACE = "home, Boston"


def record(t: dict[str, Any], tid: int) -> dict[str, Any]:
    return {
        "format_version": 1,
        "tid": tid,
        "type": t["type"],
        "scenario": t["scenario"],
        "profile_id": f"p{tid:06d}",
        "locale": "en",
        "message_list": [
            {"mid": i, "message": text, "time": when, "place": PLACE, "role": "filler", "facts": []}
            for i, (text, when) in enumerate(t["messages"])
        ],
        "QA": {
            "qid": 0,
            "question": t["question"],
            "answer": "",
            "choices": t["choices"],
            "ground_truth": t["truth"],
            "target_step_id": t["target"],
            "time": t["time"],
        },
    }


def write_tiny(folder: Path) -> Path:
    """T0 and T1 as a memsim dataset folder (dataset.jsonl)."""
    folder.mkdir(parents=True, exist_ok=True)
    lines = [json.dumps(record(t, i)) for i, t in enumerate((T0, T1))]
    (folder / "dataset.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder
