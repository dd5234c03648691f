"""uno-showdown: a Raspberry Pi as the electronics of an UNO Showdown table, its score keeper,
and the organiser's desk of a bar championship.

This package is the thin composition on top of the parts, which sit beside it at the top of
the repository (docs/architecture.md draws them and their arrows; `layers.toml` holds every
import to them):

* `showdown`: the unit's brain and the service that drives it;
* `firmware_host`: the Pico's firmware and the host's side of its wire;
* `hardware`: the units (gpiozero, the Pico on serial, the emulated unit, the fake);
* `companion`: the table's score keeper;
* `championship`: the organiser's side of a bar championship.

Here: the `uno-showdown` command line (`commands`), the desktop window that shows the unit
beside the companion (`window`) and the headless table (`headless`).
"""

from __future__ import annotations

from companion.store import game_watchers

#: typing.TYPE_CHECKING without importing typing, which every command would pay for at start
#: (mypy takes any `TYPE_CHECKING` as true).
TYPE_CHECKING = False
if TYPE_CHECKING:
    import sqlite3

    from companion.table.game import Game

#: The version of uno-showdown, read by the packaging (pyproject.toml) and `--version`.
__version__ = "0.1.0"


def _standings_moved(conn: sqlite3.Connection, game: Game, game_id: int, rewrite: bool) -> None:
    """A game of a file that keeps an event's standings changed: load the championship's
    store, have its own watcher take this one's place (its import does, unless it was
    loaded before this package), and move them."""
    from championship.store import keep_standings, standings_sums

    keep_standings()
    standings_sums.game_changed(conn, game, game_id, rewrite)


# Every process of the composition (each command, the window, the headless table) moves an
# event's standings with every game it writes, even one that loads nothing of the
# championship (`uno-showdown game round` at a championship's table, the score keeper's
# screen): see `companion.store.game_watchers`. Under the championship's own name and table
# (`championship.store.WATCHER`, `standings_sums.SUMS_TABLE`; a test checks they agree), so
# once the championship's store is loaded its watcher replaces this one. Cheap: the
# championship is imported only where a file that keeps sums is written.
game_watchers.watch("championship standings", "championship_game_sums", _standings_moved)
