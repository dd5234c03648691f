"""The rounds a game holds out of its end (`companion.table.game.Game.held`), in the games
file: a part of its own (`schema`), made only in a file that ever held a round, so a score
keeper's file gains nothing and an older program still opens one that never did.

Who holds a round: a championship's director (a deal held or voided), told to the table by
its agent, which writes it here through `Games.set_held`; the score keeper itself never
holds one.
"""

from __future__ import annotations

import sqlite3

from companion.store import schema
from companion.store.games_schema import _newer

_V1 = """
CREATE TABLE held_rounds (
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    number INTEGER NOT NULL,
    PRIMARY KEY (game_id, number)
);
"""


def _made(conn: sqlite3.Connection) -> int:
    return int(schema.has_table(conn, "held_rounds"))


#: The held rounds' table.
PART = schema.register(schema.Part("held rounds", (_V1,), _made, _newer))


def held_of(conn: sqlite3.Connection, game_id: int) -> frozenset[int]:
    """The numbers of the rounds `game_id` holds (none in a file without the table)."""
    try:
        return frozenset(int(n) for (n,) in conn.execute(
            "SELECT number FROM held_rounds WHERE game_id = ?", (game_id,)))
    except sqlite3.OperationalError:  # no such table: the file never held a round
        return frozenset()


def write(conn: sqlite3.Connection, game_id: int, numbers: frozenset[int]) -> None:
    """Make `numbers` the rounds `game_id` holds (the table exists: `schema.migrate`)."""
    conn.execute("DELETE FROM held_rounds WHERE game_id = ?", (game_id,))
    conn.executemany("INSERT INTO held_rounds (game_id, number) VALUES (?, ?)",
                     [(game_id, n) for n in sorted(numbers)])
