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
