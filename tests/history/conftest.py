"""History datasets made through the CLI, as a user makes them: on the pseudo-locale
schema (tests/data/pseudo.yaml, the smallest schema that supports every QA kind) and on
the default English schema."""

from __future__ import annotations

from pathlib import Path

import pytest
from histories import ENGLISH, PER_TYPE, PSEUDO, generate, ok

from memsim.qa import KIND_ORDER


@pytest.fixture(scope="session")
def pseudo_profiles(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("history") / "profiles"
    ok(
        "profiles",
        "--schema",
        str(PSEUDO),
        "--n",
        str(len(KIND_ORDER) * PER_TYPE),
        "--out",
        str(out),
    )
    return out


@pytest.fixture(scope="session")
def pseudo_histories(tmp_path_factory: pytest.TempPathFactory, pseudo_profiles: Path) -> Path:
    return generate(PSEUDO, pseudo_profiles, tmp_path_factory.mktemp("history") / "d")


@pytest.fixture(scope="session")
def english_profiles(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("history") / "profiles_en"
    ok(
        "profiles",
        "--schema",
        str(ENGLISH),
        "--n",
        str(len(KIND_ORDER) * PER_TYPE),
        "--out",
        str(out),
    )
    return out
