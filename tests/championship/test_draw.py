"""The seat draw: for any number of players (2-200) and of tables (1-30), every player is
seated once, in one flight if they fit at the bar's tables at once and in two otherwise;
tables of a flight differ by at most one player and hold 2 to the table size; a seed gives
the same draw again. Where the players cannot be seated, one sentence says why."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from championship.core.draw import MAX_FLIGHTS, flight_sizes, make_draw
from championship.core.errors import ChampionshipError


def seatable(players: int, tables: int, size: int) -> bool:
    """The test's own reading: some number of flights (at most 2) in which a flight of n
    players sits at k <= tables tables of 2..size each."""
    def flight_fits(n: int) -> bool:
        return any(2 * k <= n <= size * k for k in range(1, tables + 1))
    if players < 2:
        return False
    if players <= tables * size:
        return flight_fits(players)
    return players <= MAX_FLIGHTS * tables * size and flight_fits((players + 1) // 2) \
        and flight_fits(players // 2)


@given(players=st.integers(2, 200), tables=st.integers(1, 30), size=st.integers(2, 7),
       seed=st.integers(0, 2**63 - 1), spread=st.booleans(),
       gaps=st.sets(st.integers(1, 400), max_size=20))
def test_every_draw_keeps_the_seeds_rules(players: int, tables: int, size: int, seed: int,
                                          spread: bool, gaps: set[int]) -> None:
    # registration numbers with gaps (withdrawn players are not drawn)
    numbers = [n for n in range(1, players + len(gaps) + 1) if n not in gaps][:players]
    if not seatable(len(numbers), tables, size):
        with pytest.raises(ChampionshipError) as refused:
            make_draw(numbers, tables, size, seed, spread)
        assert "\n" not in str(refused.value)
        return
    draw = make_draw(numbers, tables, size, seed, spread)
    seated = [p for f in draw.flights for t in f.tables for p in t.players]
    assert sorted(seated) == sorted(numbers)  # everyone exactly once
    one_flight = len(numbers) <= tables * size
    assert len(draw.flights) == (1 if one_flight else 2)
    if not one_flight:  # half play first, the rest second
        assert [len(f.players) for f in draw.flights] == [(len(numbers) + 1) // 2,
                                                          len(numbers) // 2]
    for f in draw.flights:
        sizes = [len(t.players) for t in f.tables]
        assert 1 <= len(sizes) <= tables
        assert max(sizes) - min(sizes) <= 1
        assert min(sizes) >= 2 and max(sizes) <= size
        assert [t.number for t in f.tables] == list(range(1, len(sizes) + 1))
        if not spread:  # as few tables as seat the flight
            assert len(sizes) == -(-len(f.players) // size)
    assert sorted(draw.lots) == sorted(numbers)
    assert sorted(draw.lots.values()) == list(range(1, len(numbers) + 1))
    assert make_draw(list(reversed(numbers)), tables, size, seed, spread) == draw


def test_a_seed_gives_the_same_draw_and_another_seed_another() -> None:
    numbers = list(range(1, 24))
    first = make_draw(numbers, 3, 7, 2017)
    assert make_draw(numbers, 3, 7, 2017) == first
    assert make_draw(numbers, 3, 7, 2018).lots != first.lots
    # seat 1 of each table is the first player drawn to it
    order = sorted(first.lots, key=lambda n: first.lots[n])
    assert [t.players[0] for t in first.flights[0].tables] == order[:2]


def test_the_seeds_23_players_at_3_tables() -> None:
    draw = make_draw(list(range(1, 24)), 3, 7, 1)
    assert [[len(t.players) for t in f.tables] for f in draw.flights] == [[6, 6], [6, 5]]
    spread = make_draw(list(range(1, 24)), 3, 7, 1, spread=True)
    assert [[len(t.players) for t in f.tables] for f in spread.flights] == [[4, 4, 4],
                                                                          [4, 4, 3]]


@pytest.mark.parametrize(("players", "tables", "size", "words"), [
    (1, 3, 7, "at least 2 players"),
    (0, 3, 7, "at least 2 players"),
    (43, 3, 7, "do not fit in two flights at 3 tables of 7 (21 seats a flight)"),
    (3, 5, 2, "cannot be seated at tables of at most 2"),
])
def test_players_who_cannot_be_seated_are_refused_in_one_sentence(
        players: int, tables: int, size: int, words: str) -> None:
    with pytest.raises(ChampionshipError, match=words.replace("(", r"\(").replace(")", r"\)")):
        flight_sizes(players, tables, size)
