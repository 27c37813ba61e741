"""Whether text states the facts it should, and nothing else.

One module shared by the audit (do evidence messages state their facts?) and by the
verification of LLM rewrites (does a rewrite keep every fact and add none?), so the
audit accepts exactly what verification accepts. Everything language-specific comes
from the locale's ``recognise`` data and calendar templates.
"""

from memsim.verify._dates import DateMention, clocks_in, dates_in, relative_days_in
from memsim.verify._facts import StatedFact, day_stated, fact_stated, text_stated, words
from memsim.verify._numbers import fold, numbers_in
from memsim.verify._rewrite import (
    Vocabulary,
    check_rewrite,
    new_capitalised,
    new_numbers,
    new_terms,
    vocabulary_for,
)

__all__ = [
    "DateMention",
    "StatedFact",
    "Vocabulary",
    "check_rewrite",
    "clocks_in",
    "dates_in",
    "day_stated",
    "fact_stated",
    "fold",
    "new_capitalised",
    "new_numbers",
    "new_terms",
    "numbers_in",
    "relative_days_in",
    "text_stated",
    "vocabulary_for",
    "words",
]
