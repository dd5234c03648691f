"""The games and their rounds in the games file, and `Store`: the file with its repositories.

Nothing entered is lost: `append_round` returns only after its transaction is committed
(`companion.store.games_file`), and a round is written whole or not at all (one transaction
holds the round and all its hands).

Several writers may hold one game (the screen, `uno-showdown game` in a terminal, the
emulator): each keeps the game in memory. Every game carries a revision that each change
moves on by one, and a change is written only over the revision it was made from; a change
made from a stale copy raises `GameChangedError` and writes nothing, so it never deletes or
overwrites what another writer saved. Only undone rounds are ever dropped by a new round.

The store keeps what the game model holds (players, rounds as entered, the redo stack) and
rebuilds a `Game` from it; points are derived, never stored. A game in a time box
(`companion.store.time_boxes`) asks its box inside each change's transaction; a game that
ends inside a box that plays on is followed, in the same transaction, by the table's next
game.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping, Sequence
from types import MappingProxyType

from companion.deck.cards import Card, format_cards, parse_card, parse_cards
from companion.scoring import Rules
from companion.store import game_watchers, held_rounds, schema, tally_rows
from companion.store.duel_rows import Duels, player_ids
from companion.store.errors import GameChangedError, StoreError
from companion.store.games_file import GamesFile
from companion.store.time_boxes import TimeBoxes
from companion.table.game import Game, Hand, LazyRounds, Player, Round
from companion.table.records import DuelRow, GameInfo, Recorded
from showdown.contract.errors import CompanionError
from showdown.contract.i18n import _
from showdown.contract.record import field, record, replace

#: typing.TYPE_CHECKING without importing typing, which a `game` command would pay
#: for at start (mypy takes any `TYPE_CHECKING` as true).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from os import PathLike
    from typing import Any

#: SQLite's integers are signed 64-bit: a game id beyond this cannot be in any file.
_MAX_ROW_ID = 2**63 - 1

#: Rounds n and n + 1 of a game, and whether each is undone: two neighbours on the rounds'
#: (game, number) index. A range, not `IN (n, n + 1)`, which SQLite runs through a table of
#: its own that nothing else a round does needs (under a Pi-class CPU's emulation, 13 M
#: instructions of `game round`'s 3,400 M).
_TWO_ROUNDS = ("SELECT number, undone FROM rounds WHERE game_id = ? AND number BETWEEN ? "
               "AND ?")


@record
class _StoredRound:
    """A round as read back, before it becomes the model's `Round` (its hands and places are
    filled in as their rows are read)."""

    number: int
    winner: str
    played_at: str
    undone: bool
    out_on: Card | None
    showdown_out: bool = False
    hands: dict[str, Hand] = field(default_factory=dict)
    places: dict[int, str] = field(default_factory=dict)


@record
class HeldChange:
    """What holding or counting again a game's rounds did (`Games.set_held`): whether the
    game was over before and is now; `dropped`, the table's next game that was taken back
    (it had no round yet: the table plays the reopened game again); `plays_on`, the table's
    next game that stays the one played (it has rounds: the reopened game is left open);
    `started`, the next game begun because the game is over again."""

    game_id: int
    was_over: bool
    over: bool
    dropped: int | None = None
    plays_on: int | None = None
    started: int | None = None


class Games:
    """The games of one games file, with their players and rounds."""

    def __init__(self, file: GamesFile, boxes: TimeBoxes, duels: Duels) -> None:
        self.file, self.boxes, self.duels = file, boxes, duels
        self._watched: set[str] = set()  # the watchers' tables the file holds (_save_tally)

    # -- games --

    def create(self, game: Game, duels: Sequence[DuelRow] = (), *,
               game_id: int | None = None) -> int:
        """Insert a whole game (new, or imported with its rounds and duels) in one transaction.

        The duels' names must be the game's players (`transfer` checks an imported file).
        `game_id`, when given and free in this file, is the game's number (a championship's
        table numbers its games as the director does); otherwise the next one is.
        """
        with self.file.transaction() as conn:
            if game_id is not None and conn.execute("SELECT 1 FROM games WHERE id = ?",
                                                    (game_id,)).fetchone() is not None:
                game_id = None
            return self._insert(conn, game, duels, game_id)

    def _insert(self, conn: sqlite3.Connection, game: Game, duels: Sequence[DuelRow],
                game_id: int | None = None) -> int:
        cur = conn.execute(
            "INSERT INTO games (id, edition, method, target, modifiers, created_at, revision, "
            "reversed_round) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (game_id, game.edition_key, game.rules.method.key, game.rules.target,
             ",".join(game.rules.modifiers), game.created_at, game.revision,
             game.reversed_round),
        )
        game_id = int(cur.lastrowid or 0)
        ids: dict[str, int] = {}
        for seat, p in enumerate(game.players):
            ids[p.name] = int(conn.execute(
                "INSERT INTO players (game_id, name, seat, joined_round, team, deals_first) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (game_id, p.name, seat, p.joined_round, p.team,
                 int(p.name == game.first_dealer)),
            ).lastrowid or 0)
        if game.house_rules:  # their tables load only for a game that plays by some
            from companion.table.house_rules import stored

            conn.executemany("INSERT INTO house_rules (game_id, rule) VALUES (?, ?)",
                             [(game_id, key) for key in stored(game.house_rules)])
        for number, rnd in enumerate(game.rounds, 1):
            self._insert_round(conn, game_id, ids, number, rnd, undone=False)
        for offset, rnd in enumerate(reversed(game.undone), 1):
            self._insert_round(conn, game_id, ids, len(game.rounds) + offset, rnd, undone=True)
        self.duels.copy(game_id, duels)
        self._save_tally(conn, game, game_id)
        return game_id

    def ids(self) -> list[int]:
        with self.file.reading() as conn:
            return [r[0] for r in conn.execute("SELECT id FROM games ORDER BY id")]

    def revision(self, game_id: int) -> int | None:
        """The game's revision in the file (None if it is gone): cheap enough to poll."""
        with self.file.reading() as conn:
            row = conn.execute("SELECT revision FROM games WHERE id = ?", (game_id,)).fetchone()
        return None if row is None else int(row[0])

    def latest_id(self, unfinished_only: bool = False) -> int | None:
        """The most recently created game (with `unfinished_only`, the latest not yet over)."""
        with self.file.reading() as conn:
            rows = conn.execute("SELECT id FROM games ORDER BY id DESC").fetchall()
            for (game_id,) in rows:
                if not unfinished_only or not self.load(game_id, lazy=True).verdict.over:
                    return int(game_id)
        return None

    def infos(self) -> list[GameInfo]:
        """What `game list` shows of every game, oldest first (`companion.store.game_list`:
        no game is read whole)."""
        from companion.store import game_list  # `game list`'s own: no other command pays

        return game_list.infos(self.file)

    def load(self, game_id: int, *, lazy: bool = False) -> Game:
        """The game as the file holds it, read in one read transaction.

        With `lazy`, the rounds already played are read only if something looks at them:
        the game comes with its tally (standings, dealer, whether it is over), so a round
        can be added to a long game at the cost of a short one. A file whose tally is
        missing or older than the game (written by an older uno-showdown) is read whole.
        """
        with self.file.reading() as conn:
            row = None
            if isinstance(game_id, int) and -_MAX_ROW_ID <= game_id <= _MAX_ROW_ID:
                row = conn.execute(
                    "SELECT edition, method, target, modifiers, created_at, revision, "
                    "reversed_round FROM games WHERE id = ?", (game_id,),
                ).fetchone()
            if row is None:
                raise StoreError(
                    _("there is no game {id} in {path}: see `uno-showdown game list`").format(
                        id=game_id, path=self.file.path
                    )
                )
            try:
                return self._build(conn, game_id, row, lazy)
            except StoreError:
                raise
            except (CompanionError, KeyError, IndexError, TypeError, ValueError, AttributeError
                    ) as exc:  # a row another program wrote: never a traceback
                raise StoreError(
                    _("game {id} in {path} is damaged ({reason}): restore the file from a "
                      "copy, or choose another with --db").format(
                        id=game_id, path=self.file.path, reason=exc)
                ) from exc

    def _build(self, conn: sqlite3.Connection, game_id: int, row: tuple[Any, ...],
               lazy: bool) -> Game:
        """The game of `row` (its line in `games`) with its players and rounds; in a read."""
        edition, method, target, modifiers, created, revision, reversed_round = row
        rules = Rules.make(method, target, [m for m in modifiers.split(",") if m], stored=True)
        chosen = frozenset(r for (r,) in conn.execute(
            "SELECT rule FROM house_rules WHERE game_id = ?", (game_id,)))
        players = []
        names: dict[int, str] = {}
        first_dealer: str | None = None
        for pid, name, joined, team, deals_first in conn.execute(
            "SELECT id, name, joined_round, team, deals_first FROM players WHERE game_id = ? "
            "ORDER BY seat", (game_id,),
        ):
            players.append(Player(name, joined, team))
            names[pid] = name
            if deals_first:
                first_dealer = name
        seat_of = {p.name: i for i, p in enumerate(players)}
        undone = self._read_rounds(conn, game_id, names, seat_of, undone=True)
        tally = tally_rows.read(conn, game_id, revision, [
            e.name for e in rules.method.entrants(players)], seat_of) if lazy else None
        rounds: Sequence[Round]
        if tally is not None and self._live_rounds_are(conn, game_id, tally.rounds):
            count = tally.rounds

            def read_played() -> list[Round]:
                """The rounds that were in the file when the game was opened."""
                with self.file.reading() as now:  # the rounds and their hands as one state
                    return self._read_rounds(now, game_id, names, seat_of, undone=False,
                                             upto=count)

            last = self._read_rounds(conn, game_id, names, seat_of, undone=False, upto=count,
                                     since=count)
            rounds = LazyRounds(count, read_played, last=last[-1] if last else None)
        else:
            rounds = tuple(self._read_rounds(conn, game_id, names, seat_of, undone=False))
            tally = None
        game = Game(
            edition, rules, tuple(players), rounds, tuple(reversed(undone)),
            id=game_id, created_at=created, revision=revision, house_rules=chosen,
            first_dealer=first_dealer, reversed_round=reversed_round,
            held=held_rounds.held_of(conn, game_id),
        )
        if tally is not None:
            game.__dict__["tally"] = tally
        return game

    @staticmethod
    def _read_rounds(conn: sqlite3.Connection, game_id: int, names: Mapping[int, str],
                     seat_of: Mapping[str, int], *, undone: bool, upto: int | None = None,
                     since: int = 1) -> list[Round]:
        """The game's rounds in play (or its undone ones), oldest first: numbers `since` to
        `upto` (all by default)."""
        rounds: dict[int, _StoredRound] = {}
        which = "undone = 1" if undone else "undone = 0"  # literal: the undone rounds' index
        if upto is not None:
            which += f" AND number BETWEEN {int(since)} AND {int(upto)}"
        for rid, number, winner_id, played_at, out_on, showdown_out in conn.execute(
            "SELECT id, number, winner_id, played_at, out_on, showdown_out FROM rounds "
            f"WHERE game_id = ? AND {which} ORDER BY number", (game_id,),
        ):
            rounds[rid] = _StoredRound(number, names[winner_id], played_at, undone,
                                       parse_card(out_on) if out_on is not None else None,
                                       bool(showdown_out))
        if not rounds:  # none (a game's undone rounds, mostly): their hands need no look-up
            return []
        for rid, pid, cards, counted in conn.execute(
            "SELECT h.round_id, h.player_id, h.cards, h.counted FROM hands h "
            f"JOIN rounds r ON r.id = h.round_id WHERE r.game_id = ? AND r.{which}",
            (game_id,),
        ):
            hand = Hand(cards=parse_cards(cards)) if cards is not None else Hand(counted=counted)
            rounds[rid].hands[names[pid]] = hand
        for rid, pid, place in conn.execute(
            "SELECT p.round_id, p.player_id, p.place FROM places p "
            f"JOIN rounds r ON r.id = p.round_id WHERE r.game_id = ? AND r.{which}",
            (game_id,),
        ):
            rounds[rid].places[place] = names[pid]
        out: list[Round] = []
        for entry in sorted(rounds.values(), key=lambda e: e.number):
            ordered = dict(sorted(entry.hands.items(), key=lambda kv: seat_of[kv[0]]))
            out.append(Round(entry.winner, MappingProxyType(ordered), entry.played_at,
                             tuple(entry.places[k] for k in sorted(entry.places)),
                             entry.out_on, entry.showdown_out))
        return out

    @staticmethod
    def _live_rounds_are(conn: sqlite3.Connection, game_id: int, count: int) -> bool:
        """Rounds 1..count are in play and count + 1 is not (one short range of the rounds'
        index, however long the game)."""
        live = dict(conn.execute(_TWO_ROUNDS, (game_id, count, count + 1)).fetchall())
        return live.get(count + 1) != 0 and (count == 0 or live.get(count) == 0)

    def _save_tally(self, conn: sqlite3.Connection, game: Game, game_id: int | None = None,
                    *, rewrite: bool = True) -> None:
        """Keep the game's tally beside it (`tally_rows`), for the revision the change moves
        it to, with whether its method says it is over (which the games list reads:
        `companion.store.game_list`); and call, in the same transaction, every watcher
        whose table the file holds (`game_watchers`: for a game played at a championship's
        table, the event's standings, `championship.store.standings_sums`). `rewrite`: the
        change may have moved points without adding a round (an undo, a correction), so the
        game is summed again."""
        game_id = game.id if game_id is None else game_id
        assert game_id is not None
        tally_rows.write(self.file, conn, game_id, game.revision, game.tally,
                         game.verdict.over)
        for table, changed in game_watchers.watchers():
            if table not in self._watched:  # once a file holds the table it always does
                if conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND "
                                "name = ?", (table,)).fetchone() is None:
                    continue
                self._watched.add(table)
            changed(conn, game, game_id, rewrite)

    # -- rounds --

    @staticmethod
    def _insert_round(
        conn: sqlite3.Connection, game_id: int, ids: Mapping[str, int], number: int,
        rnd: Round, *, undone: bool,
    ) -> None:
        rid = conn.execute(
            "INSERT INTO rounds (game_id, number, winner_id, undone, played_at, out_on, "
            "showdown_out) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (game_id, number, ids[rnd.winner], int(undone), rnd.played_at,
             rnd.out_on.code if rnd.out_on is not None else None, int(rnd.showdown_out)),
        ).lastrowid
        conn.executemany(
            "INSERT INTO places (round_id, player_id, place) VALUES (?, ?, ?)",
            [(rid, ids[name], place) for place, name in enumerate(rnd.order, 1)],
        )
        conn.executemany(
            "INSERT INTO hands (round_id, player_id, cards, counted) VALUES (?, ?, ?, ?)",
            [
                (rid, ids[name],
                 format_cards(h.cards) if h.cards is not None else None,
                 h.counted if h.cards is None else None)
                for name, h in rnd.hands.items()
            ],
        )

    def _advance(self, conn: sqlite3.Connection, game: Game, live_rounds: int) -> bool:
        """Move the file's game to `game.revision`, or refuse: first thing in a change.

        The change was made from revision `game.revision - 1`; if the file holds another
        revision, or not `live_rounds` rounds in play, someone else changed the game since it
        was loaded, and writing now would overwrite their work. Returns whether undone
        rounds follow the live ones.
        """
        assert game.id is not None
        moved = conn.execute(
            "UPDATE games SET revision = ? WHERE id = ? AND revision = ?",
            (game.revision, game.id, game.revision - 1),
        ).rowcount
        # Live rounds are numbers 1..n, undone ones follow: n is right when round n is live
        # and round n + 1 is not (one short range of the rounds' index, however long the game).
        live = dict(conn.execute(_TWO_ROUNDS, (game.id, live_rounds, live_rounds + 1)).fetchall())
        if (moved != 1 or live.get(live_rounds + 1) == 0
                or (live_rounds and live.get(live_rounds) != 0)):
            raise GameChangedError(
                _("game {id} was changed elsewhere and has been reloaded: check it and enter "
                  "your change again").format(id=game.id)
            )
        return live_rounds + 1 in live

    def append_round(self, game: Game, *, now_us: int | None = None,
                     successor: Game | None = None) -> Recorded:
        """Persist `game`'s last round (just added by the model); drops the undone rounds.

        Returns after the commit: the round is on disk. Raises `GameChangedError` (writing
        nothing) if the game in the file is not the one the round was added to, and
        `TimeBoxError` if the game's time box does not take a round at `now_us` (wall-clock
        microseconds). When the round ends the game inside a box that plays on, `successor`
        (the same table's next game) is created in the same transaction.
        """
        assert game.id is not None
        number = len(game.rounds)
        with self.file.transaction() as conn:
            undone = self._advance(conn, game, number - 1)
            late = self.boxes.check_add(game.id, now_us)
            if undone:  # a new round drops them (nothing to drop is nothing to compile)
                conn.execute("DELETE FROM rounds WHERE game_id = ? AND number >= ? AND "
                             "undone = 1", (game.id, number))
            self._insert_round(conn, game.id, player_ids(conn, game.id), number,
                               game.rounds[-1], undone=False)
            self._save_tally(conn, game, rewrite=False)  # carried over by the model
            return Recorded(late, self._play_on(conn, game, late, successor))

    def set_round_count(self, game: Game, was: int, *, now_us: int | None = None,
                        successor: Game | None = None) -> Recorded:
        """Persist an undo or a redo: rounds up to `len(game.rounds)` are live, the rest undone.

        `was` is how many rounds were live before (the file must still hold that many). In a
        time box an undo or redo is checked like a round (`TimeBoxError`); a redo that ends
        the game plays on in `successor`, as `append_round` does.
        """
        assert game.id is not None
        with self.file.transaction() as conn:
            self._advance(conn, game, was)
            late = False
            if len(game.rounds) > was:
                late = self.boxes.check_add(game.id, now_us)
            else:
                self.boxes.check_undo(game.id, now_us)
            conn.execute(
                "UPDATE rounds SET undone = (number > ?) WHERE game_id = ?",
                (len(game.rounds), game.id),
            )
            self._save_tally(conn, game)
            if len(game.rounds) > was:
                return Recorded(late, self._play_on(conn, game, late, successor))
            return Recorded()

    def replace_round(self, game: Game, number: int) -> None:
        """Persist an edit of round `number` (1-based)."""
        assert game.id is not None
        rnd = game.rounds[number - 1]
        with self.file.transaction() as conn:
            self._advance(conn, game, len(game.rounds))
            self.boxes.check_edit(game.id)
            conn.execute(
                "DELETE FROM rounds WHERE game_id = ? AND number = ?", (game.id, number)
            )
            self._insert_round(conn, game.id, player_ids(conn, game.id), number, rnd,
                               undone=False)
            self._save_tally(conn, game)

    def rename_player(self, game: Game, old: str, new: str) -> None:
        """Persist a rename (`game` is the renamed game, `old` the name in the file)."""
        assert game.id is not None
        with self.file.transaction() as conn:
            self._advance(conn, game, len(game.rounds))
            self.boxes.check_players(game.id)
            conn.execute(
                "UPDATE players SET name = ? WHERE game_id = ? AND name = ?", (new, game.id, old)
            )
            self._save_tally(conn, game)

    def save_table(self, game: Game) -> None:
        """Persist the table's state: the direction of the round in play, who dealt first."""
        assert game.id is not None
        with self.file.transaction() as conn:
            self._advance(conn, game, len(game.rounds))
            conn.execute("UPDATE games SET reversed_round = ? WHERE id = ?",
                         (game.reversed_round, game.id))
            conn.execute(
                "UPDATE players SET deals_first = COALESCE(name = ?, 0) WHERE game_id = ?",
                (game.first_dealer, game.id))
            self._save_tally(conn, game, rewrite=False)

    def save_players(self, game: Game) -> None:
        """Persist a late joiner: seats renumbered, the new player inserted, undone rounds gone."""
        assert game.id is not None
        with self.file.transaction() as conn:
            self._advance(conn, game, len(game.rounds))
            self.boxes.check_players(game.id)
            conn.execute("DELETE FROM rounds WHERE game_id = ? AND undone = 1", (game.id,))
            ids = player_ids(conn, game.id)
            conn.execute("UPDATE players SET seat = -1 - seat WHERE game_id = ?", (game.id,))
            for seat, p in enumerate(game.players):
                if p.name in ids:
                    conn.execute("UPDATE players SET seat = ? WHERE id = ?", (seat, ids[p.name]))
                else:
                    conn.execute(
                        "INSERT INTO players (game_id, name, seat, joined_round, team) "
                        "VALUES (?, ?, ?, ?, ?)",
                        (game.id, p.name, seat, p.joined_round, p.team),
                    )
            self._save_tally(conn, game)

    def set_held(self, game_id: int, numbers: frozenset[int], created_at: str = ""
                 ) -> HeldChange:
        """Make `numbers` the rounds of `game_id` held out of its end (`Game.held`), in one
        transaction, and keep the table's time box in step with whether the game is over:

        * a game that ended only by a round now held is open again; the table's next game,
          begun when it ended, is taken back if it has no round, no undone round and no duel
          yet (the table plays on in the reopened game), else it stays the game played and
          the reopened one is left open (`plays_on`: its rounds are not moved, the
          director already has them under that game);
        * a game over again (a round counts again) that is still the box's game, in a box
          that plays on and is not finished, is followed by its next game, as a round that
          ends it is (`append_round`).

        The game's revision moves on, so every screen holding it reads it again."""
        schema.migrate(self.file, held_rounds.PART)
        with self.file.transaction() as conn:
            game = self.load(game_id)
            held = frozenset(numbers)
            if held == game.held:
                return HeldChange(game_id, game.verdict.over, game.verdict.over)
            new = replace(game, held=held, revision=game.revision + 1)
            conn.execute("UPDATE games SET revision = ? WHERE id = ?", (new.revision, game_id))
            held_rounds.write(conn, game_id, held)
            self._save_tally(conn, new, rewrite=False)  # the points are as they were
            change = HeldChange(game_id, game.verdict.over, new.verdict.over)
            boxed = self.boxes.of_game(game_id)
            if boxed is None or change.was_over == change.over:
                return change
            later = boxed.game_ids[boxed.game_ids.index(game_id) + 1:]
            if change.was_over and later:
                nxt = later[0]
                untouched = len(later) == 1 and conn.execute(
                    "SELECT (SELECT COUNT(*) FROM rounds WHERE game_id = ?) + "
                    "(SELECT COUNT(*) FROM duels WHERE game_id = ?)", (nxt, nxt)
                ).fetchone()[0] == 0
                if untouched:
                    conn.execute("DELETE FROM games WHERE id = ?", (nxt,))
                    return replace(change, dropped=nxt)
                return replace(change, plays_on=boxed.current_game_id)
            from companion.table.timebox import State  # loaded with `boxed`

            if (change.over and boxed.current_game_id == game_id and boxed.box.play_on
                    and boxed.box.state not in (State.FINISHED, State.SEALED)):
                new_id = self._insert(conn, new.next_game(created_at), ())
                self.boxes.put_game(boxed.box.id or 0, new_id)
                return replace(change, started=new_id)
            return change

    def _play_on(self, conn: sqlite3.Connection, game: Game, late: bool,
                 successor: Game | None) -> int | None:
        """Start the table's next game when `game` just ended inside a box that plays on."""
        assert game.id is not None
        if late or successor is None or not game.verdict.over:
            return None
        boxed = self.boxes.of_game(game.id)
        if boxed is None or not boxed.box.play_on:
            return None
        new_id = self._insert(conn, successor, ())
        self.boxes.put_game(boxed.box.id or 0, new_id)
        return new_id


class Store(GamesFile):
    """One SQLite games file and its repositories: `games` (games and rounds), `boxes`
    (time boxes) and `duels`; use from one thread at a time."""

    def __init__(self, path: str | PathLike[str] | None = None, *,
                 busy_timeout_s: float = 10.0) -> None:
        """`busy_timeout_s`: how long a write waits for another program's lock on the file
        before it gives up with `StoreBusyError`."""
        super().__init__(path, busy_timeout_s=busy_timeout_s)
        self.boxes = TimeBoxes(self)
        self.duels = Duels(self)
        self.games = Games(self, self.boxes, self.duels)
