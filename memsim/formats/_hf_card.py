"""The hf format's ``README.md``: YAML front matter the Hub reads, and the figures in prose.

The front matter has ``configs`` (``data_files`` per config, ``all`` the default),
``dataset_info`` (features in the Hub's YAML form, split sizes) per config, ``license``,
``language``, ``task_categories``, ``size_categories`` and ``pretty_name``. The license is
the manifest's ``license`` when it names one, ``apache-2.0`` for data memsim generated (a
manifest with ``memsim_version``), else ``other``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import yaml

from memsim.formats import ExportInfo
from memsim.records import Record

README = "README.md"
_SIZES = ((1_000, "n<1K"), (10_000, "1K<n<10K"), (100_000, "10K<n<100K"),
          (1_000_000, "100K<n<1M"), (10_000_000, "1M<n<10M"))  # fmt: skip


class _Dumper(yaml.SafeDumper):
    """Writes the features of every config in full (no ``&id001`` anchors and aliases)."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


@dataclass
class Figures:
    """Counts of one config, gathered while its records stream past."""

    records: int = 0
    sessions: int = 0
    turns: int = 0
    evidence: int = 0
    characters: int = 0
    with_options: int = 0
    nbytes: int = 0
    """Arrow bytes of the rows (the Hub's ``num_bytes``), added as they are written."""
    locales: set[str] = field(default_factory=set)

    def add(self, record: Record) -> None:
        self.records += 1
        self.sessions += len(record.sessions)
        self.evidence += len(record.qa.evidence)
        self.with_options += bool(record.qa.options)
        for _, turn in record.iter_turns():
            self.turns += 1
            self.characters += len(turn.text)
        if record.locale:
            self.locales.add(record.locale)


def features_yaml(schema: Any) -> list[dict[str, Any]]:
    """The Hub's YAML form of an Arrow schema (``dtype``, ``list`` and ``struct``)."""
    return [_feature(f.name, f.type) for f in schema]


def _feature(name: str, arrow_type: Any) -> dict[str, Any]:
    return {"name": name, **_type(arrow_type)}


def _type(arrow_type: Any) -> dict[str, Any]:
    import pyarrow as pa

    if pa.types.is_struct(arrow_type):
        fields = [arrow_type.field(i) for i in range(arrow_type.num_fields)]
        return {"struct": [_feature(f.name, f.type) for f in fields]}
    if pa.types.is_list(arrow_type):
        inner = _type(arrow_type.value_type)
        return {"list": inner["dtype"] if list(inner) == ["dtype"] else _unnamed(inner)}
    return {"dtype": {"int64": "int64", "string": "string", "bool": "bool"}[str(arrow_type)]}


def _unnamed(inner: dict[str, Any]) -> Any:
    # a list of structs is written as the struct's field list, as the Hub does
    return inner.get("struct", inner)


def render(
    figures: dict[str, Figures],
    features: list[dict[str, Any]],
    info: ExportInfo,
    split: str,
    all_name: str,
    data: str,
) -> str:
    configs = sorted(figures)
    total = Figures()
    for f in figures.values():
        for key in (
            "records",
            "sessions",
            "turns",
            "evidence",
            "characters",
            "with_options",
            "nbytes",
        ):
            setattr(total, key, getattr(total, key) + getattr(f, key))
        total.locales |= f.locales
    languages = sorted({info.locale} if info.locale else total.locales)
    entries = [(all_name, f"{data}/*-{split}.parquet", total, True)]
    entries += [(c, f"{data}/{c}-{split}.parquet", figures[c], False) for c in configs]
    front: dict[str, Any] = {
        "pretty_name": info.title,
        "license": _license(info.manifest),
        **({"language": languages} if languages else {}),
        "task_categories": ["question-answering"],
        "size_categories": [next((s for n, s in _SIZES if total.records < n), "n>1T")],
        "tags": ["memory", "long-term-memory", "conversational", "synthetic", "memsim"],
        "configs": [
            {
                "config_name": name,
                **({"default": True} if default else {}),
                "data_files": [{"split": split, "path": path}],
            }
            for name, path, _, default in entries
        ],
        "dataset_info": [
            {
                "config_name": name,
                "features": features,
                "splits": [{"name": split, "num_bytes": f.nbytes, "num_examples": f.records}],
            }
            for name, _, f, _ in entries
        ],
    }
    head = yaml.dump(front, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=1000)
    return f"---\n{head}---\n\n{_prose(entries, info, split)}"


def _license(manifest: Any) -> str:
    named = manifest.get("license")
    if isinstance(named, str) and named:
        return named
    return "apache-2.0" if "memsim_version" in manifest else "other"


def _prose(entries: list[tuple[str, str, Figures, bool]], info: ExportInfo, split: str) -> str:
    manifest = info.manifest
    total = entries[0][2]
    schema = manifest.get("schema", {}) if isinstance(manifest.get("schema"), dict) else {}
    made = "Exported by memsim"
    if "memsim_version" in manifest:
        made = f"Made by memsim {manifest['memsim_version']}"
    if schema.get("name"):
        made += f" from schema {schema['name']} {schema.get('version', '')}".rstrip()
    seed = (
        manifest.get("options", {}).get("seed")
        if isinstance(manifest.get("options"), dict)
        else None
    )
    if seed is not None:
        made += f", seed {seed}"
    lines = [
        f"# {info.title}",
        "",
        f"{made}. {total.records:,} questions, each with its own history of "
        f"{total.sessions:,} sessions and {total.turns:,} turns in all; "
        f"{total.with_options:,} questions have options (multiple choice).",
        "",
        "| Config | Questions | Sessions | Turns | Turns / question | Evidence turns | "
        "Characters / turn |",
        "|:--|--:|--:|--:|--:|--:|--:|",
    ]
    for name, _, f, _ in entries:
        per_q = f.turns / f.records if f.records else 0.0
        per_t = f.characters / f.turns if f.turns else 0.0
        lines.append(
            f"| {name} | {f.records:,} | {f.sessions:,} | {f.turns:,} | {per_q:.2f} | "
            f"{f.evidence:,} | {per_t:.1f} |"
        )
    lines += [
        "",
        f"One split, `{split}`. A row is one question with its history: `sessions` (each "
        "with its `turns`: speaker, text, time, place, purpose, fact ids) and `qa`: "
        "`question`, `answer` (the open answer), `options` and `gold` (the letter; empty and "
        "null without options), `evidence` (ids of the evidence turns), `time`, and "
        "`provenance` (the profile facts and the transform the answer is computed from). "
        "Values of no fixed type (`provenance.params`, `provenance.answer_value`, `extra`) "
        "are JSON text.",
        "",
        "```python",
        "from datasets import load_dataset",
        f'ds = load_dataset("path/to/this/folder", "{entries[0][0]}", split="{split}")',
        "```",
        "",
    ]
    return "\n".join(lines)
