"""The duels in the games file: each verdict of a showdown, by the game's players.

A duel is written when its verdict is given and completed later (the reaction times, a
contest, a launch that never came), so every write moves the game's duel counter on
(`DuelRow.changed`): a screen reads only what changed since it last looked. A duel taken
from the duel log carries its `log_key`, so taking it twice stores it once.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from types import MappingProxyType

from companion.store.errors import StoreError
from companion.store.games_file import GamesFile
from companion.table.names import name_key
from companion.table.records import DuelRow
from showdown.contract.i18n import _

_COLUMNS = (
    "id, after_round, challenger_id, opponent_id, cards, outcome, winner_id, loser_id, "
    "challenger_reaction_us, opponent_reaction_us, recorded_at, contested, log_key, changed"
)


def player_ids(conn: sqlite3.Connection, game_id: int) -> dict[str, int]:
    """The game's players' row ids by name (the rows duels and rounds point to)."""
    return {name: pid for pid, name in conn.execute(
        "SELECT id, name FROM players WHERE game_id = ?", (game_id,))}


class Duels:
    """The duels of one games file."""

    def __init__(self, file: GamesFile) -> None:
        self.file = file

    # -- writing --

    def add(
        self, game_id: int, after_round: int, challenger: str, opponent: str, cards: int,
        outcome: str, winner: str | None, loser: str | None,
        challenger_reaction_us: int | None, opponent_reaction_us: int | None, recorded_at: str,
        *, contested: bool = False, log_key: str | None = None,
    ) -> int:
        """Store a duel; returns its id. O(1) in the duels already stored.

        With a `log_key` already stored for this game, nothing is written and the stored
        duel's id is returned: recording the same duel twice is harmless.
        """
        with self.file.transaction() as conn:
            if log_key is not None:
                row = conn.execute("SELECT id FROM duels WHERE game_id = ? AND log_key = ?",
                                   (game_id, log_key)).fetchone()
                if row is not None:
                    return int(row[0])
            return self._insert(
                conn, game_id, after_round, challenger, opponent, cards, outcome, winner, loser,
                challenger_reaction_us, opponent_reaction_us, recorded_at,
                contested=contested, log_key=log_key,
            )

    def copy(self, game_id: int, duels: Iterable[DuelRow]) -> None:
        """Store the duels of an imported game as they are (`transfer` checked them)."""
        with self.file.transaction() as conn:
            for d in duels:
                self._insert(
                    conn, game_id, d.after_round, d.challenger, d.opponent, d.cards, d.outcome,
                    d.winner, d.loser, d.reaction_us.get(d.challenger),
                    d.reaction_us.get(d.opponent), d.recorded_at, contested=d.contested,
                    log_key=d.log_key,
                )

    def _insert(
        self, conn: sqlite3.Connection, game_id: int, after_round: int, challenger: str,
        opponent: str, cards: int, outcome: str, winner: str | None, loser: str | None,
        challenger_reaction_us: int | None, opponent_reaction_us: int | None, recorded_at: str,
        *, contested: bool = False, log_key: str | None = None,
    ) -> int:
        ids = {name_key(k): v for k, v in player_ids(conn, game_id).items()}
        missing = [n for n in (challenger, opponent) if name_key(n) not in ids]
        if missing:
            raise StoreError(
                _("there is no player {name!r} in this game: the players are {names}").format(
                    name=missing[0], names=", ".join(player_ids(conn, game_id))
                )
            )
        challenger, opponent = name_key(challenger), name_key(opponent)
        winner, loser = name_key(winner or ""), name_key(loser or "")
        cur = conn.execute(
            "INSERT INTO duels (game_id, after_round, challenger_id, opponent_id, cards, "
            "outcome, winner_id, loser_id, challenger_reaction_us, opponent_reaction_us, "
            "recorded_at, contested, log_key, changed) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (game_id, after_round, ids[challenger], ids[opponent], cards, outcome,
             ids.get(winner), ids.get(loser), challenger_reaction_us,
             opponent_reaction_us, recorded_at, int(contested), log_key,
             self._next_change(conn, game_id)),
        )
        return int(cur.lastrowid or 0)

    @staticmethod
    def _next_change(conn: sqlite3.Connection, game_id: int) -> int:
        """The next number of the game's duel-write counter (one index look-up)."""
        row = conn.execute("SELECT MAX(changed) FROM duels WHERE game_id = ?",
                           (game_id,)).fetchone()
        return int(row[0] or 0) + 1

    def set_reactions(self, duel_id: int, challenger_us: int | None,
                      opponent_us: int | None) -> None:
        """Complete a duel's reaction times (known only once the slower press is in)."""
        with self.file.transaction() as conn:
            self._touch(conn, duel_id)
            conn.execute(
                "UPDATE duels SET challenger_reaction_us = COALESCE(?, challenger_reaction_us), "
                "opponent_reaction_us = COALESCE(?, opponent_reaction_us) WHERE id = ?",
                (challenger_us, opponent_us, duel_id),
            )

    def set_contested(self, duel_id: int) -> None:
        """Mark a duel contested: a late press would have changed its verdict."""
        with self.file.transaction() as conn:
            self._touch(conn, duel_id)
            conn.execute("UPDATE duels SET contested = 1 WHERE id = ?", (duel_id,))

    def set_launch_failed(self, duel_id: int) -> None:
        """The unit never confirmed the duel's launch: it ends as launch failed, and nobody
        is credited a win or the cards (the reaction times stay: the presses happened)."""
        from showdown.contract.events import Outcome  # the event types: only for a duel

        with self.file.transaction() as conn:
            self._touch(conn, duel_id)
            conn.execute("UPDATE duels SET outcome = ?, winner_id = NULL, loser_id = NULL "
                         "WHERE id = ?", (Outcome.LAUNCH_FAILED.value, duel_id))

    def _touch(self, conn: sqlite3.Connection, duel_id: int) -> None:
        row = conn.execute("SELECT game_id FROM duels WHERE id = ?", (duel_id,)).fetchone()
        if row is not None:
            conn.execute("UPDATE duels SET changed = ? WHERE id = ?",
                         (self._next_change(conn, int(row[0])), duel_id))

    # -- reading --

    def _rows(self, conn: sqlite3.Connection, where: str, params: tuple[object, ...],
              game_id: int) -> list[DuelRow]:
        names = {pid: name for name, pid in player_ids(conn, game_id).items()}
        out = []
        for row in conn.execute(
            f"SELECT {_COLUMNS} FROM duels WHERE {where} ORDER BY id", params,
        ):
            did, after, ch, op, cards, outcome, win, lose, ch_us, op_us, at, cont, key, chg = row
            out.append(DuelRow(
                did, after, names[ch], names[op], cards, outcome, names.get(win),
                names.get(lose), MappingProxyType({names[ch]: ch_us, names[op]: op_us}), at,
                bool(cont), key, chg, game_id,
            ))
        return out

    def of_game(self, game_id: int) -> list[DuelRow]:
        """Every duel of the game, oldest first."""
        with self.file.reading() as conn:
            return self._rows(conn, "game_id = ?", (game_id,), game_id)

    def changes(self, game_id: int, since: int) -> list[DuelRow]:
        """The game's duels written after change number `since` (see `DuelRow.changed`):
        a screen that keeps the duels it has seen reads only these."""
        with self.file.reading() as conn:
            return self._rows(conn, "game_id = ? AND changed > ?", (game_id, since), game_id)

    def with_key(self, game_id: int, log_key: str) -> int | None:
        """The id of the game's duel taken from the duel log as `log_key`, if stored."""
        with self.file.reading() as conn:
            row = conn.execute("SELECT id FROM duels WHERE game_id = ? AND log_key = ?",
                               (game_id, log_key)).fetchone()
        return None if row is None else int(row[0])

    def get(self, duel_id: int) -> DuelRow | None:
        """One stored duel by id (None if there is none)."""
        with self.file.reading() as conn:
            row = conn.execute("SELECT game_id FROM duels WHERE id = ?", (duel_id,)).fetchone()
            if row is None:
                return None
            rows = self._rows(conn, "id = ?", (duel_id,), int(row[0]))
        return rows[0] if rows else None
