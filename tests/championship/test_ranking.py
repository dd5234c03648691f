"""A ranking kept from one reading to the next and moved by the players whose sums changed
(`championship.core.ranking`) lists the same lines, and names the same luckiest player, as
ranking everyone afresh (`standings.ranked`, `results.luckiest`), after any sequence of
changes, however its lines are read (whole, one by one, or only after several moves); and
moving a ranking never changes one made before (a screen may still hold it)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from championship.core import ranking
from championship.core.ranking import moved, rank
from championship.core.results import luckiest
from championship.core.settings import TieKey
from championship.core.standings import Entrant, ranked

PLAYERS = 12
sums_of = st.tuples(st.integers(0, 30), st.integers(0, 4))  # (points, games): few, so ties
changes = st.dictionaries(st.integers(1, PLAYERS + 2), sums_of, min_size=1, max_size=5)


@settings(max_examples=300, deadline=None)
@given(lots=st.lists(st.one_of(st.none(), st.integers(1, 6)), min_size=PLAYERS,
                     max_size=PLAYERS),
       withdrawn=st.sets(st.integers(1, PLAYERS), max_size=3),
       start=st.dictionaries(st.integers(1, PLAYERS), sums_of),
       tie_break=st.permutations(list(TieKey)),
       steps=st.lists(st.tuples(changes, st.integers(0, 10**6)), max_size=25),
       layer=st.sampled_from([2, 64]))
def test_a_moved_ranking_is_the_ranking_afresh(
        lots: list[int | None], withdrawn: set[int], start: dict[int, tuple[int, int]],
        tie_break: list[TieKey], steps: list[tuple[dict[int, tuple[int, int]], int]],
        layer: int) -> None:
    entrants = [Entrant(n, f"P{n}", lots[n - 1], n in withdrawn)
                for n in range(1, PLAYERS + 1)]
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(ranking, "LAYER", layer)  # 2: the shared maps are made whole often
        history = [(rank(entrants, start, tie_break), dict(start))]
        for change, pick in steps:
            # mostly the newest ranking, sometimes an older one (what a stale reader holds)
            base, sums = history[-1] if pick % 4 else history[pick % len(history)]
            after, now = moved(base, change), {**sums, **change}
            fresh = ranked(entrants, now, tie_break)
            # read in whole, line by line from the end, or not at all until later: the
            # ranks a move left to put right come out the same whichever way is taken
            if pick % 3 == 0:
                assert list(after.lines) == fresh
            elif pick % 3 == 1:
                lines = after.lines
                assert [lines[i] for i in range(-1, -len(lines) - 1, -1)] == fresh[::-1]
                assert lines[1:-1] == tuple(fresh[1:-1]) and len(lines) == len(fresh)
            if pick % 3 != 2:
                assert luckiest(after.lines, leaders=after.leaders) == luckiest(fresh)
            history.append((after, now))
        for kept, sums in history:  # moving one never changed another
            assert list(kept.lines) == ranked(entrants, sums, tie_break)
