"""A round held out of its game's end (a championship director's hold, told by the table's
agent through `Games.set_held`): it takes nobody to the target, a game it had ended is open
again, and counting it again ends the game once more."""

from __future__ import annotations

from pathlib import Path

from companion.app import CompanionApp
from companion.scoring import Rules
from companion.store.games import Store
from companion.table.game import Game
from companion.table.timebox import State, TimeBox

NAMES = ["Ann", "Bob", "Cid"]


def _table(db: Path) -> int:
    """A championship table's game in an open time box that plays on (target 100)."""
    with Store(db) as store:
        game_id = store.games.create(Game.new("classic", Rules.make("championship", 100), NAMES))
        box_id = store.boxes.create(TimeBox("Cup · Table 1", State.OPEN))
        store.boxes.put_game(box_id, game_id)
    return game_id


def test_holding_the_round_that_ended_a_game_opens_it_and_the_screen_goes_back(
        tmp_path: Path) -> None:
    db = tmp_path / "table.db"
    game_id = _table(db)
    app = CompanionApp.open(db, game_id, lang="en")
    try:
        recorded = app.record_round("Ann", points={"Bob": 150, "Cid": 5})
        nxt = recorded.continued_in
        assert nxt is not None and app.game is not None and app.game.id == nxt
        with Store(db) as store:
            change = store.games.set_held(game_id, frozenset({1}))
            assert (change.was_over, change.over, change.dropped) == (True, False, nxt)
            assert store.games.revision(nxt) is None
            assert store.games.latest_id(unfinished_only=True) == game_id
        app.refresh()
        assert app.game is not None and app.game.id == game_id  # back in the open game
        assert not app.game.verdict.over
        assert all(line.progress < 1 for line in app.game.standings())  # "to target"
        app.record_round("Bob", points={"Ann": 3, "Cid": 4})  # the same game goes on
        assert app.game.id == game_id and len(app.game.rounds) == 2
        with Store(db) as store:
            change = store.games.set_held(game_id, frozenset())  # the director counts it
            assert change.over and change.started is not None
            assert store.games.load(game_id).verdict.over
            box = store.boxes.of_game(game_id)
            assert box is not None and box.current_game_id == change.started
    finally:
        app.close()


def test_a_next_game_with_rounds_stays_the_one_played(tmp_path: Path) -> None:
    db = tmp_path / "table.db"
    game_id = _table(db)
    app = CompanionApp.open(db, game_id, lang="en")
    try:
        nxt = app.record_round("Ann", points={"Bob": 150, "Cid": 5}).continued_in
        app.record_round("Bob", points={"Ann": 3, "Cid": 4})  # played offline, in game 2
        with Store(db) as store:
            change = store.games.set_held(game_id, frozenset({1}))
            assert (change.over, change.dropped, change.plays_on) == (False, None, nxt)
            assert not store.games.load(game_id).verdict.over
            assert len(store.games.load(nxt).rounds) == 1  # its round where it was played
            box = store.boxes.of_game(game_id)
            assert box is not None and box.current_game_id == nxt
    finally:
        app.close()
