"""MemDaily answers re-derived when a question names its attribute by the attribute's own
wording ("Where is my peer's workplace?") rather than by its label ("work city")."""

from __future__ import annotations

from memsim.audit._memdaily import derive_part, values_of

PEER = {"relationship": "peer", "hometown": "Boston", "work city": "Atlanta", "name": "Ann Lee"}
OPTIONS = ["New York", "Boston", "San Francisco", "Atlanta"]
QUESTION = "Where is my peer's workplace?"


def test_without_the_wording_both_cities_fit_and_the_answer_is_ambiguous() -> None:
    outcome, _ = derive_part(QUESTION, OPTIONS, [PEER], conditional=False, by_label=True)
    assert outcome == "ambiguous"


def test_the_worded_label_picks_the_asked_attribute() -> None:
    assert values_of(PEER, QUESTION, {"work city"}) == {"atlanta": "work city"}
    outcome, value = derive_part(
        QUESTION, OPTIONS, [PEER], conditional=False, by_label=True, worded={"work city"}
    )
    assert (outcome, value) == ("derived", "atlanta")
