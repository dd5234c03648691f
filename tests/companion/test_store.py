"""The SQLite store: what is saved comes back, migrations, export and import round trips."""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.app import CompanionApp
from companion.store.errors import StoreError
from companion.store.games import Store
from companion.store.games_file import as_pathlib_writes, default_db_path
from companion.store.games_schema import MIGRATIONS, SCHEMA_VERSION
from companion.store.transfer import TransferError


@pytest.fixture
def app(tmp_path):
    a = CompanionApp.open(tmp_path / "games.db", lang="en")
    yield a
    a.close()


def play(app: CompanionApp) -> None:
    app.new_game("showdown", "winner", ["Ann", "Bob", "Cid"], target=300)
    app.record_round("Ann", hands={"Bob": ["r5", "gskip"], "Cid": ["showdown"]})
    app.record_round("Bob", points={"Ann": 12, "Cid": 30})
    app.record_round("Cid", hands={"Ann": "wild", "Bob": "y7"})


def test_a_reopened_store_gives_back_the_same_game(tmp_path, app):
    play(app)
    assert app.undo()
    before = app.game
    reopened = CompanionApp.open(tmp_path / "games.db")
    try:
        assert reopened.game == before  # the redo stack too
        assert reopened.redo() and reopened.standings()[0].name == "Ann"
        assert [s.total for s in reopened.standings()] == [65, 57, 42]
    finally:
        reopened.close()


def test_a_round_after_undos_drops_the_undone_rounds_from_the_file(tmp_path, app):
    """The redo stack goes with a new round, in the file too; a round with nothing undone
    before it keeps every round."""
    play(app)
    assert app.undo() and app.undo()
    app.record_round("Cid", points={"Ann": 5, "Bob": 7})
    app.record_round("Ann", points={"Bob": 1, "Cid": 2})
    rows = app.store.conn.execute(
        "SELECT number, winner_id, undone FROM rounds ORDER BY number").fetchall()
    assert [(n, u) for n, _w, u in rows] == [(1, 0), (2, 0), (3, 0)]
    reopened = CompanionApp.open(tmp_path / "games.db")
    try:
        assert not reopened.redo()
        assert [r.winner for r in reopened.game.rounds] == ["Ann", "Cid", "Ann"]
    finally:
        reopened.close()


def test_the_store_uses_wal_foreign_keys_and_a_schema_version(app):
    conn = app.store.conn
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    assert app.store.schema_version() == SCHEMA_VERSION


def test_an_old_file_is_migrated_when_opened(tmp_path):
    path = tmp_path / "old.db"
    conn = sqlite3.connect(path)
    conn.executescript(MIGRATIONS[0] + "PRAGMA user_version = 1;")
    conn.execute("INSERT INTO games (edition, method, target, created_at) "
                 "VALUES ('classic', 'own', 200, 'then')")
    conn.execute("INSERT INTO players (game_id, name, seat) VALUES (1, 'Ann', 0), (1, 'Bob', 1)")
    conn.commit()
    conn.close()
    with Store(path) as store:
        assert store.schema_version() == SCHEMA_VERSION
        assert store.games.load(1).names == ["Ann", "Bob"]
        assert store.duels.of_game(1) == []


def test_a_newer_or_foreign_file_is_refused_with_advice(tmp_path):
    newer = tmp_path / "newer.db"
    sqlite3.connect(newer).execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}").connection.close()
    with pytest.raises(StoreError, match="newer"):
        Store(newer)
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(StoreError, match="--db"):
        Store(junk)


def test_the_default_file_lives_in_the_user_data_directory(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_db_path() == str(tmp_path / "uno-showdown" / "games.sqlite3")


def test_several_games_are_kept_and_the_latest_unfinished_one_opens(tmp_path, app):
    play(app)
    first = app.game.id
    second = app.new_game("classic", "lazy", ["Dan", "Eve"])
    assert [g.id for g in app.games()] == [first, second]
    reopened = CompanionApp.open(tmp_path / "games.db")
    assert reopened.game.id == second
    reopened.switch_game(first)
    assert reopened.player_names() == ["Ann", "Bob", "Cid"]
    reopened.close()


@pytest.mark.parametrize("fmt", ["json", "csv"])
def test_export_then_import_gives_an_equal_game(app, fmt):
    play(app)
    app.add_player("Dan", seat=0)
    app.record_round("Dan", hands={"Ann": "r1", "Bob": "r2", "Cid": "r3"})
    app.rename_player("Bob", "Бобр")
    original = app.game
    text = app.export(fmt)
    new_id = app.import_game(text)
    imported = app.game
    assert new_id != original.id
    assert imported.players == original.players
    assert imported.rounds == original.rounds
    assert imported.standings() == original.standings()


def test_json_export_keeps_undone_rounds_and_duels(app):
    play(app)
    app.undo()
    data = json.loads(app.export("json"))
    assert len(data["rounds"]) == 2 and len(data["undone"]) == 1
    app.import_game(json.dumps(data))
    assert app.redo() and len(app.game.rounds) == 3


def test_an_import_that_breaks_the_rules_is_refused_and_writes_nothing(app):
    play(app)
    data = json.loads(app.export("json"))
    data["rounds"][0]["hands"]["Bob"] = "r5 itembox"
    count = len(app.games())
    with pytest.raises(TransferError, match="itembox"):
        app.import_game(json.dumps(data))
    with pytest.raises(TransferError, match="export"):
        app.import_game("{\"hello\": 1}")
    assert len(app.games()) == count


def test_changes_made_inside_one_transaction_commit_together_or_not_at_all(tmp_path):
    """The organiser's draw writes a box, a game in it and more as one change: each
    repository's method joins the transaction the caller holds, so a failure after some of
    them leaves nothing of any, and a success shows all of them to another program."""
    from companion.scoring import Rules
    from companion.table.game import Game
    from companion.table.timebox import TimeBox

    path = tmp_path / "games.db"
    game = Game.new("classic", Rules.make("championship", 100), ["Ann", "Bob"])
    with Store(path) as store, Store(path) as other:
        with pytest.raises(RuntimeError), store.transaction():
            box_id = store.boxes.create(TimeBox("Cup · Table 1"))
            store.boxes.put_game(box_id, store.games.create(game))
            raise RuntimeError("the draw failed half way")
        assert other.games.ids() == [] and store.games.ids() == []
        with store.transaction():
            box_id = store.boxes.create(TimeBox("Cup · Table 1"))
            game_id = store.games.create(game)
            store.boxes.put_game(box_id, game_id)
            assert other.games.ids() == []  # not committed until the outer change ends
        assert other.boxes.of_game(game_id) == store.boxes.load(box_id)
        assert other.games.load(game_id).names == ["Ann", "Bob"]


@pytest.mark.skipif(os.sep != "/", reason="the POSIX rules; elsewhere it is pathlib itself")
@given(st.lists(st.sampled_from(["", ".", "..", "a", "g.db", " ", "x.y", "..."]), max_size=6),
       st.sampled_from(["", "/", "//", "///"]), st.sampled_from(["", "/", "//"]))
def test_a_games_file_path_is_written_as_pathlib_writes_it(parts: list[str], lead: str,
                                                           trail: str) -> None:
    """`--db ./g.db` is named g.db, `--db f.db/` opens f.db, `--db ""` is the folder "."
    (refused as a folder), as when the path was a `pathlib.Path`."""
    text = lead + "/".join(parts) + trail
    assert as_pathlib_writes(text) == str(Path(text))
