"""The live page is sent the whole document once, then patches: the changed entries and the
changed standings lines. A patch applied to the document before gives the document after,
whatever changed (lines added, moved, gone)."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from championship.core.page_state import apply_patch, page_patch

line = st.fixed_dictionaries({"rank": st.one_of(st.none(), st.integers(1, 9)),
                              "number": st.integers(1, 9), "points": st.integers(0, 99)})
doc = st.fixed_dictionaries({
    "at_us": st.integers(0, 10**12),
    "qualifying": st.lists(line, max_size=8),
    "final": st.lists(line, max_size=4),
    "deals": st.dictionaries(st.sampled_from(["flight-1/1", "flight-1/2"]), st.integers(0, 9)),
    "clock": st.fixed_dictionaries({"left_us": st.one_of(st.none(), st.integers(0, 99))}),
})


@given(doc, doc)
def test_a_patch_turns_the_old_document_into_the_new(old: dict[str, Any],
                                                     new: dict[str, Any]) -> None:
    assert apply_patch(old, page_patch(old, new)) == new


def test_one_players_line_changed_sends_that_line_alone() -> None:
    lines = [{"rank": i, "number": i, "points": 10 * i} for i in range(1, 201)]
    old = {"at_us": 1, "qualifying": lines, "deals": {"flight-1/1": 4}}
    new = {"at_us": 2, "qualifying": [*lines[:-1], {"rank": 200, "number": 200, "points": 9}],
           "deals": {"flight-1/1": 5}}
    patch = page_patch(old, new)
    assert patch["set"] == {"at_us": 2, "deals": {"flight-1/1": 5}}
    assert patch["lines"] == {"qualifying": {"n": 200, "at": {"199": new["qualifying"][-1]}}}
