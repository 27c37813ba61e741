"""Any domain by YAML alone: the campus schema with every kind and attribute renamed to
random identifiers (hypothesis draws them) still validates, generates every QA kind in
every scenario and audits with no error. Nothing in memsim may depend on what a kind or
an attribute is called; what the code needs to know is declared in the schema."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memsim.qa import KIND_ORDER, QA_KINDS, default_kinds, planned_scenarios
from memsim.schema import load_schema

ROOT = Path(__file__).resolve().parents[2]
CAMPUS = ROOT / "schemas" / "campus.en.yaml"
PER_TYPE = 10
RESERVED = {"value", "who", "whose", "be", "have", "s", "a", "unit", "first", "last"}
"""Template tokens, and the email local-part tokens a schema cannot shadow."""
REF_KEYS = ("given", "gender", "name", "org", "offset_from")


def _identifiers(n: int) -> st.SearchStrategy[list[str]]:
    word = st.from_regex(r"[a-z][a-z0-9]{3,7}", fullmatch=True).filter(lambda w: w not in RESERVED)
    return st.lists(word, min_size=n, max_size=n, unique=True)


def _names(doc: dict[str, Any]) -> tuple[list[str], list[str]]:
    kinds = list(doc["entities"])
    attrs = {a for s in doc["attribute_sets"].values() for a in s}
    attrs |= {a for e in doc["entities"].values() for a in e.get("attributes", {})}
    return kinds, sorted(attrs)


def rename(doc: dict[str, Any], kinds: dict[str, str], attrs: dict[str, str]) -> dict[str, Any]:
    """The schema with kinds and attributes renamed, and every reference to them."""

    def ref(text: str) -> str:
        # "kind.attr", "kind[0].attr" and "attr" references
        m = re.fullmatch(r"(\w+)((?:\[\d+\])?)\.(\w+)", text)
        if m:
            return f"{kinds[m[1]]}{m[2]}.{attrs[m[3]]}"
        return attrs.get(text, text)

    def tokens(text: str) -> str:
        return re.sub(r"\{(\w+)\}", lambda m: "{" + attrs.get(m[1], m[1]) + "}", text)

    def dist(d: Any) -> Any:
        if not isinstance(d, dict):
            return d
        out = dict(d)
        for key in REF_KEYS:
            if isinstance(out.get(key), str):
                out[key] = ref(out[key])
        if isinstance(out.get("given"), list):
            out["given"] = [ref(x) for x in out["given"]]
        if "expr" in out:  # derived arithmetic names its parents by attribute name
            out["expr"] = re.sub(r"[A-Za-z_]\w*", lambda m: attrs.get(m[0], m[0]), out["expr"])
        for key in ("parents", "uses", "of"):
            if key in out:
                out[key] = [ref(x) for x in out[key]]
        if "sources" in out:
            out["sources"] = {ref(k): v for k, v in out["sources"].items()}
        if "otherwise" in out:
            out["otherwise"] = dist(out["otherwise"])
        for key in ("cases", "default"):
            if key in out and out.get("kind") == "template":
                value = out[key]
                out[key] = (
                    {k: [tokens(t) for t in v] for k, v in value.items()}
                    if isinstance(value, dict)
                    else [tokens(t) for t in value]
                )
        return out

    def attributes(block: dict[str, Any]) -> dict[str, Any]:
        out = {}
        for name, attr in block.items():
            attr = dict(attr)
            attr["dist"] = dist(attr["dist"])
            attr["phrasings"] = {
                code: [tokens(p) for p in ps] for code, ps in attr.get("phrasings", {}).items()
            }
            out[attrs[name]] = attr
        return out

    doc = dict(doc)
    doc["attribute_sets"] = {k: attributes(v) for k, v in doc["attribute_sets"].items()}
    entities = {}
    for kind, entity in doc["entities"].items():
        entity = dict(entity)
        entity["attributes"] = attributes(entity.get("attributes", {}))
        entity["refer"] = {code: tokens(t) for code, t in entity.get("refer", {}).items()}
        entities[kinds[kind]] = entity
    doc["entities"] = entities
    return doc


def _memsim(*args: str) -> None:
    cmd = [sys.executable, "-m", "memsim", *args]
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, f"{' '.join(cmd)}\n{proc.stdout}\n{proc.stderr}"


@settings(max_examples=2, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_a_renamed_domain_generates_every_kind_and_audits_clean(
    data: st.DataObject, tmp_path_factory: Any
) -> None:
    doc = yaml.safe_load(CAMPUS.read_text(encoding="utf-8"))
    kinds, attrs = _names(doc)
    new = data.draw(_identifiers(len(kinds) + len(attrs)))
    renamed = rename(
        doc, dict(zip(kinds, new, strict=False)), dict(zip(attrs, new[len(kinds) :], strict=True))
    )
    base = tmp_path_factory.mktemp("anydomain")
    (base / doc["locale_overlay"]).parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(CAMPUS.parent / doc["locale_overlay"], base / doc["locale_overlay"])
    schema = base / "renamed.yaml"
    schema.write_text(
        yaml.safe_dump(renamed, allow_unicode=True, sort_keys=False), encoding="utf-8"
    )

    _memsim("schema", "validate", str(schema))
    _memsim(
        "profiles",
        "--schema",
        str(schema),
        "--n",
        str(len(KIND_ORDER) * PER_TYPE),
        "--out",
        str(base / "p"),
    )
    _memsim(
        "generate",
        "--schema",
        str(schema),
        "--profiles",
        str(base / "p"),
        "--out",
        str(base / "d"),
        "--per-type",
        str(PER_TYPE),
        "--no-progress",
    )
    _memsim(
        "audit",
        str(base / "d"),
        "--profiles",
        str(base / "p"),
        "--schema",
        str(schema),
        "--report",
        str(base / "a"),
        "--no-progress",
    )
    records = [json.loads(line) for line in (base / "d" / "dataset.jsonl").open(encoding="utf-8")]
    made = {(r["type"], r["scenario"]) for r in records}
    loaded = load_schema(schema)
    kinds = default_kinds(loaded)
    # every kind (campus changes, so the history kinds too), in every scenario the plan
    # gives it: all but comparing and counting the user, who shares nothing ordered
    # with the instructors' and classmates' pools
    assert set(kinds) == set(KIND_ORDER)
    assert made == {(k, s) for k in kinds for s in planned_scenarios(loaded, k)}
    assert {s for k in kinds for s in QA_KINDS.get(k).all_scenarios} - {"user"} <= {
        s for _, s in made
    }
    report = json.loads((base / "a" / "report.json").read_text(encoding="utf-8"))
    errors = [f for f in report["findings"] if f["severity"] == "error"]
    assert report["verdict"]["errors"] == 0, errors[:5]
