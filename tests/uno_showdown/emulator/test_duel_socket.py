"""`uno-showdown duel` against an open emulator window: the desktop does what the Pi does.

The window answers the duel socket (`uno_showdown.window.duel_door`): a duel named from a terminal
is seated in the duel bar and loaded on the unit, the timer button starts it, and the
verdict is credited to the named players, as on a headless Pi table.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest

from companion.app import CompanionApp
from showdown.contract.events import DuelLoaded, Side
from tests.uno_showdown.emulator.conftest import COUNTDOWN_US, Table, make_table
from uno_showdown.commands.duel import register, request_for
from uno_showdown.headless.duel_socket import ask, open_server
from uno_showdown.window.duel_door import WindowDuelDoor


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[Table, Path, CompanionApp]]:
    app = CompanionApp.open(tmp_path / "games.db", lang="en")
    app.new_game("showdown", "winner", ["Ann", "Bob", "Cid"])
    table = make_table(app=app)
    table.service.add_listener(app.on_service_event)  # as `uno-showdown emulator` does
    table.window.door = WindowDuelDoor(table.window)
    path = tmp_path / "duel.sock"
    server = open_server(path, table.window.door.request)
    yield table, path, app
    server.close()
    table.window.close()
    pygame.display.quit()
    app.close()


def duel(table: Table, path: Path, *argv: str) -> dict[str, str]:
    """`uno-showdown duel ARGV` from a terminal, while the window keeps turning."""
    import argparse

    sub = argparse.ArgumentParser().add_subparsers()
    register(sub)
    request = request_for(sub.choices["duel"].parse_args(list(argv)))
    replies: list[dict[str, str]] = []
    asking = threading.Thread(target=lambda: replies.append(ask(path, request)))
    asking.start()
    while asking.is_alive():
        table.turn(1_000)
        asking.join(0.01)
    table.turn()
    return replies[0]


def test_a_duel_named_from_a_terminal_is_loaded_and_credited(served) -> None:
    table, path, app = served
    reply = duel(table, path, "Ann", "Cid", "--cards", "2")
    assert reply["ok"].startswith("next duel: Ann (left paddle) and Cid (right paddle), 2 cards")
    [loaded] = [e for e in table.heard if isinstance(e, DuelLoaded)]
    assert dict(loaded.players) == {Side.LEFT: "Ann", Side.RIGHT: "Cid"} and loaded.cards == 2
    assert table.window.chooser.name(Side.RIGHT) == "Cid"  # the bar shows who plays
    table.key(pygame.K_SPACE)
    table.turn()
    table.run_for(COUNTDOWN_US + 200_000)
    table.key(pygame.K_l, up=False)
    table.run_for(400_000)
    (verdict,) = table.verdicts()
    assert verdict.result.winner is Side.RIGHT and dict(verdict.players)[Side.RIGHT] == "Cid"
    assert not table.service.flush_listeners(5.0) and app.flush_duels(5.0)
    app.refresh()
    [row] = app.duels()
    assert (row.winner, row.loser, row.cards) == ("Cid", "Ann", 2)


def test_a_showdown_card_played_by_a_player_faces_the_next_one(served) -> None:
    table, path, _app = served
    reply = duel(table, path, "--played-by", "Bob", "--cards", "3")
    assert "Bob (left paddle) and Cid (right paddle), 3 cards" in reply["ok"], reply
    assert any(isinstance(e, DuelLoaded) and e.cards == 3 for e in table.heard)


def test_a_name_not_at_the_table_is_refused_in_one_sentence(served) -> None:
    table, path, _app = served
    reply = duel(table, path, "Ann", "Zed")
    assert "error" in reply and "Zed" in reply["error"]
    assert not any(isinstance(e, DuelLoaded) for e in table.heard)
