"""Games files written before the one versioning scheme open, migrate and keep their rows.

Until `schema_parts`, the file's owners kept their versions three ways: the games in SQLite's
`user_version`, the championship in a `championship_meta` row, a table's sync and the
director's ledger by their tables being there at all. These tests build files exactly that
way, at every version the older code could leave behind, and open them with this code: every
part comes up to date, nothing stored is lost, a newer file is still refused with its one
line, and two programs opening an old file at once both succeed.
"""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from championship.core.access import director_user
from championship.core.errors import ChampionshipError
from championship.store import event_store as championship
from championship.store import ledger, table_file
from championship.store.event_store import ChampionshipStore
from championship.store.ledger import Ledger
from championship.store.table_file import TableFile
from companion.scoring import Rules
from companion.store import schema
from companion.store.errors import StoreError
from companion.store.games import Store
from companion.store.games_schema import MIGRATIONS, SCHEMA_VERSION
from companion.table.game import Game, Hand, LazyRounds

OLD_GAMES_VERSION = 7  # the last version kept in `user_version`


def old_file(path: Path, games: int, championship_version: int = 0, *,
             synced: bool = False) -> None:
    """A file as the code before `schema_parts` left it: the games at `games` (with one game
    of two players at version 1 and later), the championship at `championship_version`, and
    with `synced` a table's sync and a director's ledger holding a row each."""
    conn = sqlite3.connect(path)
    for script in MIGRATIONS[:games]:
        conn.executescript(script)
    conn.execute(f"PRAGMA user_version = {games}")
    if games:
        conn.execute("INSERT INTO games (edition, method, target, created_at) "
                     "VALUES ('classic', 'own', 200, 'then')")
        conn.execute("INSERT INTO players (game_id, name, seat) VALUES (1, 'Ann', 0), "
                     "(1, 'Bob', 1)")
    if championship_version:
        conn.execute("CREATE TABLE IF NOT EXISTS championship_meta "
                     "(key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        for script in championship.MIGRATIONS[:championship_version]:
            conn.executescript(script)
        conn.execute("INSERT INTO championship_meta VALUES ('schema_version', ?)",
                     (str(championship_version),))
        conn.execute("INSERT INTO championship_events (name, created_at, settings) VALUES "
                     "('Cup', 'then', '{}')")
    if synced:
        # the old `_SCHEMA` of each: every table made at once, `CREATE TABLE IF NOT EXISTS`
        for script in (table_file.PART.steps[0], ledger.PART.steps[0]):
            conn.executescript(script.replace("CREATE TABLE", "CREATE TABLE IF NOT EXISTS"))
        conn.executemany("INSERT INTO table_sync_meta VALUES (?, ?)",
                         [("source", "abc"), ("event", "1"), ("table", "2")])
        conn.execute("INSERT INTO table_sync_outbox (body) VALUES ('{\"kind\": \"status\"}')")
        conn.execute("INSERT INTO director_sync_users VALUES (1, ?, NULL, 'pw')",
                     (director_user(1),))
    conn.commit()
    conn.close()


def versions(path: Path) -> dict[str, int]:
    """The parts' versions as the file holds them (none in a file of the older schemes)."""
    with sqlite3.connect(path) as conn:
        if not schema.has_table(conn, "schema_parts"):
            return {}
        return dict(conn.execute("SELECT part, version FROM schema_parts"))


def tables(path: Path) -> set[str]:
    with sqlite3.connect(path) as conn:
        return {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}


def user_version(path: Path) -> int:
    with sqlite3.connect(path) as conn:
        return int(conn.execute("PRAGMA user_version").fetchone()[0])


@pytest.mark.parametrize("games", range(1, OLD_GAMES_VERSION + 1))
def test_every_old_games_version_opens_with_its_game(tmp_path: Path, games: int) -> None:
    path = tmp_path / "old.db"
    old_file(path, games)
    with Store(path) as store:
        assert store.schema_version() == SCHEMA_VERSION
        assert store.games.load(1).names == ["Ann", "Bob"]
        assert store.duels.of_game(1) == []
    if games < OLD_GAMES_VERSION:  # a step ran: the versions are in the table now
        assert versions(path) == {"games": SCHEMA_VERSION}
        # the code before the parts table reads `user_version`: it refuses this file as newer
        assert user_version(path) == schema.FILE_FORMAT > OLD_GAMES_VERSION
    else:
        assert versions(path) == {} and user_version(path) == OLD_GAMES_VERSION


def test_an_up_to_date_old_file_opens_unchanged(tmp_path: Path) -> None:
    """A file already at the last old version needs no step: its tables and versions stay
    as they are, so the older code can still open it too. The director's ledger has a step
    since (each games file's status ordered on its own): it runs when the ledger opens."""
    path = tmp_path / "old.db"
    old_file(path, OLD_GAMES_VERSION, len(championship.MIGRATIONS), synced=True)
    before = tables(path)
    with Store(path) as store:
        ChampionshipStore(store)
        TableFile(store, 1, 2)
        assert store.games.load(1).names == ["Ann", "Bob"]
    assert tables(path) == before and user_version(path) == OLD_GAMES_VERSION
    with Store(path) as store:
        director, _tables = Ledger(store).credentials(1, [])
        assert director.secret == "pw"
    assert tables(path) == before | {"schema_parts", "sqlite_autoindex_schema_parts_1"}
    assert versions(path) == {"games": OLD_GAMES_VERSION,
                              "championship": championship.SCHEMA_VERSION,
                              "table sync": 1, "director sync": 3}


def test_a_tally_written_to_an_old_file_leaves_it_to_the_older_code(tmp_path: Path) -> None:
    """The first game written keeps its tally in tables of their own (`tally_rows`) without
    adopting the file: no `schema_parts`, `user_version` as the older code reads it; once
    another part adopts the file, the tally's version is found from its tables."""
    path = tmp_path / "old.db"
    old_file(path, OLD_GAMES_VERSION)
    with Store(path) as store:
        game_id = store.games.create(
            Game.new("classic", Rules.make("winner", 500), ["Cid", "Dan"]).add_round(
                "Cid", {"Dan": Hand(counted=7)}))
        assert isinstance(store.games.load(game_id, lazy=True).rounds, LazyRounds)
    assert {"tally_sums", "tally_entries"} <= tables(path)
    assert "schema_parts" not in tables(path) and user_version(path) == OLD_GAMES_VERSION
    with Store(path) as store:
        Ledger(store)
    assert versions(path)["tally"] == 1


@pytest.mark.parametrize("version", range(1, len(championship.MIGRATIONS) + 1))
def test_every_old_championship_version_migrates_and_keeps_its_event(
        tmp_path: Path, version: int) -> None:
    path = tmp_path / "old.db"
    old_file(path, OLD_GAMES_VERSION, version)
    with Store(path) as store:
        events = ChampionshipStore(store)
        assert events.schema_version() == championship.SCHEMA_VERSION
        assert events.event_ids() == [1]
    if version < championship.SCHEMA_VERSION:  # a step ran: the versions are in the table
        assert versions(path) == {"games": OLD_GAMES_VERSION,
                                  "championship": championship.SCHEMA_VERSION}
        assert user_version(path) == schema.FILE_FORMAT
    else:  # nothing to do: the file stays as the older code wrote it
        assert user_version(path) == OLD_GAMES_VERSION


def test_old_sync_tables_are_taken_as_they_are(tmp_path: Path) -> None:
    """A table's outbox and the director's credentials survive the change of scheme."""
    path = tmp_path / "old.db"
    old_file(path, 3, 1, synced=True)  # old enough that the games and championship move on
    with Store(path) as store:
        ChampionshipStore(store)
        outbox = TableFile(store, 1, 2)
        assert outbox.source == "abc" and outbox.pending() == 1
        director, _tables = Ledger(store).credentials(1, [])
        assert director.secret == "pw"
        # Served before the director signed: it gets a key now, and keeps it.
        assert director.signing_key is not None
        assert Ledger(store).credentials(1, [])[0].signing_key == director.signing_key
    assert versions(path) == {"games": SCHEMA_VERSION,
                              "championship": championship.SCHEMA_VERSION,
                              "table sync": 1, "director sync": 3}


def test_a_new_file_records_each_part_it_uses(tmp_path: Path) -> None:
    path = tmp_path / "new.db"
    with Store(path) as store:
        assert versions(path) == {"games": SCHEMA_VERSION}  # no championship until one
        ChampionshipStore(store).migrate()
        TableFile(store, 4, 1)
    assert versions(path) == {"games": SCHEMA_VERSION,
                              "championship": championship.SCHEMA_VERSION, "table sync": 1}


def test_a_newer_part_is_refused_with_its_own_line_old_file_or_new(tmp_path: Path) -> None:
    legacy = tmp_path / "legacy.db"
    old_file(legacy, OLD_GAMES_VERSION, 1)
    with sqlite3.connect(legacy) as conn:
        conn.execute("UPDATE championship_meta SET value = '99'")
    with Store(legacy) as store, pytest.raises(ChampionshipError, match=r"newer .*schema 99"):
        ChampionshipStore(store)
    current = tmp_path / "current.db"
    Store(current).close()
    with sqlite3.connect(current) as conn:
        conn.execute("UPDATE schema_parts SET version = ? WHERE part = 'games'",
                     (SCHEMA_VERSION + 1,))
    before = current.read_bytes()
    with pytest.raises(StoreError, match=f"newer uno-showdown \\(schema {SCHEMA_VERSION + 1}\\)"):
        Store(current)
    assert current.read_bytes() == before


def test_two_programs_opening_an_old_file_at_once_both_migrate_it_once(tmp_path: Path) -> None:
    """Each step re-reads the version inside its write transaction: the second opener waits
    for the first one's step and finds it done, so no step runs twice (it would fail: its
    tables would already be there)."""
    for attempt in range(5):
        path = tmp_path / f"old{attempt}.db"
        old_file(path, 1, 1, synced=True)
        start = threading.Barrier(2)
        errors: list[BaseException] = []

        def open_it(path: Path = path, start: threading.Barrier = start,
                    errors: list[BaseException] = errors) -> None:
            try:
                start.wait(timeout=30)
                with Store(path) as store:
                    ChampionshipStore(store)
                    TableFile(store, 1, 2)
                    Ledger(store)
                    assert store.games.load(1).names == ["Ann", "Bob"]
            except BaseException as exc:
                errors.append(exc)

        threads = [threading.Thread(target=open_it) for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=60)
        assert not any(t.is_alive() for t in threads)
        assert errors == []
        assert versions(path) == {"games": SCHEMA_VERSION,
                                  "championship": championship.SCHEMA_VERSION,
                                  "table sync": 1, "director sync": 3}
