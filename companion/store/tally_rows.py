"""A game's running sums in the games file (`companion.table.game.Tally`), kept beside the
game so that a round is added to it, and the game opened, without reading every round.

The sums are rows: one in `tally_sums` for the game (its rounds, next dealer, whether the
sums end it by its method, and the newest round's loser), and one in `tally_entries` for each
entrant in each of the tally's mappings, in the mapping's order. They were a JSON text once
(`tallies`, the games' step 6): reading and writing that text took the `json` module, whose
import compiles its regular expressions, and that was a twentieth of what `uno-showdown game
round` costs to start on a Pi-class CPU; these rows are written by the statements SQLite
already runs for the round itself.

The rows are derived, and trusted only at the game's revision they were written for: a game
changed since by a program that did not write them, or whose rows are damaged, is read whole
instead (`companion.store.games.Games.load`), and gets its rows again at its next change.

A part of its own (`schema`), made by the first tally this program writes, in that write's
transaction (`schema.make_beside`): an older program still opens the file (it knows nothing
of these tables, and reads whole a game whose sums it does not find), one from before
`schema_parts` too, as the file's `user_version` stays what it reads. The JSON text an
older program kept is not read (such a game is read whole once); it is removed when the
game's rows are written, and the games list still reads its "over" until then
(`companion.store.game_list`).
"""

from __future__ import annotations

import sqlite3
from types import MappingProxyType

from companion.scoring.base import RoundScore
from companion.store import schema
from companion.store.games_schema import _newer
from companion.table.game import Tally

#: typing.TYPE_CHECKING without importing typing, which a `game` command would pay
#: for at start (mypy takes any `TYPE_CHECKING` as true).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Collection, Mapping

_V1 = """
CREATE TABLE tally_sums (
    game_id INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
    revision INTEGER NOT NULL,
    rounds INTEGER NOT NULL,
    dealer TEXT NOT NULL,
    over INTEGER NOT NULL CHECK (over IN (0, 1)),
    scored INTEGER NOT NULL CHECK (scored IN (0, 1)),
    loser TEXT
);
CREATE TABLE tally_entries (
    game_id INTEGER NOT NULL REFERENCES tally_sums(game_id) ON DELETE CASCADE,
    sums TEXT NOT NULL,
    seq INTEGER NOT NULL,
    entrant TEXT NOT NULL,
    value INTEGER NOT NULL,
    PRIMARY KEY (game_id, sums, seq)
);
"""

#: The tally's mappings, by the name their rows carry in `tally_entries.sums`: the running
#: totals, wins and losses, and the newest round's points and hand values (`scored`).
SUMS = ("totals", "wins", "losses", "points", "hand_values")


def _made(conn: sqlite3.Connection) -> int:
    return int(schema.has_table(conn, "tally_sums"))


#: The tallies' tables.
PART = schema.register(schema.Part("tally", (_V1,), _made, _newer))


def read(conn: sqlite3.Connection, game_id: int, revision: int, entrants: Collection[str],
         players: Collection[str]) -> Tally | None:
    """The game's tally as kept for `revision`; None where none is kept for it (never
    written, written for another revision) or what is kept is not a tally of this game, whose
    `entrants` each have a total, wins and losses and whose dealer is one of its `players`
    (rows edited by hand, damaged): the caller reads the rounds instead. In the caller's read
    transaction."""
    try:
        row = conn.execute("SELECT revision, rounds, dealer, scored, loser FROM tally_sums "
                           "WHERE game_id = ?", (game_id,)).fetchone()
    except sqlite3.OperationalError:  # no such table: this program never wrote to the file
        return None
    if row is None or row[0] != revision:
        return None
    _revision, rounds, dealer, scored, loser = row
    sums: dict[str, dict[str, int]] = {name: {} for name in SUMS}
    try:
        entries = conn.execute("SELECT sums, entrant, value FROM tally_entries "
                               "WHERE game_id = ? ORDER BY sums, seq", (game_id,)).fetchall()
    except sqlite3.OperationalError:  # the table gone or changed by hand
        return None
    for name, entrant, value in entries:
        mapping = sums.get(name)
        if mapping is None or type(entrant) is not str or type(value) is not int:
            return None
        mapping[entrant] = value
    if type(rounds) is not int or rounds < 0 or dealer not in players or scored not in (
            0, 1) or not (loser is None or loser in players):
        return None
    if not set(sums["totals"]) == set(sums["wins"]) == set(sums["losses"]) == set(entrants):
        return None
    if not (set(sums["points"]) <= set(entrants) and set(sums["hand_values"]) <= set(players)):
        return None
    totals, wins, losses, points, hand_values = (MappingProxyType(sums[n]) for n in SUMS)
    score = RoundScore(points, loser, hand_values) if scored else None
    if score is None and (points or hand_values or loser is not None):
        return None
    return Tally(rounds, totals, wins, losses, dealer, score)


def write(file: schema.File, conn: sqlite3.Connection, game_id: int, revision: int,
          tally: Tally, over: bool) -> None:
    """Keep `tally` as the game's at `revision`, with whether it ends the game (`over`), in
    the caller's write transaction; the part's tables are made the first time."""
    try:
        _write(conn, game_id, revision, tally, over)
    except sqlite3.OperationalError as exc:
        if "no such table" not in str(exc):
            raise
        schema.make_beside(file, conn, PART)  # in the caller's transaction: with the round
        _write(conn, game_id, revision, tally, over)


def _write(conn: sqlite3.Connection, game_id: int, revision: int, tally: Tally,
           over: bool) -> None:
    score = tally.last_score
    row = (revision, tally.rounds, tally.dealer, int(over), int(score is not None),
           None if score is None else score.loser, game_id)
    # an UPDATE, else an INSERT: statements of kinds a round runs anyway, where an upsert
    # would have SQLite compile one more (a few milliseconds under emulation)
    if conn.execute("UPDATE tally_sums SET revision = ?, rounds = ?, dealer = ?, over = ?, "
                    "scored = ?, loser = ? WHERE game_id = ?", row).rowcount == 0:
        conn.execute("INSERT INTO tally_sums (revision, rounds, dealer, over, scored, loser, "
                     "game_id) VALUES (?, ?, ?, ?, ?, ?, ?)", row)
    conn.execute("DELETE FROM tally_entries WHERE game_id = ?", (game_id,))
    mappings: tuple[Mapping[str, int], ...] = (tally.totals, tally.wins, tally.losses)
    if score is not None:
        mappings += (score.points, score.hand_values)
    conn.executemany(
        "INSERT INTO tally_entries (game_id, sums, seq, entrant, value) VALUES (?, ?, ?, ?, ?)",
        [(game_id, name, seq, entrant, value)
         for name, mapping in zip(SUMS, mappings, strict=False)
         for seq, (entrant, value) in enumerate(mapping.items())])
    # an older program's JSON text of the sums (see the module's docstring): superseded
    conn.execute("DELETE FROM tallies WHERE game_id = ?", (game_id,))
