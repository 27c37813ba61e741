"""memsim._tokens: the compiled tokenizer loaded on its own counts as the package does."""

from __future__ import annotations

import subprocess
import sys

import pytest

bpe_openai = pytest.importorskip("bpe_openai")

from memsim._tokens import TOKENIZER, fast_count, token_count_function  # noqa: E402

TEXTS = [
    "",
    " ",
    "hello world",
    "My boss's email is zhao.yalin0205@szfinancecenter.com.",
    "I wrote <|endoftext|> in a note, oddly.",  # a special token's look, counted as text
    "<|endofprompt|><|endoftext|>",
    "我的同事在洪湖公园附近工作，下周五（5月10日）要去北京出差。",
    "Numbers 1234567 and 3.14159, dates 2024-06-04T07:05.",
    "tabs\tand\nnewlines\r\n  and   runs of    spaces   ",
    "emoji 😀🎉 and accents: café, naïve, Zürich",
    "a\udc80b",  # a lone surrogate: the package's own path replaces it
    "word " * 2000,
]


@pytest.mark.parametrize("name", ["o200k_base", "cl100k_base"])
def test_fast_count_is_the_packages_count(name: str) -> None:
    fast = fast_count(name)
    assert fast is not None  # the installed package has its compiled tokenizer
    encoding = bpe_openai.get_encoding(name)
    for text in TEXTS:
        assert fast(text) == len(encoding.encode_ordinary(text)), text[:40]
    assert token_count_function(name) is fast


def test_an_encoding_the_compiled_tokenizer_lacks_takes_the_packages_path() -> None:
    assert fast_count("p50k_base") is None  # bpe-openai names it; its Rust side has none


def test_counting_does_not_import_the_package_and_it_imports_after() -> None:
    code = (
        "import sys\n"
        "from memsim._tokens import token_count_function\n"
        f"n = token_count_function({TOKENIZER!r})('I wrote <|endoftext|> in a note.')\n"
        "assert 'bpe_openai' not in sys.modules, 'the package was imported'\n"
        "import bpe_openai\n"  # later, as a test or the card's fallback would
        f"enc = bpe_openai.get_encoding({TOKENIZER!r})\n"
        "assert n == len(enc.encode_ordinary('I wrote <|endoftext|> in a note.')), n\n"
        "print(n)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert int(out.stdout) > 5
