"""Sampling that depends on the language of the values: Chinese names from Faker's
zh_CN lists, e-mail addresses romanised from any script, template forms (a city's
short name inside a company's name) and ``%`` digits (1-9) in identifiers."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

from faker import Faker

from memsim.graph import BRNet
from memsim.sampling import sample_profiles
from memsim.sampling._strings import ascii_words
from memsim.schema import load_schema, parse_schema

ZH_SCHEMA = Path(__file__).parents[2] / "schemas" / "daily_life.zh.yaml"

SCHEMA = """
format_version: 1
name: lang
version: "1"
locale: zh
timeline: {start: 2024-03-01, end: 2024-06-30}
entities:
  user:
    count: 1
    scenario: user
    attributes:
      gender:
        type: categorical
        values: [男性, 女性]
        dist: {kind: categorical}
      name:
        type: text
        dist: {kind: person_name, gender: gender, gender_values: {男性: male, 女性: female},
               format: "{last}{first}", locale: zh_CN}
      city:
        type: categorical
        values: [广东深圳, 北京]
        dist: {kind: categorical}
      employer:
        type: text
        dist: {kind: template, uses: [city], forms: {city: {广东深圳: 深圳}},
               default: ["{city}市银行有限公司"]}
      email:
        type: text
        dist:
          kind: email
          name: name
          org: employer
          styles: ["{all}", "{all}{nnnn}"]
          domain: "{initials}"
          spellings: {有限公司: "", 银行: yin hang, 曾: zeng}
      id:
        type: text
        dist: {kind: digits, patterns: {"19%#0%": 1.0}}
"""


def _profiles(n: int = 300) -> list[dict[str, object]]:
    schema = parse_schema(SCHEMA)
    return [
        {k: f.value for k, f in p.entities[0].facts.items()}
        for p in sample_profiles(BRNet(schema), seed=5, n=n)
    ]


def test_chinese_names_come_from_fakers_lists_by_gender() -> None:
    provider = next(p for p in Faker("zh_CN").providers if hasattr(p, "first_names_male"))
    lasts = sorted(provider.last_names, key=len, reverse=True)
    for facts in _profiles():
        name = str(facts["name"])
        last = next(s for s in lasts if name.startswith(s))
        first = name[len(last) :]
        pool = (
            provider.first_names_male if facts["gender"] == "男性" else provider.first_names_female
        )
        assert first in pool, (name, facts["gender"])
        assert " " not in name


def test_template_forms_write_the_short_name() -> None:
    employers = {str(f["employer"]) for f in _profiles()}
    assert employers == {"深圳市银行有限公司", "北京市银行有限公司"}


def test_emails_are_romanised_with_the_spellings() -> None:
    for facts in _profiles():
        email = str(facts["email"])
        local, domain = email.split("@")
        assert re.fullmatch(r"[a-z]+(\d{4})?", local), email
        # 深圳市银行 -> s z s y h (银行 read yin hang, 有限公司 dropped)
        expected = "szsyh" if facts["city"] == "广东深圳" else "bjsyh"
        assert domain == f"{expected}.com", email
        assert local.rstrip("0123456789") == "".join(
            ascii_words(str(facts["name"]), {"曾": "zeng"})
        )


def test_ascii_words_romanise_every_script() -> None:
    assert ascii_words("张伟") == ["zhang", "wei"]
    assert ascii_words("曾小华", {"曾": "zeng"}) == ["zeng", "xiao", "hua"]
    assert ascii_words("重庆银行", {"重庆": "chong qing", "银行": "yin hang"}) == [
        "chong",
        "qing",
        "yin",
        "hang",
    ]
    # Latin letters lose their accents as before; other letters are transliterated
    assert ascii_words("Lancôme Harper & Stone") == ["lancome", "harper", "stone"]
    assert ascii_words("Straße Ørsted") == ["strasse", "orsted"]


def test_percent_digits_are_one_to_nine_and_hash_digits_any() -> None:
    seen = set()
    for facts in _profiles(2000):
        value = str(facts["id"])
        assert re.fullmatch(r"19[1-9]\d0[1-9]", value), value
        seen.add(value[2])
        seen.add(value[5])
    assert seen == set("123456789")


def test_zh_identity_numbers_hold_a_real_birth_date() -> None:
    schema = load_schema(ZH_SCHEMA)
    for profile in sample_profiles(BRNet(schema), seed=2, n=200):
        user = profile.entities[0].facts
        number = str(user["id_number"].value)
        assert re.fullmatch(r"\d{18}", number), number
        dt.date(int(number[6:10]), int(number[10:12]), int(number[12:14]))  # a real date
        assert user["driver_license"].value == number  # a Chinese licence carries the ID
        assert re.fullmatch(r"1\d{10}", str(user["phone"].value))
