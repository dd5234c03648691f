"""A player withdraws: whenever it happens, they take no further part and no award, their
results so far stay on the sheet without a rank, and their table plays on without them."""

from __future__ import annotations

import pytest

from championship.core.settings import make
from championship.desk.operations import Championship
from companion.app import CompanionApp
from tests.championship.conftest import SimClock

NAMES = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kim"]


def event(db: str, clock: SimClock, players: int, **settings: object) -> Championship:
    champ = Championship.open(db, clock=clock)
    champ.new_event("Cup", make(**settings))
    champ.register(NAMES[:players])
    return champ


def current_players(champ: Championship, stage: str, table: int) -> tuple[int, ...]:
    return next(t.players for t in champ.snapshot().stage_tables(stage) if t.table == table)


def deal(db: str, clock: SimClock, game_id: int) -> None:
    with CompanionApp.open(db, game_id, clock=clock) as app:
        assert app.game is not None
        names = app.game.names
        app.record_round(names[0], points={n: 4 for n in names[1:]})


def test_before_the_draw_they_are_not_drawn(db: str, clock: SimClock) -> None:
    champ = event(db, clock, 5, tables=2)
    assert champ.withdraw(3) == ["Cid (number 3) has withdrawn."]
    assert champ.withdraw(3) == ["Cid (number 3) had already withdrawn."]
    _draw, seated = champ.draw(seed=1)
    assert sorted(n for s in seated for n in s.players) == [1, 2, 4, 5]
    lines = champ.snapshot().qualifying
    assert [(ln.number, ln.rank, ln.withdrawn) for ln in lines if ln.number == 3] == [
        (3, None, True)]


def test_after_the_draw_their_table_plays_on_without_them(db: str, clock: SimClock) -> None:
    champ = event(db, clock, 5, tables=2, table_size=3)
    _draw, seated = champ.draw(seed=1)
    big = next(s for s in seated if len(s.players) == 3)
    leaver = big.players[1]
    notes = champ.withdraw(leaver)
    assert notes[1] == f"Qualifying, Table {big.table} will play without them."
    now = current_players(champ, big.stage, big.table)
    assert leaver not in now and len(now) == 2
    assert champ.snapshot().event.stale is None
    champ.start()  # the draw stands


def test_a_table_left_alone_before_the_start_asks_for_a_new_draw(db: str,
                                                                 clock: SimClock) -> None:
    champ = event(db, clock, 5, tables=2, table_size=3)
    _draw, seated = champ.draw(seed=1)
    small = next(s for s in seated if len(s.players) == 2)
    notes = champ.withdraw(small.players[0])
    assert "has one player left: draw the seats again" in notes[1]
    with pytest.raises(Exception, match="a table was left with one player after the draw"):
        champ.start()
    _draw, seated = champ.draw(seed=1)
    assert sorted(len(s.players) for s in seated) == [2, 2]
    champ.start()


def test_a_later_flights_lone_player_moves_to_a_table_with_room(db: str,
                                                                clock: SimClock) -> None:
    champ = event(db, clock, 9, tables=2, table_size=3)
    _draw, seated = champ.draw(seed=4)
    flight2 = [s for s in seated if s.stage == "flight-2"]
    assert sorted(len(s.players) for s in flight2) == [2, 2]
    champ.start()
    leaver, lone = flight2[0].players
    notes = champ.withdraw(leaver)
    assert notes[-1] == f"{NAMES[lone - 1]} moves to Table {flight2[1].table}."
    assert current_players(champ, "flight-2", flight2[1].table) == (*flight2[1].players, lone)
    champ.end()
    champ.done(1)
    champ.done(2)
    champ.start()  # flight 2 plays at one table of three
    assert [len(t.players) for t in champ.snapshot().stage_tables("flight-2")
            if not t.done] == [3]


def test_or_takes_a_player_from_a_full_table(db: str, clock: SimClock) -> None:
    champ = event(db, clock, 11, tables=2, table_size=3)
    _draw, seated = champ.draw(seed=4)
    flight2 = sorted((s for s in seated if s.stage == "flight-2"), key=lambda s: len(s.players))
    assert [len(s.players) for s in flight2] == [2, 3]
    champ.start()
    small, full = flight2
    notes = champ.withdraw(small.players[0])
    moved = full.players[-1]
    assert notes[-1] == f"{NAMES[moved - 1]} moves from Table {full.table} to Table {small.table}."
    assert sorted([len(current_players(champ, "flight-2", s.table)) for s in flight2]) == [2, 2]


def test_during_play_a_table_of_two_is_done(db: str, clock: SimClock) -> None:
    champ = event(db, clock, 5, tables=2, table_size=3)
    _draw, seated = champ.draw(seed=1)
    champ.start()
    small = next(s for s in seated if len(s.players) == 2)
    deal(db, clock, small.game_id)
    notes = champ.withdraw(small.players[1])
    assert notes[1] == f"Qualifying, Table {small.table} has one player left and is done."
    table = next(t for t in champ.snapshot().tables if t.table == small.table)
    assert table.done and table.deals == 1  # the deal played before still counts
    lines = {ln.number: ln for ln in champ.snapshot().qualifying}
    assert lines[small.players[0]].games == 1 and lines[small.players[1]].rank is None


def test_a_finalist_who_leaves_before_the_final_is_replaced_by_the_next(
        db: str, clock: SimClock) -> None:
    champ = event(db, clock, 4, tables=1, finalists=3)
    _draw, seated = champ.draw(seed=2)
    champ.start()
    with CompanionApp.open(db, seated[0].game_id, clock=clock) as app:
        assert app.game is not None
        app.record_round("Ann", points={"Bob": 10, "Cid": 20, "Dan": 30})
    champ.end()
    champ.done(1)
    final = champ.seat_final()
    assert final.players == (1, 2, 3)
    notes = champ.withdraw(2)
    assert notes[1] == "The final is seated again without them."
    again = champ.seat_final()
    assert again.players == (1, 3, 4) and again.game_id != final.game_id
    champ.start()
    deal(db, clock, again.game_id)
    clock.advance(61)
    champ.done(1)
    snap = champ.snapshot()
    assert snap.over and [ln.number for ln in snap.awards.places] == [1, 3, 4]
    assert snap.awards.luckiest is not None and snap.awards.luckiest.number == 4
