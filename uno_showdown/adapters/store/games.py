"""The games on disk: SQLite with WAL, foreign keys and one transaction per change.

Nothing entered is lost: `append_round` returns only after its transaction is committed with
`synchronous=FULL`, so a round the screen or the CLI shows as saved survives a kill -9 or a
power cut, and a round is written whole or not at all (one transaction holds the round and
all its hands). A transaction that cannot commit (disk full, file locked) is rolled back and
reported as a `StoreError`, so the next change starts clean.

Several writers may hold one game (the screen, `uno-showdown game` in a terminal, the
emulator): each keeps the game in memory. Every game carries a revision that each change
moves on by one, and a change is written only over the revision it was made from; a change
made from a stale copy raises `GameChangedError` and writes nothing, so it never deletes or
overwrites what another writer saved. Only undone rounds are ever dropped by a new round.

The store keeps what the game model holds (players, rounds as entered, the redo stack) and
rebuilds a `Game` from it; points are derived, never stored. The schema carries a version;
`MIGRATIONS` brings an older file up to date when it is opened.

A game may sit in a time box (`core.table.timebox`): a table playing against a clock that
another program runs. Every change to such a game reads the box inside its own write
transaction and asks it first, so a round is refused when the box is closed even if the
clock was stopped a moment ago by another process; a game that ends inside the box is
followed, in the same transaction, by the game the table plays on in.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import json
import sqlite3
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, TypeVar

import platformdirs

from uno_showdown.adapters.store import wallclock
from uno_showdown.contract.errors import CompanionError
from uno_showdown.contract.events import Outcome
from uno_showdown.contract.i18n import _
from uno_showdown.core.deck.cards import Card, format_cards, parse_card, parse_cards
from uno_showdown.core.scoring import Rules
from uno_showdown.core.table import house_rules as house
from uno_showdown.core.table.game import Game, Hand, LazyRounds, Player, Round, Tally
from uno_showdown.core.table.names import name_key
from uno_showdown.core.table.records import BoxedGame, DuelRow, GameInfo, Recorded
from uno_showdown.core.table.timebox import State, TimeBox, TimeBoxError

APP_NAME = "uno-showdown"
DB_NAME = "games.sqlite3"
F = TypeVar("F", bound=Callable[..., Any])


class StoreError(CompanionError):
    """The store cannot be opened or does not hold what was asked for."""


class GameChangedError(StoreError):
    """The game in the file moved on since this copy was loaded (another screen or the CLI)."""


def _short(path: Path) -> str:
    """A path as a one-line message shows it: at most 200 characters."""
    text = str(path)
    return text if len(text) <= 200 else text[:100] + "…" + text[-99:]
class StoreBusyError(StoreError):
    """The file cannot be written just now (locked by another program, disk full, I/O):
    the same change may well succeed later, unlike a change the data refuses."""


def default_db_path() -> Path:
    """The games file in the user's data directory (e.g. ~/.local/share/uno-showdown)."""
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False)) / DB_NAME


_V1 = """
CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    edition TEXT NOT NULL,
    method TEXT NOT NULL,
    target INTEGER,
    modifiers TEXT NOT NULL DEFAULT '',
    created_at TEXT NOT NULL
);
CREATE TABLE players (
    id INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    seat INTEGER NOT NULL,
    joined_round INTEGER NOT NULL DEFAULT 0,
    team INTEGER,
    UNIQUE (game_id, name)
);
CREATE TABLE rounds (
    id INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    number INTEGER NOT NULL,
    winner_id INTEGER NOT NULL REFERENCES players(id),
    undone INTEGER NOT NULL DEFAULT 0,
    played_at TEXT NOT NULL,
    UNIQUE (game_id, number)
);
CREATE TABLE hands (
    round_id INTEGER NOT NULL REFERENCES rounds(id) ON DELETE CASCADE,
    player_id INTEGER NOT NULL REFERENCES players(id) ON DELETE CASCADE,
    cards TEXT,
    counted INTEGER,
    PRIMARY KEY (round_id, player_id),
    CHECK ((cards IS NULL) <> (counted IS NULL))
);
"""

_V2 = """
CREATE TABLE duels (
    id INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    after_round INTEGER NOT NULL,
    challenger_id INTEGER NOT NULL REFERENCES players(id) ON DELETE CASCADE,
    opponent_id INTEGER NOT NULL REFERENCES players(id) ON DELETE CASCADE,
    cards INTEGER NOT NULL,
    outcome TEXT NOT NULL,
    winner_id INTEGER REFERENCES players(id) ON DELETE CASCADE,
    loser_id INTEGER REFERENCES players(id) ON DELETE CASCADE,
    challenger_reaction_us INTEGER,
    opponent_reaction_us INTEGER,
    recorded_at TEXT NOT NULL
);
CREATE INDEX duels_by_game ON duels (game_id);
"""

_V3 = """
ALTER TABLE games ADD COLUMN revision INTEGER NOT NULL DEFAULT 0;
"""

# What the scoring variants record (seed 001): the card a round's winner went out on (H2O),
# and each player's place in a round's finishing order (playing to the last player).
_V4 = """
ALTER TABLE rounds ADD COLUMN out_on TEXT;
CREATE TABLE places (
    round_id INTEGER NOT NULL REFERENCES rounds(id) ON DELETE CASCADE,
    player_id INTEGER NOT NULL REFERENCES players(id) ON DELETE CASCADE,
    place INTEGER NOT NULL,
    PRIMARY KEY (round_id, player_id),
    UNIQUE (round_id, place)
);
"""

_V5 = """
CREATE TABLE time_boxes (
    id INTEGER PRIMARY KEY,
    label TEXT NOT NULL,
    state TEXT NOT NULL
        CHECK (state IN ('waiting', 'open', 'paused', 'finished', 'sealed')),
    ends_at_us INTEGER,
    left_us INTEGER,
    grace_rounds INTEGER NOT NULL DEFAULT 1 CHECK (grace_rounds >= 0),
    late_rounds INTEGER NOT NULL DEFAULT 0 CHECK (late_rounds >= 0),
    play_on INTEGER NOT NULL DEFAULT 1,
    fixed_players INTEGER NOT NULL DEFAULT 1,
    next_box_id INTEGER REFERENCES time_boxes(id) ON DELETE SET NULL
);
CREATE TABLE time_box_games (
    game_id INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
    box_id INTEGER NOT NULL REFERENCES time_boxes(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    UNIQUE (box_id, seq)
);
"""

# `changed` numbers each game's duel writes, so a screen reads only what is new since it
# last looked; `log_key` names the duel in the duel log (its number there and the instant
# of its verdict), so taking duels back from the log never records one twice. `tallies`
# keeps each game's running sums (`core.table.game.Tally`) for the revision they are of:
# derived, and trusted only at that revision, so a round is added without reading them all.
_V6 = """
ALTER TABLE duels ADD COLUMN contested INTEGER NOT NULL DEFAULT 0;
ALTER TABLE duels ADD COLUMN changed INTEGER NOT NULL DEFAULT 0;
ALTER TABLE duels ADD COLUMN log_key TEXT;
UPDATE duels SET changed = id;
CREATE INDEX duels_by_change ON duels (game_id, changed);
CREATE UNIQUE INDEX duels_by_log_key ON duels (game_id, log_key) WHERE log_key IS NOT NULL;
CREATE INDEX rounds_undone ON rounds (game_id, number) WHERE undone = 1;
CREATE TABLE tallies (
    game_id INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
    revision INTEGER NOT NULL,
    state TEXT NOT NULL
);
"""

# The table's helpers: the house rules a game plays by, who dealt first (by the highest-card
# draw or by hand), the round whose play goes counter-clockwise after a Reverse, and a round
# won by going out on a showdown card (and winning its duel).
_V7 = """
CREATE TABLE house_rules (
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    rule TEXT NOT NULL,
    PRIMARY KEY (game_id, rule)
);
ALTER TABLE games ADD COLUMN reversed_round INTEGER;
ALTER TABLE players ADD COLUMN deals_first INTEGER NOT NULL DEFAULT 0;
ALTER TABLE rounds ADD COLUMN showdown_out INTEGER NOT NULL DEFAULT 0;
"""

#: Schema scripts in order: MIGRATIONS[i] takes a file from version i to version i + 1.
MIGRATIONS: tuple[str, ...] = (_V1, _V2, _V3, _V4, _V5, _V6, _V7)
#: SQLite's integers are signed 64-bit: a game id beyond this cannot be in any file.
_MAX_ROW_ID = 2**63 - 1
SCHEMA_VERSION = len(MIGRATIONS)


@dataclass(slots=True)
class _StoredRound:
    """A round as read back, before it becomes the model's `Round`."""

    number: int
    winner: str
    played_at: str
    undone: bool
    out_on: Card | None
    showdown_out: bool = False
    hands: dict[str, Hand] = field(default_factory=dict)
    places: dict[int, str] = field(default_factory=dict)


_BOX_COLUMNS = ("id, label, state, ends_at_us, left_us, grace_rounds, late_rounds, play_on, "
                "fixed_players, next_box_id")


def _box_from_row(row: Sequence[Any]) -> TimeBox:
    bid, label, state, ends, left, grace, late, play_on, fixed, nxt = row
    return TimeBox(label, State(state), ends, left, grace, late, bool(play_on), bool(fixed),
                   nxt, bid)


def _reads(method: F) -> F:
    """Run a read in one read transaction (`Store.reading`): all its queries see one state."""

    @functools.wraps(method)
    def wrapper(self: Store, *args: Any, **kwargs: Any) -> Any:
        with self.reading():
            return method(self, *args, **kwargs)

    return wrapper  # type: ignore[return-value]


@functools.cache
def _schema(version: int) -> dict[str, frozenset[str]]:
    """The tables and columns a games file of schema `version` holds, from `MIGRATIONS` itself."""
    conn = sqlite3.connect(":memory:")
    try:
        for script in MIGRATIONS[:version]:
            conn.executescript(script)
        tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        return {t: frozenset(r[1] for r in conn.execute(f"PRAGMA table_info({t})"))
                for t in tables}
    finally:
        conn.close()


def _read_only_text() -> str:
    return _("cannot open the games file {path} for writing ({reason}): make the file "
             "and its folder writable, or choose another with --db")


#: SQLite's primary result codes (sqlite3.h) that say why a file cannot be the games file:
#: READONLY, PERM, CANTOPEN and AUTH (not ours to write), BUSY and LOCKED (held by another
#: program), FULL (no space).
_READ_ONLY = frozenset({8, 3, 14, 23})
_BUSY = frozenset({5, 6})
_FULL = 13


class Store:
    """One SQLite file holding many games; use from one thread at a time."""

    def __init__(self, path: str | Path | None = None, *, busy_timeout_s: float = 10.0) -> None:
        """`busy_timeout_s`: how long a write waits for another program's lock on the file
        before it gives up with `StoreBusyError`."""
        self.path = Path(path) if path is not None else default_db_path()
        # The service thread records duels while the screen thread records rounds.
        self.lock = threading.RLock()
        self._keeps_sums = False  # the file holds a championship's standings (see _save_tally)
        try:
            if self.path.is_dir():
                raise StoreError(
                    _("{path} is a folder, not a games file: give a file name with --db").format(
                        path=self.path)
                )
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.conn = sqlite3.connect(
                self.path, isolation_level=None, timeout=busy_timeout_s,
                check_same_thread=False
            )
        except sqlite3.Error as exc:
            raise self._unusable(exc) from exc
        except (OSError, ValueError) as exc:  # ValueError: a NUL in the path
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
            if isinstance(exc, OSError) and exc.errno in (errno.EACCES, errno.EPERM,
                                                          errno.EROFS):
                raise StoreError(_read_only_text().format(path=_short(self.path),
                                                          reason=reason)) from exc
            raise StoreError(
                _("cannot open the games file {path}: {reason}; choose another with --db").format(
                    path=_short(self.path), reason=reason
                )
            ) from exc
        try:
            self.conn.execute("PRAGMA foreign_keys = ON")
            self._refuse_foreign_database()
            self.conn.execute("PRAGMA journal_mode = WAL")
            self.conn.execute("PRAGMA synchronous = FULL")
            self._migrate()
        except (sqlite3.Error, StoreError) as exc:
            self.conn.close()
            cause = exc.__cause__ if isinstance(exc, StoreError) else exc
            if isinstance(cause, sqlite3.Error):  # a migration's write failed: say why
                raise self._unusable(cause) from exc
            raise

    def _unusable(self, exc: sqlite3.Error) -> StoreError:
        """Why the file cannot be the games file, told apart by SQLite's error code."""
        code = (getattr(exc, "sqlite_errorcode", None) or 0) & 0xFF  # extended -> primary
        if code in _READ_ONLY:
            text = _read_only_text()
        elif code in _BUSY:
            text = _("the games file {path} is locked by another program ({reason}): close "
                     "it and try again, or choose another with --db")
        elif code == _FULL:
            text = _("cannot write the games file {path} ({reason}): free some disk space, "
                     "or choose another with --db")
        else:
            text = _("{path} is not a games file ({reason}): choose another with --db")
        return StoreError(text.format(path=self.path, reason=exc))

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction, taken before reading so that writers queue, not fail.

        Whatever goes wrong inside, COMMIT included (a full disk, a deferred constraint), the
        transaction is rolled back before the error leaves: otherwise the connection would stay
        inside it and every later BEGIN would fail. SQLite's own errors become a `StoreError`.
        """
        with self.lock:
            try:
                self.conn.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as exc:
                raise self._cannot_save(exc) from exc
            try:
                yield self.conn
                self.conn.execute("COMMIT")
            except BaseException as exc:
                self._roll_back()
                if isinstance(exc, (sqlite3.Error, OverflowError)):
                    raise self._cannot_save(exc) from exc
                raise

    @contextmanager
    def reading(self) -> Iterator[sqlite3.Connection]:
        """One read transaction: every query inside sees the same committed state of the file.

        Without it, a game read in several queries (the game, its players, its rounds, their
        hands) while another program commits could pair rounds of one state with players of
        another. In WAL mode the snapshot costs nothing and blocks no writer. Nested reads,
        and reads inside a write, share the transaction already open. SQLite's errors (a
        damaged file, a table gone) become a one-sentence `StoreError`.
        """
        with self.lock:
            own = not self.conn.in_transaction
            try:
                if own:
                    self.conn.execute("BEGIN")
                yield self.conn
            except sqlite3.Error as exc:
                raise StoreError(
                    _("cannot read the games file {path} ({reason}): check the file, or "
                      "choose another with --db").format(path=self.path, reason=exc)
                ) from exc
            finally:
                if own:
                    self._roll_back()

    def _roll_back(self) -> None:
        """End the open transaction, if SQLite has not already ended it itself."""
        if self.conn.in_transaction:
            # a failing ROLLBACK says less than the error being reported, which goes on
            with contextlib.suppress(sqlite3.Error):
                self.conn.execute("ROLLBACK")

    def _cannot_save(self, exc: BaseException) -> StoreError:
        kind = StoreBusyError if isinstance(exc, sqlite3.OperationalError) else StoreError
        return kind(
            _("cannot save to {path}: {reason}; nothing was changed, so try again").format(
                path=self.path, reason=exc
            )
        )

    # -- schema --

    def schema_version(self) -> int:
        return int(self.conn.execute("PRAGMA user_version").fetchone()[0])

    def _refuse_foreign_database(self) -> None:
        """A database of another program is left alone: tables without a schema version, or
        a version whose tables and columns are not there (a file that only says it is ours).

        Checked before any migration, so a foreign file is never changed.
        """
        version = self.schema_version()
        if version > SCHEMA_VERSION:
            return  # refused by `_migrate`, with its own message
        found = {
            name: frozenset(r[1] for r in self.conn.execute(
                "PRAGMA table_info(\"{}\")".format(name.replace('"', '""'))))
            for (name,) in self.conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
        }
        reason = None
        if version == 0 and found:
            reason = _("it holds another program's tables")
        for table, columns in _schema(version).items():
            if reason is None and not columns <= found.get(table, frozenset()):
                reason = _("its table {table} is missing or incomplete").format(table=table)
        if reason is not None:
            raise StoreError(
                _("{path} is not a games file ({reason}): choose another with --db").format(
                    path=self.path, reason=reason
                )
            )

    def _migrate(self) -> None:
        version = self.schema_version()
        if version > SCHEMA_VERSION:
            raise StoreError(
                _("{path} was written by a newer uno-showdown (schema {found}): "
                  "update uno-showdown to open it").format(path=self.path, found=version)
            )
        for step in range(version, SCHEMA_VERSION):
            with self.transaction() as conn:
                for statement in MIGRATIONS[step].split(";"):
                    if statement.strip():
                        conn.execute(statement)
                conn.execute(f"PRAGMA user_version = {step + 1}")

    # -- games --

    def create_game(self, game: Game, duels: Sequence[DuelRow] = ()) -> int:
        """Insert a whole game (new, or imported with its rounds and duels) in one transaction.

        The duels' names must be the game's players (`transfer` checks an imported file).
        """
        with self.transaction() as conn:
            return self.insert_game(conn, game, duels)

    def insert_game(self, conn: sqlite3.Connection, game: Game,
                    duels: Sequence[DuelRow] = ()) -> int:
        """`create_game` inside a transaction the caller holds (several changes as one)."""
        cur = conn.execute(
            "INSERT INTO games (edition, method, target, modifiers, created_at, revision, "
            "reversed_round) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (game.edition_key, game.rules.method.key, game.rules.target,
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
        conn.executemany(
            "INSERT INTO house_rules (game_id, rule) VALUES (?, ?)",
            [(game_id, key) for key in house.ordered(game.house_rules)],
        )
        for number, rnd in enumerate(game.rounds, 1):
            self._insert_round(conn, game_id, ids, number, rnd, undone=False)
        for offset, rnd in enumerate(reversed(game.undone), 1):
            self._insert_round(conn, game_id, ids, len(game.rounds) + offset, rnd, undone=True)
        for d in duels:
            self._insert_duel(
                conn, game_id, d.after_round, d.challenger, d.opponent, d.cards, d.outcome,
                d.winner, d.loser, d.reaction_us.get(d.challenger),
                d.reaction_us.get(d.opponent), d.recorded_at, contested=d.contested,
                log_key=d.log_key,
            )
        self._save_tally(conn, game, game_id)
        return game_id

    @_reads
    def game_ids(self) -> list[int]:
        return [r[0] for r in self.conn.execute("SELECT id FROM games ORDER BY id")]

    def data_version(self) -> int:
        """Changes whenever another connection (another program) commits to the file. It is
        polled, so it is one statement: it needs no read transaction of its own."""
        with self.lock:
            try:
                return int(self.conn.execute("PRAGMA data_version").fetchone()[0])
            except sqlite3.Error as exc:
                raise StoreError(
                    _("cannot read the games file {path} ({reason}): check the file, or "
                      "choose another with --db").format(path=self.path, reason=exc)
                ) from exc

    @_reads
    def game_revision(self, game_id: int) -> int | None:
        """The game's revision in the file (None if it is gone): cheap enough to poll."""
        row = self.conn.execute("SELECT revision FROM games WHERE id = ?", (game_id,)).fetchone()
        return None if row is None else int(row[0])

    @_reads
    def latest_game_id(self, unfinished_only: bool = False) -> int | None:
        """The most recently created game (with `unfinished_only`, the latest not yet over)."""
        rows = self.conn.execute("SELECT id FROM games ORDER BY id DESC").fetchall()
        for (game_id,) in rows:
            if not unfinished_only or not self.load_game(game_id, lazy=True).verdict.over:
                return int(game_id)
        return None

    @_reads
    def list_games(self) -> list[GameInfo]:
        out = []
        for gid, edition, method, created in self.conn.execute(
            "SELECT id, edition, method, created_at FROM games ORDER BY id"
        ).fetchall():
            names = tuple(
                r[0] for r in self.conn.execute(
                    "SELECT name FROM players WHERE game_id = ? ORDER BY seat", (gid,)
                )
            )
            count, last = self.conn.execute(
                "SELECT COUNT(*), MAX(played_at) FROM rounds WHERE game_id = ? AND undone = 0",
                (gid,),
            ).fetchone()
            out.append(GameInfo(gid, edition, method, names, count, created, last or created))
        return out

    @_reads
    def load_game(self, game_id: int, *, lazy: bool = False) -> Game:
        """The game as the file holds it, read in one read transaction.

        With `lazy`, the rounds already played are read only if something looks at them:
        the game comes with its tally (standings, dealer, whether it is over), so a round
        can be added to a long game at the cost of a short one. A file whose tally is
        missing or older than the game (written by an older uno-showdown) is read whole.
        """
        row = None
        if isinstance(game_id, int) and -_MAX_ROW_ID <= game_id <= _MAX_ROW_ID:
            row = self.conn.execute(
                "SELECT edition, method, target, modifiers, created_at, revision, "
                "reversed_round FROM games WHERE id = ?", (game_id,),
            ).fetchone()
        if row is None:
            raise StoreError(
                _("there is no game {id} in {path}: see `uno-showdown game list`").format(
                    id=game_id, path=self.path
                )
            )
        try:
            return self._build_game(game_id, row, lazy)
        except StoreError:
            raise
        except (CompanionError, KeyError, IndexError, TypeError, ValueError, AttributeError
                ) as exc:  # a row another program wrote: never a traceback
            raise StoreError(
                _("game {id} in {path} is damaged ({reason}): restore the file from a copy, or "
                  "choose another with --db").format(id=game_id, path=self.path, reason=exc)
            ) from exc

    def _build_game(self, game_id: int, row: tuple[Any, ...], lazy: bool) -> Game:
        """The game of `row` (its line in `games`) with its players and rounds; in a read."""
        edition, method, target, modifiers, created, revision, reversed_round = row
        rules = Rules.make(method, target, [m for m in modifiers.split(",") if m], stored=True)
        chosen = frozenset(r for (r,) in self.conn.execute(
            "SELECT rule FROM house_rules WHERE game_id = ?", (game_id,)))
        players = []
        names: dict[int, str] = {}
        first_dealer: str | None = None
        for pid, name, joined, team, deals_first in self.conn.execute(
            "SELECT id, name, joined_round, team, deals_first FROM players WHERE game_id = ? "
            "ORDER BY seat", (game_id,),
        ):
            players.append(Player(name, joined, team))
            names[pid] = name
            if deals_first:
                first_dealer = name
        seat_of = {p.name: i for i, p in enumerate(players)}
        undone = self._read_rounds(game_id, names, seat_of, undone=True)
        tally = self._tally(game_id, revision) if lazy else None
        rounds: Sequence[Round]
        if tally is not None and self._live_rounds_are(game_id, tally.rounds):
            count = tally.rounds

            def read_played() -> list[Round]:
                """The rounds that were in the file when the game was opened."""
                with self.reading():  # the rounds and their hands as one committed state
                    return self._read_rounds(game_id, names, seat_of, undone=False, upto=count)

            last = self._read_rounds(game_id, names, seat_of, undone=False, upto=count,
                                     since=count)
            rounds = LazyRounds(count, read_played, last=last[-1] if last else None)
        else:
            rounds = tuple(self._read_rounds(game_id, names, seat_of, undone=False))
            tally = None
        game = Game(
            edition, rules, tuple(players), rounds, tuple(reversed(undone)),
            id=game_id, created_at=created, revision=revision, house_rules=chosen,
            first_dealer=first_dealer, reversed_round=reversed_round,
        )
        if tally is not None:
            game.__dict__["tally"] = tally
        return game

    def _read_rounds(self, game_id: int, names: Mapping[int, str], seat_of: Mapping[str, int],
                     *, undone: bool, upto: int | None = None, since: int = 1
                     ) -> list[Round]:
        """The game's rounds in play (or its undone ones), oldest first: numbers `since` to
        `upto` (all by default)."""
        rounds: dict[int, _StoredRound] = {}
        which = "undone = 1" if undone else "undone = 0"  # literal: the undone rounds' index
        if upto is not None:
            which += f" AND number BETWEEN {int(since)} AND {int(upto)}"
        for rid, number, winner_id, played_at, out_on, showdown_out in self.conn.execute(
            "SELECT id, number, winner_id, played_at, out_on, showdown_out FROM rounds "
            f"WHERE game_id = ? AND {which} ORDER BY number", (game_id,),
        ):
            rounds[rid] = _StoredRound(number, names[winner_id], played_at, undone,
                                       parse_card(out_on) if out_on is not None else None,
                                       bool(showdown_out))
        for rid, pid, cards, counted in self.conn.execute(
            "SELECT h.round_id, h.player_id, h.cards, h.counted FROM hands h "
            f"JOIN rounds r ON r.id = h.round_id WHERE r.game_id = ? AND r.{which}",
            (game_id,),
        ):
            hand = Hand(cards=parse_cards(cards)) if cards is not None else Hand(counted=counted)
            rounds[rid].hands[names[pid]] = hand
        for rid, pid, place in self.conn.execute(
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

    def _tally(self, game_id: int, revision: int) -> Tally | None:
        """The game's stored tally, if it is of this revision (else it cannot be trusted)."""
        row = self.conn.execute("SELECT revision, state FROM tallies WHERE game_id = ?",
                                (game_id,)).fetchone()
        if row is None or row[0] != revision:
            return None
        try:
            return Tally.from_json(json.loads(row[1]))
        except (ValueError, KeyError, TypeError):
            return None  # unreadable: the rounds are read instead

    def _live_rounds_are(self, game_id: int, count: int) -> bool:
        """Rounds 1..count are in play and count + 1 is not (two index look-ups)."""
        live = dict(self.conn.execute(
            "SELECT number, undone FROM rounds WHERE game_id = ? AND number IN (?, ?)",
            (game_id, count, count + 1),
        ).fetchall())
        return live.get(count + 1) != 0 and (count == 0 or live.get(count) == 0)

    def _save_tally(self, conn: sqlite3.Connection, game: Game,
                    game_id: int | None = None, *, rewrite: bool = True) -> None:
        """Keep the game's tally beside it, for the revision the change moves it to; and,
        for a game played at a championship's table, the event's standings in the same
        transaction (`standings_sums`). `rewrite`: the change may have moved points without
        adding a round (an undo, a correction), so the game is summed again."""
        game_id = game.id if game_id is None else game_id
        assert game_id is not None
        conn.execute(
            "INSERT INTO tallies (game_id, revision, state) VALUES (?, ?, ?) "
            "ON CONFLICT (game_id) DO UPDATE SET revision = excluded.revision, "
            "state = excluded.state",
            (game_id, game.revision, json.dumps(game.tally.to_json())),
        )
        if not self._keeps_sums:  # once a file keeps them it always does
            self._keeps_sums = bool(conn.execute(
                "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = "
                "'championship_game_sums'").fetchone())
        if self._keeps_sums:
            from uno_showdown.adapters.store import standings_sums  # only a championship's file

            standings_sums.game_changed(conn, game, game_id, rewrite)

    # -- rounds --

    def _player_ids(self, conn: sqlite3.Connection, game_id: int) -> dict[str, int]:
        return {
            name: pid for pid, name in conn.execute(
                "SELECT id, name FROM players WHERE game_id = ?", (game_id,)
            )
        }

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

    def _advance(self, conn: sqlite3.Connection, game: Game, live_rounds: int) -> None:
        """Move the file's game to `game.revision`, or refuse: first thing in a change.

        The change was made from revision `game.revision - 1`; if the file holds another
        revision, or not `live_rounds` rounds in play, someone else changed the game since it
        was loaded, and writing now would overwrite their work.
        """
        assert game.id is not None
        moved = conn.execute(
            "UPDATE games SET revision = ? WHERE id = ? AND revision = ?",
            (game.revision, game.id, game.revision - 1),
        ).rowcount
        # Live rounds are numbers 1..n, undone ones follow: n is right when round n is live
        # and round n + 1 is not (two index look-ups, however long the game).
        live = dict(conn.execute(
            "SELECT number, undone FROM rounds WHERE game_id = ? AND number IN (?, ?)",
            (game.id, live_rounds, live_rounds + 1),
        ).fetchall())
        if (moved != 1 or live.get(live_rounds + 1) == 0
                or (live_rounds and live.get(live_rounds) != 0)):
            raise GameChangedError(
                _("game {id} was changed elsewhere and has been reloaded: check it and enter "
                  "your change again").format(id=game.id)
            )

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
        with self.transaction() as conn:
            self._advance(conn, game, number - 1)
            late = self._box_add(conn, game.id, now_us)
            conn.execute("DELETE FROM rounds WHERE game_id = ? AND number >= ? AND undone = 1",
                         (game.id, number))
            self._insert_round(conn, game.id, self._player_ids(conn, game.id), number,
                               game.rounds[-1], undone=False)
            self._save_tally(conn, game, rewrite=False)  # carried over by the model: O(1)
            return Recorded(late, self._play_on(conn, game, late, successor))

    def set_round_count(self, game: Game, was: int, *, now_us: int | None = None,
                        successor: Game | None = None) -> Recorded:
        """Persist an undo or a redo: rounds up to `len(game.rounds)` are live, the rest undone.

        `was` is how many rounds were live before (the file must still hold that many). In a
        time box an undo or redo is checked like a round (`TimeBoxError`); a redo that ends
        the game plays on in `successor`, as `append_round` does.
        """
        assert game.id is not None
        with self.transaction() as conn:
            self._advance(conn, game, was)
            late = False
            if len(game.rounds) > was:
                late = self._box_add(conn, game.id, now_us)
            else:
                self._box_undo(conn, game.id, now_us)
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
        with self.transaction() as conn:
            self._advance(conn, game, len(game.rounds))
            boxed = self._boxed(conn, game.id)
            if boxed is not None:
                boxed.box.check_edit()
            conn.execute(
                "DELETE FROM rounds WHERE game_id = ? AND number = ?", (game.id, number)
            )
            self._insert_round(conn, game.id, self._player_ids(conn, game.id), number, rnd,
                               undone=False)
            self._save_tally(conn, game)

    def rename_player(self, game: Game, old: str, new: str) -> None:
        """Persist a rename (`game` is the renamed game, `old` the name in the file)."""
        assert game.id is not None
        with self.transaction() as conn:
            self._advance(conn, game, len(game.rounds))
            self._box_players(conn, game.id)
            conn.execute(
                "UPDATE players SET name = ? WHERE game_id = ? AND name = ?", (new, game.id, old)
            )
            self._save_tally(conn, game)

    def save_table(self, game: Game) -> None:
        """Persist the table's state: the direction of the round in play, who dealt first."""
        assert game.id is not None
        with self.transaction() as conn:
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
        with self.transaction() as conn:
            self._advance(conn, game, len(game.rounds))
            self._box_players(conn, game.id)
            conn.execute("DELETE FROM rounds WHERE game_id = ? AND undone = 1", (game.id,))
            ids = self._player_ids(conn, game.id)
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

    # -- time boxes --

    def create_time_box(self, conn: sqlite3.Connection, box: TimeBox) -> int:
        """Insert a box inside the caller's transaction; returns its id."""
        cur = conn.execute(
            "INSERT INTO time_boxes (label, state, ends_at_us, left_us, grace_rounds, "
            "late_rounds, play_on, fixed_players, next_box_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (box.label, box.state.value, box.ends_at_us, box.left_us, box.grace_rounds,
             box.late_rounds, int(box.play_on), int(box.fixed_players), box.next_box_id),
        )
        return int(cur.lastrowid or 0)

    def save_time_box(self, conn: sqlite3.Connection, box: TimeBox) -> None:
        """Write a changed box (its id set) inside the caller's transaction."""
        assert box.id is not None
        conn.execute(
            "UPDATE time_boxes SET label = ?, state = ?, ends_at_us = ?, left_us = ?, "
            "grace_rounds = ?, late_rounds = ?, play_on = ?, fixed_players = ?, "
            "next_box_id = ? WHERE id = ?",
            (box.label, box.state.value, box.ends_at_us, box.left_us, box.grace_rounds,
             box.late_rounds, int(box.play_on), int(box.fixed_players), box.next_box_id,
             box.id),
        )

    def put_game_in_box(self, conn: sqlite3.Connection, box_id: int, game_id: int) -> None:
        """Make `game_id` the game the box's table plays now (after the ones before it)."""
        conn.execute(
            "INSERT INTO time_box_games (game_id, box_id, seq) VALUES (?, ?, "
            "(SELECT COALESCE(MAX(seq), 0) + 1 FROM time_box_games WHERE box_id = ?))",
            (game_id, box_id, box_id),
        )

    def remove_time_box(self, conn: sqlite3.Connection, box_id: int) -> None:
        """Take back a box that never opened, with its games (a draw made again)."""
        boxed = self.load_time_box(conn, box_id)
        if boxed.box.state is not State.WAITING:
            raise TimeBoxError(_("{label} has started, so it cannot be taken back").format(
                label=boxed.box.label))
        conn.execute("UPDATE time_boxes SET next_box_id = NULL WHERE next_box_id = ?",
                     (box_id,))
        for game_id in boxed.game_ids:
            conn.execute("DELETE FROM games WHERE id = ?", (game_id,))
        conn.execute("DELETE FROM time_boxes WHERE id = ?", (box_id,))

    def load_time_box(self, conn: sqlite3.Connection, box_id: int) -> BoxedGame:
        """A box with its games, read through the caller's connection (in its transaction)."""
        row = conn.execute(f"SELECT {_BOX_COLUMNS} FROM time_boxes WHERE id = ?",
                           (box_id,)).fetchone()
        if row is None:
            raise StoreError(_("there is no time box {id} in {path}").format(
                id=box_id, path=self.path))
        games = tuple(int(g) for (g,) in conn.execute(
            "SELECT game_id FROM time_box_games WHERE box_id = ? ORDER BY seq", (box_id,)))
        return BoxedGame(_box_from_row(row), games[-1] if games else 0, games)

    @_reads
    def time_box(self, box_id: int) -> BoxedGame:
        return self.load_time_box(self.conn, box_id)

    @_reads
    def time_box_of(self, game_id: int) -> BoxedGame | None:
        """The box the game was played in, or None for a game played without a clock."""
        return self._boxed(self.conn, game_id)

    def _boxed(self, conn: sqlite3.Connection, game_id: int) -> BoxedGame | None:
        row = conn.execute("SELECT box_id FROM time_box_games WHERE game_id = ?",
                           (game_id,)).fetchone()
        return None if row is None else self.load_time_box(conn, int(row[0]))

    def _current_boxed(self, conn: sqlite3.Connection, game_id: int) -> BoxedGame | None:
        """The game's box, refusing a change to a game the table has since moved on from."""
        boxed = self._boxed(conn, game_id)
        if boxed is not None and boxed.current_game_id != game_id:
            raise boxed.box.moved_on(boxed.current_game_id)
        return boxed

    @staticmethod
    def _now(now_us: int | None) -> int:
        return wallclock.now() if now_us is None else now_us

    def _box_add(self, conn: sqlite3.Connection, game_id: int, now_us: int | None) -> bool:
        boxed = self._current_boxed(conn, game_id)
        if boxed is None:
            return False
        late = boxed.box.check_add(self._now(now_us))
        if late:
            conn.execute("UPDATE time_boxes SET late_rounds = late_rounds + 1 WHERE id = ?",
                         (boxed.box.id,))
        return late

    def _box_undo(self, conn: sqlite3.Connection, game_id: int, now_us: int | None) -> None:
        boxed = self._current_boxed(conn, game_id)
        if boxed is not None and boxed.box.check_undo(self._now(now_us)):
            conn.execute("UPDATE time_boxes SET late_rounds = late_rounds - 1 WHERE id = ?",
                         (boxed.box.id,))

    def _box_players(self, conn: sqlite3.Connection, game_id: int) -> None:
        boxed = self._boxed(conn, game_id)
        if boxed is not None:
            boxed.box.check_players()

    def _play_on(self, conn: sqlite3.Connection, game: Game, late: bool,
                 successor: Game | None) -> int | None:
        """Start the table's next game when `game` just ended inside a box that plays on."""
        assert game.id is not None
        if late or successor is None or not game.verdict.over:
            return None
        boxed = self._boxed(conn, game.id)
        if boxed is None or not boxed.box.play_on:
            return None
        new_id = self.insert_game(conn, successor)
        self.put_game_in_box(conn, boxed.box.id or 0, new_id)
        return new_id

    # -- duels --

    _DUEL_COLUMNS = (
        "id, after_round, challenger_id, opponent_id, cards, outcome, winner_id, loser_id, "
        "challenger_reaction_us, opponent_reaction_us, recorded_at, contested, log_key, changed"
    )

    def add_duel(
        self, game_id: int, after_round: int, challenger: str, opponent: str, cards: int,
        outcome: str, winner: str | None, loser: str | None,
        challenger_reaction_us: int | None, opponent_reaction_us: int | None, recorded_at: str,
        *, contested: bool = False, log_key: str | None = None,
    ) -> int:
        """Store a duel; returns its id. O(1) in the duels already stored.

        With a `log_key` already stored for this game, nothing is written and the stored
        duel's id is returned: recording the same duel twice is harmless.
        """
        with self.transaction() as conn:
            if log_key is not None:
                row = conn.execute("SELECT id FROM duels WHERE game_id = ? AND log_key = ?",
                                   (game_id, log_key)).fetchone()
                if row is not None:
                    return int(row[0])
            return self._insert_duel(
                conn, game_id, after_round, challenger, opponent, cards, outcome, winner, loser,
                challenger_reaction_us, opponent_reaction_us, recorded_at,
                contested=contested, log_key=log_key,
            )

    def _insert_duel(
        self, conn: sqlite3.Connection, game_id: int, after_round: int, challenger: str,
        opponent: str, cards: int, outcome: str, winner: str | None, loser: str | None,
        challenger_reaction_us: int | None, opponent_reaction_us: int | None, recorded_at: str,
        *, contested: bool = False, log_key: str | None = None,
    ) -> int:
        ids = {name_key(k): v for k, v in self._player_ids(conn, game_id).items()}
        missing = [n for n in (challenger, opponent) if name_key(n) not in ids]
        if missing:
            raise StoreError(
                _("there is no player {name!r} in this game: the players are {names}").format(
                    name=missing[0], names=", ".join(self._player_ids(conn, game_id))
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

    def set_duel_reactions(
        self, duel_id: int, challenger_us: int | None, opponent_us: int | None
    ) -> None:
        """Complete a duel's reaction times (known only once the slower press is in)."""
        with self.transaction() as conn:
            self._touch_duel(conn, duel_id)
            conn.execute(
                "UPDATE duels SET challenger_reaction_us = COALESCE(?, challenger_reaction_us), "
                "opponent_reaction_us = COALESCE(?, opponent_reaction_us) WHERE id = ?",
                (challenger_us, opponent_us, duel_id),
            )

    def set_duel_contested(self, duel_id: int) -> None:
        """Mark a duel contested: a late press would have changed its verdict."""
        with self.transaction() as conn:
            self._touch_duel(conn, duel_id)
            conn.execute("UPDATE duels SET contested = 1 WHERE id = ?", (duel_id,))

    def set_duel_launch_failed(self, duel_id: int) -> None:
        """The unit never confirmed the duel's launch: it ends as launch failed, and nobody
        is credited a win or the cards (the reaction times stay: the presses happened)."""
        with self.transaction() as conn:
            self._touch_duel(conn, duel_id)
            conn.execute("UPDATE duels SET outcome = ?, winner_id = NULL, loser_id = NULL "
                         "WHERE id = ?", (Outcome.LAUNCH_FAILED.value, duel_id))

    def _touch_duel(self, conn: sqlite3.Connection, duel_id: int) -> None:
        row = conn.execute("SELECT game_id FROM duels WHERE id = ?", (duel_id,)).fetchone()
        if row is not None:
            conn.execute("UPDATE duels SET changed = ? WHERE id = ?",
                         (self._next_change(conn, int(row[0])), duel_id))

    def _duel_rows(self, where: str, params: tuple[object, ...], game_id: int) -> list[DuelRow]:
        names = {
            pid: name for pid, name in self.conn.execute(
                "SELECT id, name FROM players WHERE game_id = ?", (game_id,)
            )
        }
        out = []
        for row in self.conn.execute(
            f"SELECT {self._DUEL_COLUMNS} FROM duels WHERE {where} ORDER BY id", params,
        ):
            did, after, ch, op, cards, outcome, win, lose, ch_us, op_us, at, cont, key, chg = row
            out.append(DuelRow(
                did, after, names[ch], names[op], cards, outcome, names.get(win),
                names.get(lose), MappingProxyType({names[ch]: ch_us, names[op]: op_us}), at,
                bool(cont), key, chg, game_id,
            ))
        return out

    @_reads
    def duels(self, game_id: int) -> list[DuelRow]:
        """Every duel of the game, oldest first."""
        return self._duel_rows("game_id = ?", (game_id,), game_id)

    @_reads
    def duel_changes(self, game_id: int, since: int) -> list[DuelRow]:
        """The game's duels written after change number `since` (see `DuelRow.changed`):
        a screen that keeps the duels it has seen reads only these."""
        return self._duel_rows("game_id = ? AND changed > ?", (game_id, since), game_id)

    @_reads
    def duel_with_key(self, game_id: int, log_key: str) -> int | None:
        """The id of the game's duel taken from the duel log as `log_key`, if stored."""
        row = self.conn.execute("SELECT id FROM duels WHERE game_id = ? AND log_key = ?",
                                (game_id, log_key)).fetchone()
        return None if row is None else int(row[0])

    @_reads
    def duel(self, duel_id: int) -> DuelRow | None:
        """One stored duel by id (None if there is none)."""
        row = self.conn.execute("SELECT game_id FROM duels WHERE id = ?", (duel_id,)).fetchone()
        if row is None:
            return None
        rows = self._duel_rows("id = ?", (duel_id,), int(row[0]))
        return rows[0] if rows else None
