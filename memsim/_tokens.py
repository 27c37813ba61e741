"""Tokens counted offline with the data card's tokenizer (reader prompts, history budgets).

``o200k_base`` (GPT-4o's) through ``bpe-openai``, whose vocabularies ship inside the
wheel: the optional extra ``tokens``. Without it the benchmark still runs and says
that it did not count tokens.

A count is what ``bpe_openai.get_encoding(name).encode_ordinary(text)`` gives, taken
from the package's Rust tokenizer (``bpe_openai._bindings``) loaded on its own where
it can be: ``import bpe_openai`` decodes all three of its vocabularies from base64 to
build a table of special tokens (0.6 CPU s of the 0.65 a process spends loading the
tokenizer), and counting reads none of them (the Rust side holds its own). The Rust
tokenizer's own ``count`` is ``len(encode(...))`` without building the list
(``tests/test_tokens.py`` compares the two paths on every kind of text).
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import sys
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any

TOKENIZER = "o200k_base"
BINDINGS = "bpe_openai._bindings"
"""The package's compiled tokenizer (the Rust crate's Python binding)."""
LONGEST = 1_000_000
"""Texts of this many characters or more go through the package's own
``encode_ordinary``, which refuses them (as it always has)."""


class TokenCounter:
    def __init__(self, name: str = TOKENIZER) -> None:
        self.name = name
        self.count: Callable[[str], int] = token_count_function(name)


def token_counter() -> TokenCounter | None:
    """The counter, or None when the ``tokens`` extra is not installed."""
    try:
        return TokenCounter()
    except ImportError:
        return None


@lru_cache(maxsize=8)
def token_count_function(name: str = TOKENIZER) -> Callable[[str], int]:
    """``len(bpe_openai.get_encoding(name).encode_ordinary(text))`` as a function of
    the text, loaded once per process; ImportError without bpe-openai, and the
    package's own errors for a name it cannot load."""
    return fast_count(name) or _public_count(name)


@lru_cache(maxsize=8)
def fast_count(name: str = TOKENIZER) -> Callable[[str], int] | None:
    """The count of :func:`token_count_function` from the compiled tokenizer alone,
    without importing the package; None when it does not hold ``name`` (the package
    knows more encodings, or cannot load some) or is not there (another build: the
    caller takes the package's public path). ImportError without bpe-openai."""
    backend = _bindings()
    if backend is None or name not in _supported(backend):
        return None
    tokenizer = backend.tokenizer_for_encoding(name)
    fallback: list[Callable[[str], int]] = []

    def count(text: str) -> int:
        if len(text) < LONGEST:
            try:
                return int(tokenizer.count(text))
            except UnicodeEncodeError:  # a lone surrogate: the package's path replaces it
                pass
        if not fallback:
            fallback.append(_public_count(name))
        return fallback[0](text)

    return count


def _public_count(name: str) -> Callable[[str], int]:
    import bpe_openai  # type: ignore[import-untyped,unused-ignore]

    encoding = bpe_openai.get_encoding(name)

    def count(text: str) -> int:
        # encode_ordinary: text that looks like a special token counts as plain text
        return len(encoding.encode_ordinary(text))

    return count


def _supported(backend: Any) -> list[str]:
    try:
        return list(backend.supported_encodings())
    except AttributeError:  # another build of the package: its public path
        return []


def _bindings() -> Any | None:
    """The compiled tokenizer module, without the package's ``__init__`` (whose import
    decodes every vocabulary) when the package is not imported yet; None when the
    package is installed but has no such module (another build: the caller takes the
    package's public path). ImportError when bpe-openai is not installed."""
    if BINDINGS in sys.modules:
        return sys.modules[BINDINGS]
    if "bpe_openai" in sys.modules:  # imported already: its own loader costs nothing more
        try:
            return importlib.import_module(BINDINGS)
        except ImportError:
            return None
    spec = importlib.util.find_spec("bpe_openai")
    if spec is None or not spec.submodule_search_locations:
        raise ImportError("No module named 'bpe_openai'", name="bpe_openai")
    for folder in spec.submodule_search_locations:
        for suffix in importlib.machinery.EXTENSION_SUFFIXES:
            path = Path(folder) / f"_bindings{suffix}"
            if path.is_file():
                return _load_extension(path)
    return None


def _load_extension(path: Path) -> Any | None:
    loader = importlib.machinery.ExtensionFileLoader(BINDINGS, str(path))
    spec = importlib.util.spec_from_file_location(BINDINGS, path, loader=loader)
    if spec is None:
        return None
    module = importlib.util.module_from_spec(spec)
    try:
        loader.exec_module(module)
    except ImportError:
        return None
    # registered under the package's own name: an ``import bpe_openai`` later in the
    # process finds it there instead of initialising the extension a second time
    sys.modules[BINDINGS] = module
    return module
