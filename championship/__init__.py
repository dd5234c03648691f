"""The organiser's side of a bar championship (the regulation in seed 000).

* `core`: pure: settings, the seat draw, the stage clocks, standings across tables, the
  final, the awards and the wire messages between director and tables;
* `store`: the event's part of the games file, the standings' sums, a table's outbox and the
  director's ledger;
* `broker`: the MQTT broker (paho-mqtt, the embedded amqtt) and its credentials;
* `desk`: the operations on an event, the director's and the tables' side of the sync,
  `event serve`, the results sheet and the table cards;
* `screen` and `web`: the director's touch screen and the players' live page.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.store import game_watchers

if TYPE_CHECKING:
    import sqlite3

    from companion.table.game import Game

#: The table that says a games file keeps an event's standings as sums (schema 4 of the
#: championship's tables): `championship.store.standings_sums.SUMS_TABLE`, written again
#: here so that registering the watcher imports nothing (a test checks they agree).
SUMS_TABLE = "championship_game_sums"


def _game_changed(conn: sqlite3.Connection, game: Game, game_id: int, rewrite: bool) -> None:
    """A game of a file that keeps sums changed: move the event's standings (if the game is
    an event's). The sums' module is imported here, the first time such a file is written,
    so registering the watcher costs a process that never writes one nothing."""
    from championship.store import standings_sums

    standings_sums.game_changed(conn, game, game_id, rewrite)


def keep_standings() -> None:
    """Have every change of a game in this process move the standings of the event it
    belongs to, in the transaction that writes it (`companion.store.game_watchers`).

    Called here, when the championship is first imported (every process that loaded any of
    its modules: the director, a table's agent, the screens), and by the composition when
    `uno_showdown` is imported (every command and screen, even `uno-showdown game round`,
    which imports nothing of the championship). Calling it again changes nothing."""
    game_watchers.watch("championship standings", SUMS_TABLE, _game_changed)


keep_standings()
