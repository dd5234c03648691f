"""A screen left running picks up a game started elsewhere (a terminal, another screen)."""

from __future__ import annotations

from pathlib import Path

from companion.app import CompanionApp


def test_a_following_app_switches_to_a_newer_game(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    screen = CompanionApp.open(db, lang="en")
    screen.follows_newest_game = True
    pinned = CompanionApp.open(db, lang="en")  # opened with --game: stays where it is
    terminal = CompanionApp.open(db, lang="en")
    try:
        assert not screen.refresh() and screen.game is None
        first = terminal.new_game("classic", "winner", ["Ann", "Bob"])
        assert screen.refresh() and screen.game is not None and screen.game.id == first
        pinned.switch_game(first)
        second = terminal.new_game("showdown", "own", ["Cid", "Dan", "Eve"])
        assert screen.refresh() and screen.game is not None and screen.game.id == second
        assert screen.player_names() == ["Cid", "Dan", "Eve"]
        pinned.refresh()
        assert pinned.game is not None and pinned.game.id == first
        assert not screen.refresh()  # nothing new: no switch, one small query
    finally:
        for app in (screen, pinned, terminal):
            app.close()


def test_a_championship_game_is_neither_followed_into_nor_out_of(tmp_path: Path) -> None:
    """In a championship's file the newest game may be another table's: a table there
    moves on with its time box, never to the file's newest game."""
    from companion.scoring import Rules
    from companion.store.games import Store
    from companion.table.game import Game
    from companion.table.timebox import TimeBox

    db = tmp_path / "cup.db"
    store = Store(db)

    def boxed_game(label: str, names: list[str]) -> int:
        game = Game.new("classic", Rules.make("championship", 100), names)
        with store.transaction():
            game_id = store.games.create(game)
            box_id = store.boxes.create(TimeBox(label))
            store.boxes.put_game(box_id, game_id)
        return game_id

    home = CompanionApp.open(db, lang="en")
    home.follows_newest_game = True
    own = home.new_game("classic", "winner", ["Gus", "Hal"])  # a game of its own, no clock
    table_1 = boxed_game("Cup · Table 1", ["Ann", "Bob", "Cid"])  # newer, in a time box
    at_table_1 = CompanionApp.open(db, table_1, lang="en")
    at_table_1.follows_newest_game = True
    try:
        home.refresh()
        assert home.game is not None and home.game.id == own  # not into a table's game
        boxed_game("Cup · Table 2", ["Dan", "Eve", "Fay"])  # another table's, newer still
        at_table_1.refresh()
        assert at_table_1.game is not None and at_table_1.game.id == table_1
    finally:
        home.close()
        at_table_1.close()
        store.close()
