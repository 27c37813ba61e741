"""The MemDaily file format, as files hold it: the reader of the released data (and of
anyone's files in its layout); :mod:`memsim.formats.memdaily` turns its items into records
and writes records back in this layout.

MemDaily (the dataset of the MemSim paper) comes in two forms:

* per-type files ``NN_<type>_<scenario>.json``: each a JSON list of trajectories
  ``{"tid", "message_list": [{"mid", "message", "time", "place"}], "question_list": [qa]}``
  with exactly one question, failed generations still in (marked ``[ERRORQ]`` /
  ``[ERRORA]`` / null answer, ``[ERRORC]`` choices, ``[ERRORG]`` ground truth);
* the merged ``memdaily.json``: ``{type: {scenario: [{"tid", "message_list", "QA"}]}}``,
  the per-type files with the failed items dropped and ``tid`` renumbered.

:func:`read_memdaily` reads either into :class:`MemDailyItem` (flagged items are kept
and marked, :func:`drop_flagged` applies the release's filter).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, NoReturn

import orjson

from memsim._io import MEMDAILY_FILE
from memsim.formats import FormatError

TYPES = ("simple", "conditional", "comparative", "aggregative", "post_processing", "noisy")
"""MemDaily's question types, in the order of the release (01..06)."""
EXTRA_TYPES = ("knowledge_update", "temporal", "abstention")
"""memsim's types beyond MemDaily's (07..09): memory that changes, time, abstention."""
KNOWN_TYPES = (*TYPES, *EXTRA_TYPES)
SCENARIOS = ("roles", "events", "items", "places", "hybrid", "user")
"""MemDaily's scenarios, in the order of the merged file, then memsim's "user"."""
MERGED_NAME = MEMDAILY_FILE

FLAGS = ("error_question", "error_answer", "error_choices", "error_ground_truth")
"""What :attr:`MemDailyItem.flags` may hold: the release's markers of a failed generation."""

_PER_TYPE_RE = re.compile(r"^(\d+)_(" + "|".join(KNOWN_TYPES) + r")_([A-Za-z][A-Za-z0-9]*)\.json$")

Form = Literal["auto", "merged", "per_type"]


def per_type_name(name: str) -> tuple[str, str] | None:
    """(type, scenario) of a per-type file name ``NN_<type>_<scenario>.json``, or None."""
    m = _PER_TYPE_RE.match(name)
    return (m[2], m[3]) if m else None


class MemDailyFormatError(FormatError):
    """A MemDaily file is missing, is not JSON, or is not shaped like MemDaily.

    ``path`` is the file (or folder); ``where`` (also ``field``) the JSON position
    ("line 3, column 7") or key path ("$.simple.roles[4].QA.choices") when there is one.
    """

    def __init__(self, path: str | Path, problem: str, where: str | None = None) -> None:
        super().__init__(path, problem, field=where)
        self.where = where


@dataclass(frozen=True)
class MemDailyItem:
    """One trajectory with its question, as MemDaily stores it (whoever made it).

    ``messages`` are dicts with exactly ``mid``, ``message``, ``time``, ``place``;
    ``qa`` has ``qid`` (when the file has it), ``question``, ``answer``,
    ``target_step_id``, ``choices``, ``ground_truth``, ``time``. Times are the strings
    of the file (``2024年04月03日 周三 07:53``, ``2024-04-03 Wed 07:53``...).
    ``flags`` lists the failure markers found (see :data:`FLAGS`); flagged items keep
    whatever the file holds (``answer`` may be None, ``choices`` the string ``[ERRORC]``).
    """

    type: str
    scenario: str
    tid: int
    messages: tuple[dict[str, Any], ...]
    qa: dict[str, Any]
    source: str
    flags: tuple[str, ...] = ()

    @property
    def flagged(self) -> bool:
        return bool(self.flags)


# --------------------------------------------------------------------------- reading


def read_memdaily(path: str | Path, form: Form = "auto") -> list[MemDailyItem]:
    """Every trajectory of a MemDaily dataset, flagged ones included.

    ``path`` is a merged ``memdaily.json``, a folder of per-type files
    ``NN_<type>_<scenario>.json`` (other files in it are ignored), a folder holding a
    ``memdaily.json``, or a single per-type file. A folder holding both forms is
    ambiguous: pass ``form="merged"`` or ``form="per_type"``. Per-type files are read in
    the release's order (type 01..06, then roles, events, items, places, hybrid).
    Raises :class:`MemDailyFormatError` naming the file on any problem.
    """
    if form not in ("auto", "merged", "per_type"):
        raise ValueError(f"form must be 'auto', 'merged' or 'per_type', not {form!r}")
    path = Path(path)
    if not path.exists():
        raise MemDailyFormatError(path, "does not exist")
    if path.is_file():
        return _read_file(path, form)
    if not path.is_dir():
        raise MemDailyFormatError(path, "is neither a file nor a folder")

    merged = path / MERGED_NAME
    per_type = _per_type_files(path)
    if form == "auto":
        if merged.is_file() and per_type:
            raise MemDailyFormatError(
                path,
                f"holds both {MERGED_NAME} and per-type files; pass the file itself, "
                "or form='merged' / form='per_type'",
            )
        form = "merged" if merged.is_file() else "per_type"
    if form == "merged":
        if not merged.is_file():
            raise MemDailyFormatError(path, f"holds no {MERGED_NAME}")
        return _read_merged(merged, _load(merged))
    if not per_type:
        raise MemDailyFormatError(
            path,
            f"holds neither {MERGED_NAME} nor per-type files NN_<type>_<scenario>.json "
            f"(type one of {', '.join(KNOWN_TYPES)})",
        )
    items: list[MemDailyItem] = []
    for file, typ, scenario in per_type:
        items.extend(_read_per_type(file, _load(file), typ, scenario))
    return items


def drop_flagged(items: Iterable[MemDailyItem]) -> list[MemDailyItem]:
    """The items the release's merged file keeps: those with no failure marker.

    On the public MemDaily this leaves 2,954 questions and 26,003 messages (the release's
    own filter, ``question == "[ERRORQ]" or answer == "[ERRORA]"``, drops the same 46
    items: every ``[ERRORA]``, null answer, ``[ERRORC]`` or ``[ERRORG]`` comes with
    ``[ERRORQ]``). Unlike the merged file, ``tid`` is not renumbered.
    """
    return [item for item in items if not item.flags]


def _per_type_files(folder: Path) -> list[tuple[Path, str, str]]:
    found: dict[tuple[str, str], Path] = {}
    for file in sorted(folder.iterdir()):
        m = _PER_TYPE_RE.match(file.name)
        if not m or not file.is_file():
            continue
        key = (m[2], m[3])
        if key in found:
            raise MemDailyFormatError(
                folder,
                f"two files for type {key[0]!r}, scenario {key[1]!r}: "
                f"{found[key].name} and {file.name}",
            )
        found[key] = file

    def order(key: tuple[str, str]) -> tuple[int, int, str]:
        typ, scenario = key
        rank = SCENARIOS.index(scenario) if scenario in SCENARIOS else len(SCENARIOS)
        return KNOWN_TYPES.index(typ), rank, scenario

    return [(found[k], k[0], k[1]) for k in sorted(found, key=order)]


def _load(file: Path) -> Any:
    try:
        data = file.read_bytes()
    except OSError as e:
        raise MemDailyFormatError(file, f"cannot read: {e.strerror or e}") from e
    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError as e:
        raise MemDailyFormatError(
            file, f"invalid JSON: {e.msg}", f"line {e.lineno}, column {e.colno} (char {e.pos})"
        ) from e


def _read_file(file: Path, form: Form) -> list[MemDailyItem]:
    m = _PER_TYPE_RE.match(file.name)
    if form == "per_type" and not m:
        raise MemDailyFormatError(
            file,
            "a per-type file must be named NN_<type>_<scenario>.json "
            f"(type one of {', '.join(KNOWN_TYPES)})",
        )
    data = _load(file)
    if form == "merged" or (form == "auto" and isinstance(data, dict)):
        return _read_merged(file, data)
    if m and isinstance(data, list):
        return _read_per_type(file, data, m[2], m[3])
    if m:
        raise MemDailyFormatError(file, f"expected a list of trajectories, got {_kind(data)}", "$")
    raise MemDailyFormatError(
        file,
        f"expected an object {{type: {{scenario: [trajectory, ...]}}}}, got {_kind(data)}",
        "$",
    )


def _read_merged(file: Path, data: Any) -> list[MemDailyItem]:
    check = _Checker(file)
    check.obj(data, "$", "an object {type: {scenario: [trajectory, ...]}}")
    items: list[MemDailyItem] = []
    for typ, scenarios in data.items():
        where = f"$.{typ}"
        if typ not in KNOWN_TYPES:
            check.fail(
                where, f"unknown question type {typ!r} (expected one of {', '.join(KNOWN_TYPES)})"
            )
        check.obj(scenarios, where, "an object {scenario: [trajectory, ...]}")
        for scenario, trajectories in scenarios.items():
            swhere = f"{where}.{scenario}"
            if not scenario:
                check.fail(swhere, "empty scenario name")
            check.array(trajectories, swhere, "a list of trajectories")
            for i, traj in enumerate(trajectories):
                twhere = f"{swhere}[{i}]"
                check.obj(traj, twhere, "a trajectory object")
                check.has(traj, "QA", twhere)
                items.append(check.item(traj, traj["QA"], f"{twhere}.QA", twhere, typ, scenario))
    return items


def _read_per_type(file: Path, data: Any, typ: str, scenario: str) -> list[MemDailyItem]:
    check = _Checker(file)
    check.array(data, "$", "a list of trajectories")
    items: list[MemDailyItem] = []
    for i, traj in enumerate(data):
        twhere = f"$[{i}]"
        check.obj(traj, twhere, "a trajectory object")
        check.has(traj, "question_list", twhere)
        questions = traj["question_list"]
        check.array(questions, f"{twhere}.question_list", "a list with one question")
        if len(questions) != 1:
            check.fail(
                f"{twhere}.question_list", f"expected exactly one question, got {len(questions)}"
            )
        qwhere = f"{twhere}.question_list[0]"
        items.append(check.item(traj, questions[0], qwhere, twhere, typ, scenario))
    return items


def _kind(value: Any) -> str:
    kinds = {
        dict: "an object",
        list: "a list",
        str: "a string",
        bool: "a boolean",
        int: "a number",
        float: "a number",
        type(None): "null",
    }
    return kinds.get(type(value), type(value).__name__)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class _Checker:
    """Structure checks that raise :class:`MemDailyFormatError` with a key path."""

    def __init__(self, file: Path) -> None:
        self.file = file

    def fail(self, where: str, problem: str) -> NoReturn:
        raise MemDailyFormatError(self.file, problem, where)

    def obj(self, value: Any, where: str, what: str) -> None:
        if not isinstance(value, dict):
            self.fail(where, f"expected {what}, got {_kind(value)}")

    def array(self, value: Any, where: str, what: str) -> None:
        if not isinstance(value, list):
            self.fail(where, f"expected {what}, got {_kind(value)}")

    def has(self, obj: dict[str, Any], key: str, where: str) -> None:
        if key not in obj:
            self.fail(f"{where}.{key}", "missing")

    def field(
        self, obj: dict[str, Any], key: str, where: str, kind: type | tuple[type, ...], what: str
    ) -> Any:
        self.has(obj, key, where)
        value = obj[key]
        ok = _is_int(value) if kind is int else isinstance(value, kind)
        if not ok:
            self.fail(f"{where}.{key}", f"expected {what}, got {_kind(value)}")
        return value

    def item(
        self, traj: dict[str, Any], qa: Any, qwhere: str, twhere: str, typ: str, scenario: str
    ) -> MemDailyItem:
        tid = self.field(traj, "tid", twhere, int, "an integer")
        raw = self.field(traj, "message_list", twhere, list, "a list of messages")
        messages = tuple(self.message(m, f"{twhere}.message_list[{j}]") for j, m in enumerate(raw))
        parsed, flags = self.qa(qa, qwhere)
        return MemDailyItem(
            type=typ,
            scenario=scenario,
            tid=tid,
            messages=messages,
            qa=parsed,
            source=str(self.file),
            flags=flags,
        )

    def message(self, m: Any, where: str) -> dict[str, Any]:
        self.obj(m, where, "a message object")
        return {
            "mid": self.field(m, "mid", where, int, "an integer"),
            "message": self.field(m, "message", where, str, "a string"),
            "time": self.field(m, "time", where, str, "a string"),
            "place": self.field(m, "place", where, str, "a string"),
        }

    def qa(self, qa: Any, where: str) -> tuple[dict[str, Any], tuple[str, ...]]:
        self.obj(qa, where, "a question object")
        flags: list[str] = []
        out: dict[str, Any] = {}
        if "qid" in qa:
            out["qid"] = self.field(qa, "qid", where, int, "an integer")
        question = self.field(qa, "question", where, str, "a string")
        if "[ERRORQ]" in question:
            flags.append("error_question")
        answer = self.field(qa, "answer", where, (str, type(None)), "a string or null")
        if answer is None or "[ERRORA]" in answer:
            flags.append("error_answer")
        steps = self.field(qa, "target_step_id", where, list, "a list of message ids")
        for k, step in enumerate(steps):
            if not _is_int(step):
                self.fail(f"{where}.target_step_id[{k}]", f"expected an integer, got {_kind(step)}")
        choices = self.field(qa, "choices", where, (dict, str), "an object {letter: option}")
        if isinstance(choices, str):
            if "[ERROR" not in choices:
                self.fail(f"{where}.choices", "expected an object {letter: option}, got a string")
            flags.append("error_choices")
        else:
            for letter, option in choices.items():
                if not isinstance(option, str):
                    self.fail(
                        f"{where}.choices.{letter}", f"expected a string, got {_kind(option)}"
                    )
        truth = self.field(qa, "ground_truth", where, str, "a string")
        if "[ERROR" in truth:
            flags.append("error_ground_truth")
        out.update(
            question=question,
            answer=answer,
            target_step_id=steps,
            choices=choices,
            ground_truth=truth,
            time=self.field(qa, "time", where, str, "a string"),
        )
        return out, tuple(flags)
