"""The championship's part of the games file: the event's tables (`event_store`), the
standings' kept sums (`standings_sums`), a table's outbox of deals (`table_file`) and the
director's ledger of the sync (`ledger`).

Loading any of them registers the standings' watcher with the games file (`keep_standings`),
so that every change of an event's game moves the event's standings, whoever writes it."""

from __future__ import annotations

from championship.store import standings_sums
from companion.store import game_watchers

#: The name the standings' watcher is registered under (`companion.store.game_watchers`):
#: the composition registers one of its own under it, which imports this package the first
#: time a file that keeps sums is written (`uno_showdown/__init__`).
WATCHER = "championship standings"


def keep_standings() -> None:
    """Have every change of a game in this process move the standings of the event it
    belongs to, in the transaction that writes it (`standings_sums.game_changed`). Done
    when this package is imported: every process that loaded any module of the
    championship's store (the director, a table's agent, the director's screen, the tests
    that make an event) has it. Calling it again changes nothing."""
    game_watchers.watch(WATCHER, standings_sums.SUMS_TABLE, standings_sums.game_changed)


keep_standings()
