"""The context every QA kind draws from, built once per schema and seed.

Generation (:mod:`memsim.dataset`) and the LLM rewrite pass (:mod:`memsim.rewrite`)
both need it; it lives here so that neither imports the other.
"""

from __future__ import annotations

from memsim.graph import BRNet
from memsim.qa._choices import POOL_START, ValuePool
from memsim.qa._context import QAContext
from memsim.sampling import ProfileSampler
from memsim.schema import Schema
from memsim.verbalize import TemplateVerbalizer, schema_locale

NOISE_PROFILES = 300
"""Profiles the noisy kind draws its look-alike messages from."""


def make_context(schema: Schema, seed: int, kinds: tuple[str, ...] = ()) -> QAContext:
    """``kinds``: the QA kinds the dataset asks (empty: all of them)."""
    net = BRNet(schema)
    locale = schema_locale(schema)
    noise = tuple(
        ProfileSampler(net).profiles(seed, POOL_START + 10**6, POOL_START + 10**6 + NOISE_PROFILES)
    )
    return QAContext(
        schema,
        net,
        locale,
        TemplateVerbalizer(schema, locale),
        ValuePool.sample(net, seed),
        noise,
        tuple(kinds),
        seed,
    )
