"""Input that cannot be stored is refused with one sentence and leaves the games file as it was:
an imported file with a wrong field, points or targets beyond sense, a bad --game, --db or
--lang, and a transaction whose COMMIT fails."""

from __future__ import annotations

import copy
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from companion.app import CompanionApp
from companion.scoring import MAX_TARGET
from companion.store.errors import StoreError
from companion.store.games import Store
from companion.store.games_schema import SCHEMA_VERSION
from companion.table.game import MAX_HAND_POINTS
from showdown.contract.errors import CompanionError
from uno_showdown.commands.cli import main

#: An exported game as `game export` writes it, with a late joiner, a counted hand and a duel.
GOOD: dict[str, Any] = {
    "format": "uno-showdown-game", "version": 1, "edition": "classic", "method": "winner",
    "target": 500, "options": [], "created_at": "2026-11-29T12:49:24+00:00",
    "players": [{"name": "Eve", "joined_round": 1, "team": None},
                {"name": "Ann", "joined_round": 0, "team": None},
                {"name": "Bob", "joined_round": 0, "team": None},
                {"name": "Cid", "joined_round": 0, "team": None}],
    "rounds": [{"winner": "Ann", "played_at": "2026-11-29T12:49:25+00:00",
                "hands": {"Ann": "-", "Bob": "r5 wild", "Cid": 12}}],
    "undone": [],
    "duels": [{"after_round": 1, "challenger": "Bob", "opponent": "Ann", "cards": 2,
               "outcome": "faster", "winner": "Ann", "loser": "Bob",
               "reaction_us": {"Bob": 310000, "Ann": 250000}, "recorded_at": "x"}],
}


def spoiled(path: str, value: Any) -> dict[str, Any]:
    """GOOD with the field at `path` (keys and indexes joined by dots) set to `value`."""
    data = copy.deepcopy(GOOD)
    *parents, last = path.split(".")
    node: Any = data
    for key in parents:
        node = node[int(key)] if isinstance(node, list) else node[key]
    node[int(last) if isinstance(node, list) else last] = value
    return data


def dump(db: Path) -> str:
    conn = sqlite3.connect(db)
    try:
        return "\n".join(conn.iterdump())
    finally:
        conn.close()


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out = capsys.readouterr()
    return status, out.out, out.err


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "games.db"
    with CompanionApp.open(path, lang="en") as app:
        app.new_game("classic", "winner", ["Ann", "Bob"])
    return path


# -- importing --


BAD_FILES = [
    ("duels.0.challenger", "Zed", "duels[0].challenger in the file is 'Zed'"),  # ex2.json
    ("duels.0.cards", "two", "a whole number from 1 to 999"),  # ex3.json
    ("rounds.0.hands.Bob", 10**30, f"cannot be more than {MAX_HAND_POINTS}"),  # ex4.json
    ("target", "abc", "the target must be a positive number"),  # ex5.json
    ("target", 10**30, f"cannot be more than {MAX_TARGET} points"),
    ("duels.0.opponent", "Bob", "duels[0].opponent"),
    ("duels.0.winner", "Cid", "must be one of Bob, Ann"),
    ("duels.0.outcome", "won", "duels[0].outcome"),
    ("duels.0.after_round", -1, "duels[0].after_round"),
    ("duels.0.reaction_us", {"Bob": 10**30}, "duels[0].reaction_us.Bob"),
    ("duels.0.reaction_us", {"Zed": 1}, "duels[0].reaction_us"),
    ("duels.0.recorded_at", 7, "must be text"),
    ("players.0.joined_round", 10**30, "players[0].joined_round"),
    ("players.0.team", "red", "players[0].team"),
    ("players.0.name", 5, "players[0].name"),
    ("rounds.0.hands.Cid", True, "rounds[0].hands.Cid"),
    ("rounds.0.winner", None, "rounds[0].winner"),
    ("rounds.0.hands", ["Ann"], "rounds[0].hands"),
    ("rounds.0.played_at", 3, "rounds[0].played_at"),
    ("duels", {"Bob": 1}, "duels in the file"),
    ("version", 4, "version in the file is 4"),
]


@pytest.mark.parametrize(("path", "value", "message"), BAD_FILES,
                         ids=[f"{p}={v!r}"[:40] for p, v, _ in BAD_FILES])
def test_a_bad_file_is_one_line_exit_2_and_the_store_unchanged(capsys, db, tmp_path, path,
                                                               value, message):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(spoiled(path, value)), encoding="utf-8")
    before = dump(db)
    status, out, err = cli(capsys, "game", "import", "--db", str(db), "--lang", "en", str(bad))
    assert (status, out) == (2, "")
    assert err.count("\n") == 1 and message in err and "Traceback" not in err, err
    assert dump(db) == before


def test_a_good_file_imports_with_its_duel_in_one_go(capsys, db, tmp_path):
    good = tmp_path / "good.json"
    good.write_text(json.dumps(spoiled("duels.0.challenger", "bob")), encoding="utf-8")
    status, out, _ = cli(capsys, "game", "import", "--db", str(db), str(good))
    assert status == 0
    with CompanionApp.open(db, int(out), lang="en") as app:
        (duel,) = app.duels()
        assert (duel.challenger, duel.winner, dict(duel.reaction_us)) == (
            "Bob", "Ann", {"Bob": 310000, "Ann": 250000})
        assert app.duel_stats()["Ann"].best_ms == 250


def test_an_import_failing_in_the_store_leaves_no_half_game(db):
    """The game, its rounds and its duels are one transaction: a duel that cannot be written
    takes the game with it."""
    conn = sqlite3.connect(db)
    conn.execute("CREATE TRIGGER no_duels BEFORE INSERT ON duels "
                 "BEGIN SELECT RAISE(ABORT, 'duels are switched off'); END")
    conn.commit()
    conn.close()
    before = dump(db)
    with CompanionApp.open(db, lang="en") as app:
        with pytest.raises(StoreError, match="duels are switched off"):
            app.import_game(json.dumps(GOOD))
        assert [g.id for g in app.games()] == [1]
    assert dump(db) == before


def test_a_bad_csv_file_is_refused_with_its_line(capsys, db, tmp_path):
    with CompanionApp.open(db, lang="en") as app:
        app.record_round("Ann", points={"Bob": 12})
        text = app.export("csv")
    lines = text.splitlines()
    assert lines[4].endswith(",Bob,,0,0,,12,0")  # line 5: Bob's counted hand in round 1
    for spoil, message in (
        (lambda row: row[: -len("12,0")] + "999999999999999999999,0", "hand_value on line 5"),
        (lambda row: row.replace(",1,", ",one,", 1), "round on line 5"),
        (lambda row: row.replace(",Bob,", ",Zed,"), "no player 'Zed'"),
    ):
        bad = tmp_path / "bad.csv"
        bad.write_text("\n".join([*lines[:4], spoil(lines[4])]) + "\n", encoding="utf-8")
        before = dump(db)
        status, out, err = cli(capsys, "game", "import", "--db", str(db), str(bad))
        assert (status, out) == (2, "") and err.count("\n") == 1, err
        assert message in err and "Traceback" not in err, err
        assert dump(db) == before


# -- points and targets --


def test_points_beyond_a_hand_are_refused_at_the_table(capsys, db):
    before = dump(db)
    status, out, err = cli(capsys, "game", "round", "--db", str(db), "--winner", "Ann",
                           "--points", "Bob: 99999999999999999999999")
    assert (status, out) == (2, "") and err.count("\n") == 1
    assert f"Bob's points cannot be more than {MAX_HAND_POINTS}" in err
    assert dump(db) == before
    status, out, _ = cli(capsys, "game", "round", "--db", str(db), "--winner", "Ann",
                         "--points", f"Bob: {MAX_HAND_POINTS}")
    assert status == 0 and f"Ann {MAX_HAND_POINTS}" in out


def test_a_target_beyond_sense_is_refused(capsys, db):
    before = dump(db)
    status, _, err = cli(capsys, "game", "new", "--db", str(db), "--edition", "classic",
                         "--method", "winner", "--players", "Ann,Bob",
                         "--target", "99999999999999999999999")
    assert status == 2 and f"cannot be more than {MAX_TARGET} points" in err
    assert err.count("\n") == 1 and dump(db) == before


# -- a failing COMMIT --


def test_a_commit_that_fails_is_rolled_back_and_the_next_change_saves(db):
    """A deferred foreign key makes SQLite's COMMIT itself fail and leave the transaction
    open: the store must roll it back, or every later BEGIN fails."""
    with CompanionApp.open(db, lang="en") as app:
        with (pytest.raises(StoreError, match=r"cannot save to .*FOREIGN KEY"),
              app.store.transaction() as conn):
            conn.execute("PRAGMA defer_foreign_keys = ON")
            conn.execute("INSERT INTO players (game_id, name, seat) VALUES (99, 'Ghost', 0)")
        assert not app.store.conn.in_transaction
        app.record_round("Ann", points={"Bob": 7})
    with Store(db) as store:
        game = store.games.load(1)
        assert [r.winner for r in game.rounds] == ["Ann"]
        assert store.conn.execute("SELECT COUNT(*) FROM players WHERE name = 'Ghost'"
                                  ).fetchone() == (0,)


# -- opening --


@pytest.mark.parametrize(
    ("kind", "message"),
    [
        ("game", "there is no game 99999999999999999999999"),
        ("text", "is not a games file (file is not a database)"),
        ("other program", "is not a games file (it holds another program's tables)"),
        ("directory", "is a folder, not a games file"),
        ("lang", "unknown language 'xx'"),
    ],
)
def test_opening_with_a_bad_game_file_or_language_is_one_sentence(db, tmp_path, kind, message):
    kwargs: dict[str, Any] = {"db_path": db}
    if kind == "game":
        kwargs["game_id"] = 99999999999999999999999
    elif kind == "text":
        kwargs["db_path"] = tmp_path / "notes.txt"
        kwargs["db_path"].write_text("not sqlite\n")
    elif kind == "other program":
        kwargs["db_path"] = tmp_path / "other.db"
        sqlite3.connect(kwargs["db_path"]).execute("CREATE TABLE contacts (name TEXT)").close()
    elif kind == "directory":
        kwargs["db_path"] = tmp_path
    else:
        kwargs["lang"] = "xx"
    path = Path(kwargs["db_path"])
    before = path.read_bytes() if path.is_file() else None
    with pytest.raises(CompanionError, match=message.replace("(", r"\(").replace(")", r"\)")) as e:
        CompanionApp.open(**kwargs)
    assert "\n" not in str(e.value)
    if before is not None:
        assert path.read_bytes() == before  # another program's file is left as it was


def _ours_but_changed(db: Path, change: str) -> None:
    """A current games file of ours, with `change` made to it by someone else."""
    Store(db).close()
    with sqlite3.connect(db) as conn:
        conn.executescript(change)
    conn.close()


@pytest.mark.parametrize(
    ("change", "table"),
    [
        ("DROP TABLE tallies", "tallies"),
        # SQLite 3.35 drops a column; the file then says it is ours without it
        ("ALTER TABLE games DROP COLUMN reversed_round", "games"),
        ("ALTER TABLE players RENAME COLUMN team TO side", "players"),
        # a view of the name reads like the table and is not one
        ("DROP TABLE house_rules; CREATE VIEW house_rules AS SELECT 1 AS game_id, 'x' AS rule",
         "house_rules"),
    ],
)
def test_a_file_that_only_says_it_is_ours_is_refused_naming_the_table(tmp_path, change, table):
    db = tmp_path / "games.db"
    _ours_but_changed(db, change)
    before = db.read_bytes()
    with pytest.raises(CompanionError, match=rf"is not a games file \(its table {table} is "
                       "missing or incomplete\\): choose another with --db"):
        Store(db)
    assert db.read_bytes() == before  # never migrated nor written


def test_a_file_of_ours_with_more_than_ours_opens(tmp_path):
    """Columns and tables added by someone else (a spreadsheet's link, a note) are no reason
    to refuse the file: what the games need is all there."""
    db = tmp_path / "games.db"
    _ours_but_changed(db, "ALTER TABLE games ADD COLUMN note TEXT; CREATE TABLE notes (t TEXT)")
    with Store(db) as store:
        assert store.schema_version() == SCHEMA_VERSION
