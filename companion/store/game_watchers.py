"""Who else keeps something worked out from the games in the games file, moved by every
change of a game in the transaction that writes it.

The championship keeps its standings as running sums beside an event's games
(`championship.store.standings_sums`): a deal, a correction or an undo at a championship's
table moves them in the transaction that writes the game, whichever program writes it (a
table's screen, `uno-showdown game round` in a terminal, the director). The companion imports
nothing of the championship, so the championship registers a watcher here instead: the table
whose presence in a file says that the file keeps what the watcher moves, and the function
that moves it. Every change of a game (`companion.store.games.Games._save_tally`) calls,
inside its write transaction and after the game's tally is written, each watcher whose table
the file holds, with the connection, the game as changed, its id and `rewrite` (the change
may have moved points without adding a round: the game is summed again). An error a watcher
raises rolls the whole change back. A file without the table costs one look-up per change
until the table appears (once made it stays).

Who registers, and when: a watcher must be registered before any change of a game in every
process that may write a game of a file that keeps what it moves. So the championship's is
registered twice over, under one name (a second registration replaces the first):

* by the championship itself, when its store's package is imported
  (`championship/store/__init__`): every process that loaded any module of the
  championship's store (the director, a table's agent, the director's screen, the tests
  that make an event) has it;
* by the composition, when `uno_showdown` is imported (`uno_showdown/__init__`): every
  command, the window and the headless table have it, even those that load nothing of the
  championship (`uno-showdown game round` and the score keeper's screen at a championship's
  table); the console script and `python -m uno_showdown` both import that package first.
  Its watcher imports the championship's store the first time it is called, i.e. only in
  a process that writes a file that keeps sums, so the commands typed at a table start as
  fast as before; that import registers the championship's own watcher in its place.

This module itself imports nothing.
"""

from __future__ import annotations

#: typing.TYPE_CHECKING without importing typing: every command imports this module at start
#: (uno_showdown's package does), `--help` too (mypy takes any `TYPE_CHECKING` as true).
TYPE_CHECKING = False
if TYPE_CHECKING:
    import sqlite3
    from collections.abc import Callable

    from companion.table.game import Game

    #: A watcher: (connection in the change's write transaction, the game as changed, its id,
    #: `rewrite`).
    GameChanged = Callable[[sqlite3.Connection, Game, int, bool], None]

#: name -> (the table that marks a file the watcher keeps something in, the watcher)
_WATCHERS: dict[str, tuple[str, GameChanged]] = {}


def watch(name: str, table: str, changed: GameChanged) -> None:
    """Call `changed` at every change of a game in a file that holds `table`. A second
    registration under the same name replaces the first (a module imported again, or
    registered both by its part and by the composition)."""
    _WATCHERS[name] = (table, changed)


def watchers() -> tuple[tuple[str, GameChanged], ...]:
    """The registered watchers as (table, function), in the order they were registered."""
    return tuple(_WATCHERS.values())
