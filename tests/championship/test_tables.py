"""A table's screen follows its table through the championship: from its flight 1 game to
its flight 2 game once that flight starts, and table 1 on to the final."""

from __future__ import annotations

from championship.core.settings import make
from championship.desk.operations import Championship
from companion.app import CompanionApp
from companion.table.timebox import Phase
from tests.championship.conftest import SimClock

NAMES = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy"]


def test_a_tables_screen_moves_on_with_its_table(db: str, clock: SimClock) -> None:
    champ = Championship.open(db, clock=clock)
    champ.new_event("Cup", make(tables=1, finalists=4))
    champ.register(NAMES)
    _draw, seated = champ.draw(seed=8)
    first, second = seated
    screen = CompanionApp.open(db, first.game_id, clock=clock)  # as `companion --game` does
    champ.start()
    screen.refresh()
    assert screen.game is not None and screen.game.id == first.game_id
    screen.record_round(screen.game.names[0], points={n: 5 for n in screen.game.names[1:]})
    champ.end()
    champ.done(1)
    screen.refresh()
    boxed = screen.time_box()
    assert boxed is not None and boxed.box.phase(clock()) is Phase.DONE
    assert screen.game.id == first.game_id  # flight 2 has not started: it stays
    champ.start()
    assert screen.refresh()
    assert screen.game.id == second.game_id and "Flight 2" in screen.time_box().box.label
    screen.record_round(screen.game.names[0], points={n: 7 for n in screen.game.names[1:]})
    champ.end()
    champ.done(1)
    final = champ.seat_final()
    screen.refresh()
    assert screen.game.id == second.game_id  # the final is seated, not started
    champ.start()
    screen.refresh()
    assert screen.game.id == final.game_id and screen.time_box().box.label == "Cup · Final"
    # a screen opened on the first game of the evening goes straight to where the table is
    late = CompanionApp.open(db, first.game_id, clock=clock)
    assert late.game is not None and late.game.id == final.game_id
    late.close()
    screen.close()
