"""Noise infusion: positions, times, evidence ids, format, and what noise may say."""

from __future__ import annotations

import datetime as dt
import itertools
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from _reference import pick_minutes, render_codes, render_minute, render_run
from scipy.stats import chi2

from memsim.bench import NoisePool, detect_format, infuse, open_source, sample_composition
from memsim.bench._times import MEMDAILY_TEMPLATE, MEMDAILY_WEEKDAYS, TimeFormat
from memsim.records import QA, USER, Record, Session, Turn

P_MIN = 1e-4
"""Uniformity tests fail when the chi-square p-value is below this: a correct sampler
fails one of them with probability 1e-4 (the seeds are fixed, so each test gives the
same result on every run)."""
MEMDAILY_FMT = TimeFormat("memdaily", MEMDAILY_TEMPLATE, weekdays_short=MEMDAILY_WEEKDAYS)


def chi_square_p(counts: list[int]) -> float:
    expected = sum(counts) / len(counts)
    stat = sum((c - expected) ** 2 / expected for c in counts)
    return float(chi2.sf(stat, len(counts) - 1))


def item(
    times: list[str],
    asked: str,
    target: list[int],
    typ: str = "simple",
    texts: list[str] | None = None,
) -> Record:
    texts = texts or [f"Real message number {i}." for i in range(len(times))]
    turns = tuple(
        Turn(i, USER, t, w, f"place {i}") for i, (t, w) in enumerate(zip(texts, times, strict=True))
    )
    qa = QA("What is it?", "a", ("a", "b", "c", "d"), "A", tuple(target), asked)
    return Record(0, typ, "roles", (Session("s0", times[0] if times else asked, turns),), qa)


def test_composition_is_uniform_when_there_is_room() -> None:
    # 9 noise messages over 4 gaps: C(12, 3) = 220 arrangements, each equally likely
    rng = np.random.default_rng(1)
    draws = Counter(tuple(sample_composition(9, [10**6] * 4, rng)) for _ in range(22_000))
    assert len(draws) == 220 and all(sum(c) == 9 for c in draws)
    assert chi_square_p(list(draws.values())) > P_MIN


def test_composition_respects_capacities_and_is_uniform_among_feasible() -> None:
    caps = [1, 0, 2, 3]
    feasible = [c for c in itertools.product(*(range(x + 1) for x in caps)) if sum(c) == 4]
    rng = np.random.default_rng(2)
    draws = Counter(tuple(sample_composition(4, caps, rng)) for _ in range(len(feasible) * 400))
    assert set(draws) == set(feasible)
    assert chi_square_p([draws[c] for c in feasible]) > P_MIN
    with pytest.raises(ValueError, match="do not fit"):
        sample_composition(7, caps, rng)


def test_real_message_position_is_uniform(en_pool: NoisePool) -> None:
    # one real message at level 10: its position is uniform on 0..9
    raw = item(["2024-04-10T12:00"], "2024-04-20T12:00", [0])
    fmt = detect_format(["2024-04-10T12:00"])
    positions = Counter()
    for seed in range(2000):
        out = infuse(
            raw, 10, fmt, en_pool, list(range(len(en_pool.entities))), np.random.default_rng(seed)
        )
        positions[sorted(out.labels.evidence)[0]] += 1
    assert sorted(positions) == list(range(10))
    assert chi_square_p([positions[i] for i in range(10)]) > P_MIN


def check_infused(raw: Record, out: Any, level: int, fmt: TimeFormat) -> None:
    n = len(raw.turns)
    assert len(out.messages) == level * n and len(out.labels.noise) == (level - 1) * n
    assert [m.mid for m in out.messages] == list(range(level * n))
    times = [fmt.parse(m.time) for m in out.messages]
    assert None not in times
    assert all(a < b for a, b in itertools.pairwise(times)), "timestamps strictly increase"
    assert times[-1] < fmt.parse(raw.qa.time), "the question comes after the last message"
    real = [m for m in out.messages if m.mid not in out.labels.noise]
    assert [(m.text, m.time, m.place) for m in real] == [
        (t.text, t.time, t.place) for t in raw.turns
    ]
    # evidence ids follow their messages
    originals = [raw.turns[t].text for t in sorted(raw.qa.evidence)]
    assert [out.messages[e].text for e in sorted(out.labels.evidence)] == originals
    # noise looks like the real messages: same time format, a real message's place
    places = {t.place for t in raw.turns}
    for mid in out.labels.noise:
        assert fmt.render(times[mid]) == out.messages[mid].time
        assert out.messages[mid].place in places
        assert 7 <= times[mid].hour < 23


def test_native_trajectories_at_every_level(dataset_dir: Path, en_pool: NoisePool) -> None:
    source = open_source(dataset_dir)
    fmt = detect_format(source.sample_times())
    assert fmt.name == "iso"
    for index, raw in source.items():
        for level in (1, 10, 100):
            out = infuse(
                raw,
                level,
                fmt,
                en_pool,
                list(range(len(en_pool.entities))),
                np.random.default_rng(index * 1000 + level),
            )
            check_infused(raw, out, level, fmt)


def test_memdaily_time_format_and_tight_gaps(en_pool: NoisePool) -> None:
    # two messages 5 minutes apart: their gap holds at most 4 noise messages
    times = ["2024年04月01日 周一 08:00", "2024年04月01日 周一 08:05", "2024年04月03日 周三 21:00"]
    raw = item(times, "2024年04月04日 周四 09:00", [1, 2])
    assert detect_format(times).name == "memdaily"
    for seed in range(50):
        out = infuse(raw, 100, MEMDAILY_FMT, en_pool, [], np.random.default_rng(seed))
        check_infused(raw, out, 100, MEMDAILY_FMT)
        first, second, _ = (m.mid for m in out.messages if m.mid not in out.labels.noise)
        assert second - first - 1 <= 4, "08:01..08:04 are the only free minutes"
    assert "周三" in MEMDAILY_FMT.render(dt.datetime(2024, 4, 3, 7, 53))
    assert MEMDAILY_FMT.render(dt.datetime(2024, 4, 3, 7, 53)) == "2024年04月03日 周三 07:53"


def test_non_increasing_input_gets_no_noise_in_between(en_pool: NoisePool) -> None:
    raw = item(["2024-04-01T10:00", "2024-04-01T09:00"], "2024-04-02T10:00", [0])
    fmt = detect_format(["2024-04-01T10:00"])
    for seed in range(20):
        out = infuse(raw, 10, fmt, en_pool, [], np.random.default_rng(seed))
        real = [m.mid for m in out.messages if m.mid not in out.labels.noise]
        assert real[1] == real[0] + 1


def test_pool_leaves_out_named_and_same_group_entities(en_pool: NoisePool) -> None:
    everything = set(range(len(en_pool.entities)))
    mothers = {i for i, e in enumerate(en_pool.entities) if "mother" in e.names}
    assert mothers
    allowed = set(en_pool.allowed("simple", frozenset({"roles"}), ["My mother is 62."]))
    assert not allowed & mothers and allowed | mothers == everything
    # "grandmother" is another word: it does not name "mother"
    assert mothers <= set(
        en_pool.allowed("simple", frozenset({"roles"}), ["My grandmother is 80."])
    )
    group = set(en_pool.allowed("aggregative", frozenset({"roles"}), ["How many?"]))
    assert all(en_pool.entities[i].scenario != "roles" for i in group)
    assert any(en_pool.entities[i].scenario == "events" for i in group)
    # a hybrid without provenance (MemDaily) may be about anything: no entity is safe
    assert en_pool.question_scenarios("hybrid", []) == frozenset(
        {"roles", "events", "items", "places"}
    )
    assert en_pool.question_scenarios("hybrid", ["relative[0].age", "item[0].name"]) == frozenset(
        {"roles", "items"}
    )


def test_drawn_noise_is_consistent(en_pool: NoisePool) -> None:
    rng = np.random.default_rng(0)
    allowed = en_pool.allowed("simple", frozenset({"roles"}), ["Hello."])
    specs = en_pool.draw(3000, allowed, rng)
    facts = [s for s in specs if not isinstance(s, str)]
    assert 0.1 < 1 - len(facts) / len(specs) < 0.2  # ~15% chit-chat
    by_who: dict[str, set[int]] = {}
    for entity, _ in facts:
        by_who.setdefault(en_pool.entities[entity].who, set()).add(entity)
    assert all(len(e) == 1 for e in by_who.values()), "one entity per referring phrase"
    assert all(isinstance(s, str) for s in en_pool.draw(50, [], rng)), (
        "nothing allowed: chit-chat only"
    )


def test_render_minute_is_render_at_that_minute() -> None:
    from memsim.bench._times import TimeFormat, known_formats

    epoch = dt.datetime(1970, 1, 1)
    odd = [  # the minute first, literal braces; the clock before a weekday
        TimeFormat("odd", "{minute:02d}/{hour} {{x}} {day}"),
        TimeFormat("late", "{hour:02d}h{minute:02d} {weekday}", weekdays=tuple("MTWRFSU")),
    ]
    for fmt in [*known_formats(), *odd]:
        for minute in range(28_000_000, 28_000_000 + 9 * 1440, 37):
            assert fmt.render_minute(minute) == fmt.render(epoch + dt.timedelta(minutes=minute))
        # in runs: within a day, across days, one minute, none
        for run in (range(28_000_000, 28_001_440, 7), range(27_999_000, 28_006_000, 61)):
            minutes = list(run)
            assert fmt.render_minutes(minutes) == [fmt.render_minute(m) for m in minutes]
        assert fmt.render_minutes([28_000_123]) == [fmt.render_minute(28_000_123)]
        assert fmt.render_minutes([]) == []


def test_render_run_is_render_one_by_one(en_pool: NoisePool) -> None:
    allowed = list(range(len(en_pool.entities)))
    plan = np.random.default_rng(5)
    for seed in range(20):
        a, b = np.random.default_rng(seed), np.random.default_rng(seed)
        specs = en_pool.draw(120, allowed, a)
        assert en_pool.draw(120, allowed, b) == specs
        minutes = sorted(int(m) for m in plan.integers(28_000_000, 28_100_000, size=120))
        one = [render_minute(en_pool, s, m, a) for s, m in zip(specs, minutes, strict=True)]
        assert render_run(en_pool, specs, minutes, b) == one
        assert a.random() == b.random()
        # as codes: the same specs, draws and texts
        c, d = np.random.default_rng(seed), np.random.default_rng(seed)
        codes = en_pool.draw_codes(120, allowed, c)
        assert [en_pool.spec(code) for code in codes.tolist()] == en_pool.draw(120, allowed, d)
        assert render_codes(en_pool, codes, minutes, c) == render_run(en_pool, specs, minutes, d)
        assert render_codes(en_pool, codes, minutes, c) == render_run(en_pool, specs, minutes, d)
        assert c.random() == d.random()


def test_remembered_noise_texts_are_the_verbalizers(en_pool: NoisePool) -> None:
    """The pool renders a fact once per (phrasing, what the text depends on): every text
    it hands out is the one the template verbalizer makes at that time."""
    allowed = list(range(len(en_pool.entities)))
    epoch = dt.datetime(1970, 1, 1)
    for seed in range(30):
        a, b = np.random.default_rng(seed), np.random.default_rng(seed)
        specs = en_pool.draw(200, allowed, a)
        en_pool.draw(200, allowed, b)
        for i, spec in enumerate(specs):
            minute = 28_000_000 + 1000 * seed + 97 * i  # days apart: relative times vary
            got = render_minute(en_pool, spec, minute, a)
            if isinstance(spec, str):
                assert got == spec
                continue
            e = en_pool.entities[spec[0]]
            facts = [(e.entity, e.facts[j]) for j in spec[1]]
            when = epoch + dt.timedelta(minutes=minute)
            assert got == en_pool.verbalizer.message(facts, when, b)


def test_dated_noise_texts_around_their_events(en_pool: NoisePool) -> None:
    """A fact naming a date-time is remembered by how each date-time is said (by date,
    'tomorrow', 'this', 'next'): every day from a week before its event to two weeks
    after gives the verbalizer's text, in each phrasing."""
    from memsim.bench._pool import BY_DATE
    from memsim.verbalize import parse_when, relative_form

    epoch = dt.datetime(1970, 1, 1)
    forms = set()
    checked = 0
    for ei, e in enumerate(en_pool.entities):
        for fi, fact in enumerate(e.facts):
            phrasings, depends = en_pool._shape(ei, fi)
            if depends != BY_DATE or fact.type != "datetime":
                continue
            event = parse_when(str(fact.value))
            for offset in range(-14, 8):
                when = event - dt.timedelta(days=offset, hours=3)
                minute = int((when - epoch).total_seconds() // 60)
                for choice in range(phrasings):
                    got = render_minute(en_pool, (ei, (fi,)), minute, _Pick(choice))  # type: ignore[arg-type]
                    template = en_pool.verbalizer.phrasings(e.entity, fact)[choice]
                    assert got == en_pool.verbalizer.render(e.entity, fact, when, template)
                    checked += 1
                forms.add(relative_form(event, when))
            if checked > 3000:
                break
    assert {None, "tomorrow", "this", "next"} <= forms


class _Pick:
    """A generator stand-in whose draw of a phrasing is fixed."""

    def __init__(self, choice: int) -> None:
        self.choice = choice

    def integers(self, n: int) -> int:
        return self.choice


def _composition_by_choice(total: int, caps: list[int], rng: np.random.Generator) -> list[int]:
    """sample_composition as it was written first: rng.choice over each gap's counts."""
    caps = [min(c, total) for c in caps]
    g = len(caps)
    ways = [np.zeros(total + 1) for _ in range(g + 1)]
    ways[g][0] = 1.0
    s = np.arange(total + 1)
    for i in range(g - 1, -1, -1):
        cum = np.concatenate(([0.0], np.cumsum(ways[i + 1])))
        row = np.maximum(cum[s + 1] - cum[np.maximum(s - caps[i], 0)], 0.0)
        ways[i] = row / row.max()
    room_after = np.concatenate((np.cumsum(caps[::-1])[::-1][1:], [0]))
    out, left = [], total
    for i in range(g):
        lo, hi = max(0, left - int(room_after[i])), min(caps[i], left)
        xs = np.arange(lo, hi + 1)
        weights = ways[i + 1][left - xs]
        weights = weights if weights.sum() > 0 else np.ones(len(xs))
        x = int(xs[rng.choice(len(xs), p=weights / weights.sum())])
        out.append(x)
        left -= x
    return out


def test_composition_draws_as_rng_choice() -> None:
    """The counts are those rng.choice draws gap by gap, and the generator ends where
    it would (tight and roomy gaps, one gap, noise levels up to 100x)."""
    plan = np.random.default_rng(7)
    for seed in range(300):
        g = int(plan.integers(1, 25))
        caps = [int(c) for c in plan.integers(0, [5, 60, 2000][seed % 3], size=g)]
        total = int(plan.integers(0, sum(caps) + 1))
        a, b = np.random.default_rng(seed), np.random.default_rng(seed)
        assert sample_composition(total, caps, a) == _composition_by_choice(total, caps, b)
        assert a.random() == b.random()


def _infused_gap_by_gap(
    raw: Record, level: int, fmt: TimeFormat, pool: NoisePool, rng: np.random.Generator
) -> list[tuple[int, str, str, str]]:
    """The noisy messages as infuse first made them: minutes, phrasings and texts
    drawn and made gap by gap."""
    import bisect
    import math

    from memsim.bench._infuse import gap_segments, minutes

    real = raw.turns
    allowed = list(range(len(pool.entities)))
    times = [minutes(fmt.parse(t.time)) for t in real]  # type: ignore[arg-type]
    count = (level - 1) * len(real)
    gaps = gap_segments(times, minutes(fmt.parse(raw.qa.time)), count)  # type: ignore[arg-type]
    runs = sample_composition(count, [sum(c for _, c in seg) for seg in gaps], rng)
    codes = pool.draw_codes(count, allowed, rng)
    out: list[tuple[int, str, str, str]] = []
    used = 0
    for gap, (segments, run) in enumerate(zip(gaps, runs, strict=True)):
        if run:
            before, after = real[max(gap - 1, 0)].place, real[min(gap, len(real) - 1)].place
            middle = (times[gap - 1] + times[gap]) / 2 if 0 < gap < len(real) else math.inf
            picked = pick_minutes(segments, run, rng)
            texts = render_codes(pool, codes[used : used + run], picked, rng)
            early = bisect.bisect_right(picked, middle)
            places = [before] * early + [after] * (run - early)
            for text, stamp, place in zip(texts, fmt.render_minutes(picked), places, strict=True):
                out.append((len(out), text, stamp, place))
            used += run
        if gap < len(real):
            t = real[gap]
            out.append((len(out), t.text, t.time, t.place))
    return out


def test_infuse_draws_noise_as_gap_by_gap(dataset_dir: Path, en_pool: NoisePool) -> None:
    """infuse draws every gap's minutes and phrasings in turn and makes the rest for the
    whole trajectory at once: the same messages and labels as making each gap's noise
    on its own, and the generator left where that leaves it."""
    source = open_source(dataset_dir)
    fmt = detect_format(source.sample_times())
    allowed = list(range(len(en_pool.entities)))
    cases = [(i, r) for i, r in source.items()][::3]
    cases.append((-1, item(["2024-04-01T10:00", "2024-04-01T09:00"], "2024-04-09T10:00", [0])))
    # a gap of 20 days holding most of 1000x noise: rng.choice shuffles the tail there
    days = item(
        ["2024-04-01T10:00", "2024-04-21T10:00", "2024-04-21T11:00"], "2024-04-21T12:00", [0]
    )
    cases.append((-2, days))
    for index, raw in cases:
        for level in (2, 10, 100, *((1000,) if index == -2 else ())):
            a, b = (np.random.default_rng([index + 2, level]) for _ in "ab")
            out = infuse(raw, level, fmt, en_pool, allowed, a)
            want = _infused_gap_by_gap(raw, level, fmt, en_pool, b)
            assert [tuple(m) for m in out.messages] == want
            real = {m.mid for m in out.messages} - out.labels.noise
            assert [want[i][1] for i in sorted(real)] == [t.text for t in raw.turns]
            assert a.random() == b.random()


def test_dated_texts_by_key_are_the_verbalizers(en_pool: NoisePool) -> None:
    """texts_at keys a dated fact's text by its day only when one of its date-times is
    1 to 13 days after it (else every day shares a key): on days around each event and
    far from it, in an order that reaches each key from another day first, every text
    is the verbalizer's."""
    from memsim.bench._pool import BY_DATE
    from memsim.verbalize import parse_when

    epoch = dt.datetime(1970, 1, 1)
    shuffle = np.random.default_rng(3)
    checked = 0
    for code in range(len(en_pool._fact_index)):
        e_index, f_index = en_pool._fact_entity[code], en_pool._fact_index[code]
        e = en_pool.entities[e_index]
        fact = e.facts[f_index]
        bounds = en_pool.phrasing_bounds(np.array([code], dtype=np.int64))
        if en_pool._depends[code] != BY_DATE or fact.type != "datetime":
            continue
        event = parse_when(str(fact.value))
        whens = [event - dt.timedelta(days=d, hours=5) for d in [*range(-16, 17), 90, -400]]
        pairs = [(w, c) for w in whens for c in range(int(bounds[0]))]
        for j in shuffle.permutation(len(pairs)).tolist():
            when, choice = pairs[j]
            minute = int((when - epoch).total_seconds() // 60)
            got = en_pool.texts_at(
                np.array([code]), np.array([minute]), np.array([choice], dtype=np.int64)
            )
            template = en_pool.verbalizer.phrasings(e.entity, fact)[choice]
            assert got == [en_pool.verbalizer.render(e.entity, fact, when, template)]
            checked += 1
    assert checked > 500
