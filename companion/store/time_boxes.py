"""The time boxes in the games file: a table playing against a clock that another program
runs (`companion.table.timebox`), and the games it played in it, in order.

Every change to a boxed game asks its box inside the change's own write transaction
(`check_add`, `check_undo`, `check_players`, `check_edit`), so a round is refused when the
box is closed even if the clock was stopped a moment ago by another process. The organiser's
changes (a draw, a clock event) call `create`, `save`, `put_game` and `remove` inside one
transaction of their own, which these methods join.
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.store import wallclock
from companion.store.errors import StoreError
from companion.store.games_file import GamesFile
from companion.table.records import BoxedGame
from showdown.contract.i18n import _

#: typing.TYPE_CHECKING without importing typing, which a `game` command would pay
#: for at start (mypy takes any `TYPE_CHECKING` as true).
TYPE_CHECKING = False
if TYPE_CHECKING:  # the boxes' model is loaded with the first box read: a game without one
    from typing import Any  # (`game show`, `game round` at home) never loads it

    from companion.table.timebox import TimeBox

#: The states of a box whose clock is running or stopped for a moment (`State.OPEN`,
#: `State.PAUSED`), written out so that asking for one loads no model; a test holds them
#: equal.
IN_PLAY_STATES = ("open", "paused")

_BOX_COLUMNS = ("id, label, state, ends_at_us, left_us, grace_rounds, late_rounds, play_on, "
                "fixed_players, next_box_id")


def _box_from_row(row: Sequence[Any]) -> TimeBox:
    from companion.table.timebox import State, TimeBox

    bid, label, state, ends, left, grace, late, play_on, fixed, nxt = row
    return TimeBox(label, State(state), ends, left, grace, late, bool(play_on), bool(fixed),
                   nxt, bid)


class TimeBoxes:
    """The time boxes of one games file."""

    def __init__(self, file: GamesFile) -> None:
        self.file = file

    # -- the organiser's changes --

    def create(self, box: TimeBox) -> int:
        """Insert a box; returns its id."""
        with self.file.transaction() as conn:
            cur = conn.execute(
                "INSERT INTO time_boxes (label, state, ends_at_us, left_us, grace_rounds, "
                "late_rounds, play_on, fixed_players, next_box_id) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (box.label, box.state.value, box.ends_at_us, box.left_us, box.grace_rounds,
                 box.late_rounds, int(box.play_on), int(box.fixed_players), box.next_box_id),
            )
            return int(cur.lastrowid or 0)

    def save(self, box: TimeBox) -> None:
        """Write a changed box (its id set)."""
        assert box.id is not None
        with self.file.transaction() as conn:
            conn.execute(
                "UPDATE time_boxes SET label = ?, state = ?, ends_at_us = ?, left_us = ?, "
                "grace_rounds = ?, late_rounds = ?, play_on = ?, fixed_players = ?, "
                "next_box_id = ? WHERE id = ?",
                (box.label, box.state.value, box.ends_at_us, box.left_us, box.grace_rounds,
                 box.late_rounds, int(box.play_on), int(box.fixed_players), box.next_box_id,
                 box.id),
            )

    def link(self, box_id: int, next_box_id: int | None) -> None:
        """Say which box the table moves on to when this one is over (None: none)."""
        with self.file.transaction() as conn:
            conn.execute("UPDATE time_boxes SET next_box_id = ? WHERE id = ?",
                         (next_box_id, box_id))

    def put_game(self, box_id: int, game_id: int) -> None:
        """Make `game_id` the game the box's table plays now (after the ones before it)."""
        with self.file.transaction() as conn:
            conn.execute(
                "INSERT INTO time_box_games (game_id, box_id, seq) VALUES (?, ?, "
                "(SELECT COALESCE(MAX(seq), 0) + 1 FROM time_box_games WHERE box_id = ?))",
                (game_id, box_id, box_id),
            )

    def remove(self, box_id: int) -> None:
        """Take back a box that never opened, with its games (a draw made again)."""
        with self.file.transaction() as conn:
            boxed = self.load(box_id)
            from companion.table.timebox import State, TimeBoxError  # loaded by `load`

            if boxed.box.state is not State.WAITING:
                raise TimeBoxError(_("{label} has started, so it cannot be taken back").format(
                    label=boxed.box.label))
            conn.execute("UPDATE time_boxes SET next_box_id = NULL WHERE next_box_id = ?",
                         (box_id,))
            for game_id in boxed.game_ids:
                conn.execute("DELETE FROM games WHERE id = ?", (game_id,))
            conn.execute("DELETE FROM time_boxes WHERE id = ?", (box_id,))

    # -- reading --

    def load(self, box_id: int) -> BoxedGame:
        """A box with its games (in the caller's transaction, if there is one)."""
        with self.file.reading() as conn:
            row = conn.execute(f"SELECT {_BOX_COLUMNS} FROM time_boxes WHERE id = ?",
                               (box_id,)).fetchone()
            if row is None:
                raise StoreError(_("there is no time box {id} in {path}").format(
                    id=box_id, path=self.file.path))
            games = tuple(int(g) for (g,) in conn.execute(
                "SELECT game_id FROM time_box_games WHERE box_id = ? ORDER BY seq", (box_id,)))
        return BoxedGame(_box_from_row(row), games[-1] if games else 0, games)

    def load_many(self, box_ids: Sequence[int]) -> dict[int, BoxedGame]:
        """Several boxes with their games, by id, in two statements (in the caller's
        transaction, if there is one): what `load` gives for each, for a reader of every
        table of an event."""
        ids = list(dict.fromkeys(box_ids))
        rows: dict[int, Sequence[Any]] = {}
        games: dict[int, list[int]] = {i: [] for i in ids}
        with self.file.reading() as conn:
            for start in range(0, len(ids), 500):  # SQLite's limit on bound values
                chunk = ids[start:start + 500]
                marks = ",".join("?" * len(chunk))
                rows.update((int(r[0]), r) for r in conn.execute(
                    f"SELECT {_BOX_COLUMNS} FROM time_boxes WHERE id IN ({marks})", chunk))
                for box_id, game_id in conn.execute(
                        "SELECT box_id, game_id FROM time_box_games WHERE box_id IN "
                        f"({marks}) ORDER BY box_id, seq", chunk):
                    games[int(box_id)].append(int(game_id))
        missing = [i for i in ids if i not in rows]
        if missing:
            raise StoreError(_("there is no time box {id} in {path}").format(
                id=missing[0], path=self.file.path))
        return {i: BoxedGame(_box_from_row(rows[i]), games[i][-1] if games[i] else 0,
                             tuple(games[i])) for i in ids}

    def in_play(self) -> int | None:
        """The game a table plays now against a running clock (its box open or paused, the
        newest such box), or None: at a championship's table whose next stage is seated
        already, the stage in progress, not the newest game."""
        with self.file.reading() as conn:
            row = conn.execute("SELECT id FROM time_boxes WHERE state IN (?, ?) ORDER BY id "
                               "DESC LIMIT 1", IN_PLAY_STATES
                               ).fetchone()
            if row is None:
                return None
            return self.load(int(row[0])).current_game_id or None

    def of_game(self, game_id: int) -> BoxedGame | None:
        """The box the game was played in, or None for a game played without a clock."""
        with self.file.reading() as conn:
            row = conn.execute("SELECT box_id FROM time_box_games WHERE game_id = ?",
                               (game_id,)).fetchone()
            return None if row is None else self.load(int(row[0]))

    # -- a boxed game's changes, asked inside the change's transaction --

    def _current(self, game_id: int) -> BoxedGame | None:
        """The game's box, refusing a change to a game the table has since moved on from."""
        boxed = self.of_game(game_id)
        if boxed is not None and boxed.current_game_id != game_id:
            raise boxed.box.moved_on(boxed.current_game_id)
        return boxed

    @staticmethod
    def _now(now_us: int | None) -> int:
        return wallclock.now() if now_us is None else now_us

    def check_add(self, game_id: int, now_us: int | None) -> bool:
        """A round (or a redo) is about to be added: refuse it when the box is closed;
        True if it is late (and counted as such)."""
        with self.file.transaction() as conn:
            boxed = self._current(game_id)
            if boxed is None:
                return False
            late = boxed.box.check_add(self._now(now_us))
            if late:
                conn.execute("UPDATE time_boxes SET late_rounds = late_rounds + 1 WHERE id = ?",
                             (boxed.box.id,))
            return late

    def check_undo(self, game_id: int, now_us: int | None) -> None:
        """A round is about to be undone: refuse it when the box is closed."""
        with self.file.transaction() as conn:
            boxed = self._current(game_id)
            if boxed is not None and boxed.box.check_undo(self._now(now_us)):
                conn.execute("UPDATE time_boxes SET late_rounds = late_rounds - 1 WHERE id = ?",
                             (boxed.box.id,))

    def check_players(self, game_id: int) -> None:
        """The players are about to change (a rename, a late joiner)."""
        boxed = self.of_game(game_id)
        if boxed is not None:
            boxed.box.check_players()

    def check_edit(self, game_id: int) -> None:
        """A round is about to be corrected."""
        boxed = self.of_game(game_id)
        if boxed is not None:
            boxed.box.check_edit()
