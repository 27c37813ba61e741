"""Stage 5: facts become user messages (offline templates by default)."""

from memsim.verbalize._locale import LocaleData, load_locale
from memsim.verbalize._outsider import outsider_pattern, outsider_phrasings
from memsim.verbalize._overlay import (
    faker_locale,
    merge,
    name_format,
    overlay_of,
    overlay_problems,
    schema_locale,
)
from memsim.verbalize._render import (
    CJK,
    capitalize_first,
    parse_when,
    refer,
    relative_form,
    render_clock,
    render_date,
    render_datetime,
    render_message_time,
    render_month_day,
    render_value,
    resolve_relative,
    template_fields,
    value_at,
)
from memsim.verbalize._said_forms import unsayable_phrasings
from memsim.verbalize._tautology import naming_attributes, says_itself, tautologies
from memsim.verbalize._template import (
    VERBALIZERS,
    TemplateVerbalizer,
    fact_tokens,
    fill,
    without_time_preposition,
)

__all__ = [
    "CJK",
    "VERBALIZERS",
    "LocaleData",
    "TemplateVerbalizer",
    "capitalize_first",
    "fact_tokens",
    "faker_locale",
    "fill",
    "load_locale",
    "merge",
    "name_format",
    "naming_attributes",
    "outsider_pattern",
    "outsider_phrasings",
    "overlay_of",
    "overlay_problems",
    "parse_when",
    "refer",
    "relative_form",
    "render_clock",
    "render_date",
    "render_datetime",
    "render_message_time",
    "render_month_day",
    "render_value",
    "resolve_relative",
    "says_itself",
    "schema_locale",
    "tautologies",
    "template_fields",
    "unsayable_phrasings",
    "value_at",
    "without_time_preposition",
]
