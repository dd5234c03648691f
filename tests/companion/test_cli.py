"""The `game` and `points` commands as a user types them; bad input leaves the file untouched."""

from __future__ import annotations

import hashlib

import pytest

from uno_showdown.commands.cli import main


@pytest.fixture
def db(tmp_path):
    return str(tmp_path / "games.db")


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out = capsys.readouterr()
    return status, out.out, out.err


def new_game(capsys, db, *extra: str) -> str:
    status, out, _ = run(capsys, "game", "new", "--db", db, "--edition", "showdown",
                         "--method", "winner", "--players", "Ann,Bob,Cid", *extra)
    assert status == 0
    return out.strip()


def test_points_adds_up_cards_of_an_edition(capsys):
    assert run(capsys, "points", "--edition", "showdown", "showdown", "r5", "gskip")[:2] == (
        0, "65\n")
    status, out, err = run(capsys, "points", "--edition", "classic", "showdown")
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and "showdown is not a card of the classic edition" in err


def test_a_round_prints_its_points_and_the_standings(capsys, db):
    assert new_game(capsys, db, "--target", "100") == "1"
    status, out, _ = run(capsys, "game", "round", "--db", db, "--winner", "ann",
                         "--hand", "Bob: r5 gskip", "--hand", "Cid: wild")
    assert status == 0
    assert out.splitlines()[0] == "Round 1 saved."
    assert "Points this round: Ann 75." in out
    assert "1  Ann         75        75%" in out
    assert "Next round: Bob deals, Cid starts." in out
    status, out, _ = run(capsys, "game", "round", "--db", db, "--winner", "Bob",
                         "--points", "Ann: 3", "--points", "Cid: 40")
    assert status == 0 and "Bob 43" in out
    status, out, _ = run(capsys, "game", "show", "--db", db, "--rounds")
    assert "rounds played: 2" in out and "1  Ann     Ann        75    0    0" in out


def file_state(db: str) -> str:
    import sqlite3

    conn = sqlite3.connect(db)
    dump = "\n".join(conn.iterdump())
    conn.close()
    return hashlib.sha256(dump.encode()).hexdigest()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--winner", "Dan", "--hand", "Bob: r1", "--hand", "Cid: r2"], "no player 'Dan'"),
        (["--winner", "Ann", "--hand", "Bob: r1 itembox", "--hand", "Cid: r2"],
         "itembox is not a card of the showdown edition"),
        (["--winner", "Ann", "--hand", "Ann: r3", "--hand", "Bob: r1", "--hand", "Cid: r2"],
         "Ann went out but still has cards"),
        (["--winner", "Ann", "--winner", "Bob", "--hand", "Cid: r2"], "two winners"),
        (["--winner", "Ann", "--hand", "Bob: -", "--hand", "Cid: r2"],
         "cannot both have gone out"),
        (["--winner", "Ann", "--hand", "Bob r1", "--hand", "Cid: r2"], "a colon"),
        (["--winner", "Ann", "--hand", "Bob: r0 r0", "--hand", "Cid: r2"], "2 × r0"),
        (["--winner", "Ann", "--points", "Bob: many", "--hand", "Cid: r2"], "not a number"),
    ],
)
def test_bad_input_is_one_line_exit_2_and_nothing_written(capsys, db, args, message):
    new_game(capsys, db)
    run(capsys, "game", "round", "--db", db, "--winner", "Ann", "--hand", "Bob: r1",
        "--hand", "Cid: r2")
    before = file_state(db)
    status, out, err = run(capsys, "game", "round", "--db", db, *args)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and message in err and "Traceback" not in err
    assert file_state(db) == before


def test_undo_redo_list_rename_join_and_a_missing_game(capsys, db):
    new_game(capsys, db)
    run(capsys, "game", "round", "--db", db, "--winner", "Ann", "--hand", "Bob: r1",
        "--hand", "Cid: r2")
    assert run(capsys, "game", "undo", "--db", db)[1].startswith("Round 1 taken back")
    assert run(capsys, "game", "undo", "--db", db)[0] == 2
    assert run(capsys, "game", "redo", "--db", db)[1].startswith("Round 1 put back")
    assert run(capsys, "game", "rename", "--db", db, "Cid", "Cyd")[0] == 0
    assert run(capsys, "game", "join", "--db", db, "Dan", "--seat", "2")[0] == 0
    status, out, _ = run(capsys, "game", "list", "--db", db)
    assert "Ann, Dan, Bob, Cyd" in out and "playing" in out
    status, _, err = run(capsys, "game", "show", "--db", db, "--game", "9")
    assert status == 2 and "no game 9" in err


def test_export_to_a_file_and_import_it_back(capsys, db, tmp_path):
    new_game(capsys, db)
    run(capsys, "game", "round", "--db", db, "--winner", "Ann", "--hand", "Bob: r1",
        "--hand", "Cid: wild")
    for fmt in ("json", "csv"):
        path = tmp_path / f"game.{fmt}"
        assert run(capsys, "game", "export", "--db", db, "--game", "1", "--format", fmt,
                   "--output", str(path))[0] == 0
        status, out, _ = run(capsys, "game", "import", "--db", db, str(path))
        assert status == 0
        shown = run(capsys, "game", "show", "--db", db, "--game", out.strip())[1]
        assert "1  Ann         51" in shown
    status, _, err = run(capsys, "game", "import", "--db", db, str(tmp_path / "nope.json"))
    assert status == 2 and "cannot read" in err


def test_output_follows_lang(capsys, db):
    new_game(capsys, db)
    status, out, _ = run(capsys, "game", "round", "--db", db, "--lang", "ru", "--winner", "Ann",
                         "--hand", "Bob: r1", "--hand", "Cid: r2")
    assert status == 0 and out.splitlines()[0] == "Раунд 1 сохранён."
    status, _, err = run(capsys, "game", "show", "--db", db, "--lang", "xx")
    assert status == 2 and "en, ru, uk, hy" in err


def test_too_many_copies_read_as_a_sentence_wherever_they_are(capsys, db):
    status, _, err = run(capsys, "points", "--edition", "classic", "r0", "r0")
    assert status == 2
    assert err == ("uno-showdown points: 2 × r0 is more than the classic deck holds (1): "
                   "check the cards\n")
    new_game(capsys, db)
    status, _, err = run(capsys, "game", "round", "--db", db, "--winner", "Ann",
                         "--hand", "Bob: r0", "--hand", "Cid: r0")
    assert status == 2 and "the hands of this round hold 2 × r0 but the showdown deck has " \
        "only 1: check the hands" in err
    status, _, err = run(capsys, "game", "round", "--db", db, "--winner", "Ann",
                         "--hand", "Bob: r1 r1 r1", "--hand", "Cid: r0")
    assert status == 2 and "Bob has 3 × r1 but the showdown deck holds only 2" in err


def test_to_target_is_rounded_down_so_100_means_reached(capsys, db):
    new_game(capsys, db, "--target", "200")
    run(capsys, "game", "round", "--db", db, "--winner", "Ann", "--points", "Bob: 199",
        "--points", "Cid: 0")
    status, out, _ = run(capsys, "game", "show", "--db", db)
    assert status == 0 and "1  Ann        199        99%" in out
    run(capsys, "game", "round", "--db", db, "--winner", "Ann", "--points", "Bob: 1",
        "--points", "Cid: 0")
    status, out, _ = run(capsys, "game", "show", "--db", db)
    assert "1  Ann        200       100%  WINNER" in out


def list_states(capsys, db) -> list[str]:
    """The last column of `game list`, game by game."""
    status, out, _ = run(capsys, "game", "list", "--db", db)
    assert status == 0
    return [line.split()[-1] for line in out.splitlines()[1:]]


def older_tallies(conn, state: str) -> None:
    """Every game's tally as an older uno-showdown kept it: a JSON text, `state`, at the
    game's revision (`companion.store.tally_rows`), and no rows."""
    conn.execute("DELETE FROM tally_sums")
    conn.execute("INSERT OR REPLACE INTO tallies (game_id, revision, state) "
                 "SELECT id, revision, ? FROM games", (state,))


def test_game_list_reads_the_end_an_older_program_kept_as_json(capsys, db):
    """A game an older uno-showdown wrote last has its end in its JSON text: the list says
    what that text says without reading the game (here, "over" for a game that is not)."""
    new_game(capsys, db, "--target", "100")
    new_game(capsys, db)
    import sqlite3

    conn = sqlite3.connect(db)
    older_tallies(conn, '{"rounds": 0, "over": true}')
    conn.commit()
    conn.close()
    assert list_states(capsys, db) == ["over", "over"]
    assert run(capsys, "game", "round", "--db", db, "--game", "1", "--winner", "Ann",
               "--points", "Bob: 7", "--points", "Cid: 0")[0] == 0
    assert list_states(capsys, db) == ["playing", "over"]  # game 1 has its rows now
    conn = sqlite3.connect(db)
    assert conn.execute("SELECT game_id FROM tallies").fetchall() == [(2,)]  # 1's is gone
    conn.close()


def test_game_list_trusts_the_kept_end_only_at_the_games_revision(capsys, db):
    """The rows say "playing" for the game as it was; an older program moved it on and kept
    its end as JSON ("over"): the list says what is kept at the game's revision."""
    new_game(capsys, db)
    assert list_states(capsys, db) == ["playing"]
    import sqlite3

    conn = sqlite3.connect(db)
    conn.execute("UPDATE games SET revision = revision + 1")
    conn.execute("INSERT OR REPLACE INTO tallies (game_id, revision, state) "
                 "SELECT id, revision, '{\"over\": true}' FROM games")
    conn.commit()
    conn.close()
    assert list_states(capsys, db) == ["over"]


def test_game_list_says_over_for_a_won_game_from_what_the_file_keeps(capsys, db):
    """The list reads each game's end from the file (no game read whole); a game last written
    by an older uno-showdown, which kept no end, is read whole, and marked if damaged."""
    new_game(capsys, db, "--target", "100")
    new_game(capsys, db)
    assert list_states(capsys, db) == ["playing", "playing"]
    assert run(capsys, "game", "round", "--db", db, "--game", "1", "--winner", "Ann",
               "--points", "Bob: 100", "--points", "Cid: 0")[0] == 0
    assert list_states(capsys, db) == ["over", "playing"]
    assert run(capsys, "game", "undo", "--db", db, "--game", "1")[0] == 0
    assert list_states(capsys, db) == ["playing", "playing"]
    assert run(capsys, "game", "redo", "--db", db, "--game", "1")[0] == 0
    assert list_states(capsys, db) == ["over", "playing"]

    import sqlite3

    conn = sqlite3.connect(db)  # as an older uno-showdown leaves the file: no end kept
    older_tallies(conn, '{"rounds": 0}')
    conn.execute("UPDATE games SET method = 'chess' WHERE id = 2")
    conn.commit()
    conn.close()
    assert list_states(capsys, db) == ["over", "damaged"]


@pytest.mark.parametrize("state", ["not JSON at all", "[true]", '{"over": "yes"}',
                                   '{"over": 1}'])
def test_game_list_reads_whole_a_game_whose_kept_end_is_unreadable(capsys, db, state):
    """A kept end that is not JSON, not an object, or not true or false says nothing: the
    game is read whole, and the list still says which game is over (the won one)."""
    new_game(capsys, db, "--target", "100")
    new_game(capsys, db)
    assert run(capsys, "game", "round", "--db", db, "--game", "1", "--winner", "Ann",
               "--points", "Bob: 100", "--points", "Cid: 0")[0] == 0
    import sqlite3

    conn = sqlite3.connect(db)
    older_tallies(conn, state)
    conn.commit()
    conn.close()
    assert list_states(capsys, db) == ["over", "playing"]


def test_game_list_says_damaged_for_a_game_whose_method_no_version_knows(capsys, db):
    """A method changed by hand is not judged from the game's kept end: the game is read
    whole, as `game show` reads it, and listed as damaged."""
    new_game(capsys, db)
    new_game(capsys, db)
    import sqlite3

    conn = sqlite3.connect(db)
    conn.execute("UPDATE games SET method = 'bogus' WHERE id = 1")
    conn.commit()
    conn.close()
    assert list_states(capsys, db) == ["damaged", "playing"]
