"""`uno-showdown event ...` as an organiser types it: what it prints, the JSON shapes of the
docs, and every refusal: one line on stderr, exit status 2, and the games file unchanged."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from fractions import Fraction
from pathlib import Path

import pytest

from championship.core.settings import make
from championship.desk.operations import Championship
from championship.store.event_store import SCHEMA_VERSION
from companion.app import CompanionApp
from companion.store.games import Store
from tests.championship.conftest import MINUTE_US, SimClock, run

PLAYERS = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy"]


def file_state(db: str) -> str:
    conn = sqlite3.connect(db)
    dump = "\n".join(conn.iterdump())
    conn.close()
    return hashlib.sha256(dump.encode()).hexdigest()


def play_deal(db: str, clock: SimClock, game_id: int) -> None:
    with CompanionApp.open(db, game_id, clock=clock) as app:
        assert app.game is not None
        names = app.game.names
        app.record_round(names[0], points={n: 10 + i for i, n in enumerate(names[1:])})


def make_state(db: str, clock: SimClock, state: str) -> None:
    """An event of 9 players at 1 table of 7 (two flights), brought to `state`."""
    Store(db).close()
    if state == "empty":
        return
    champ = Championship.open(db, clock=clock)
    champ.new_event("Cup", make(tables=1, finalists=5))
    if state == "new":
        return
    champ.register(PLAYERS)
    if state == "registered":
        return
    _draw, seated = champ.draw(seed=3)
    if state == "drawn":
        return
    if state == "stale":
        champ.register(["Jon"])
        return
    champ.start()
    if state == "running":
        return
    if state == "no_deals":  # qualifying over without a single deal
        for _flight in range(2):
            champ.end()
            champ.done(1)
            if _flight == 0:
                champ.start()
        return
    if state == "paused":
        champ.pause()
        return
    play_deal(db, clock, seated[0].game_id)
    champ.end()
    if state == "time_up":
        return
    champ.done(1)
    champ.start()
    play_deal(db, clock, seated[1].game_id)
    champ.end()
    champ.done(1)
    if state == "qualified":
        return
    final = champ.seat_final()
    if state == "final_seated":
        return
    champ.start()
    play_deal(db, clock, final.game_id)
    clock.advance(61)
    champ.done(1)
    assert state == "over"


REFUSALS: list[tuple[str, list[str], str]] = [
    ("empty", ["standings"], "there is no event yet: create one with `uno-showdown event new"),
    ("empty", ["new", "  ", "--tables", "2"], "an event needs a name"),
    ("empty", ["new", "Cup", "--tables", "0"], "--tables must be a whole number from 1 to 100"),
    ("empty", ["new", "Cup", "--tables", "101"], "--tables must be a whole number from 1"),
    ("empty", ["new", "Cup", "--tables", "2", "--table-size", "8"], "--table-size must be"),
    ("empty", ["new", "Cup", "--tables", "2", "--finalists", "1"], "--finalists must be"),
    ("empty", ["new", "Cup", "--tables", "2", "--time-up", "soon"], "--time-up must be"),
    ("empty", ["new", "Cup", "--tables", "2", "--tie-break", "age"], "unknown tie-break"),
    ("empty", ["new", "Cup", "--tables", "2", "--seating", "tight"], "--seating must be"),
    ("empty", ["new", "Cup", "--tables", "2", "--edition", "poker"], "unknown edition"),
    ("empty", ["new", "Cup", "--tables", "2", "--target", "0"], "--target must be"),
    ("empty", ["new", "Cup", "--tables", "2", "--final-minutes", "601"], "--final-minutes"),
    ("empty", ["new", "Cup", "--tables", "2", "--break-minutes", "-1"], "--break-minutes"),
    ("empty", ["new", "x" * 81, "--tables", "2"], "at most 80 characters"),
    ("new", ["standings", "--event", "7"], "there is no event 7"),
    ("new", ["set"], "give a setting to change"),
    ("new", ["set", "--tables", "0"], "--tables must be"),
    ("new", ["register", "Ann", "a:b"], "cannot be a player's name"),
    ("new", ["register", "Ann", " "], "a player's name cannot be empty"),
    ("new", ["register", "Anna", "anna"], "Anna is given twice: give each player a different "
     "name"),
    ("registered", ["register", "BOB"], "BOB is already registered as number 2"),
    ("new", ["draw"], "a draw needs at least 2 players and 0 can play"),
    ("registered", ["draw", "--seed", "-1"], "a seed is a whole number from 0"),
    ("registered", ["set", "--table-size", "3"], "--finalists (5) cannot be more than"),
    ("registered", ["set", "--table-size", "6"], None),  # fine: a change before the draw
    ("registered", ["withdraw", "99"], "there is no player number 99"),
    ("registered", ["start"], "draw the seats first"),
    ("registered", ["final"], "draw the seats first"),
    ("registered", ["pause"], "no stage has started yet"),
    ("registered", ["done", "--table", "1"], "no stage has started yet"),
    ("stale", ["start"], "players were registered after the draw: draw the seats again"),
    ("drawn", ["resume"], "no stage has started yet"),
    ("drawn", ["end"], "no stage has started yet"),
    ("drawn", ["final"], "Flight 1 has not been played yet"),
    ("running", ["register", "Zed"], "qualifying has started, so registration is closed"),
    ("running", ["draw"], "qualifying has started, so the seats cannot be drawn again"),
    ("running", ["set", "--tables", "3"], "the championship has started"),
    ("running", ["start"], "Flight 1 is under way: `uno-showdown event end --db "),
    ("running", ["resume"], "Flight 1 is running, not paused"),
    ("running", ["done", "--table", "1"], "Table 1 still has 45:00 to play"),
    ("running", ["done", "--table", "4"], "Flight 1 has no table 4: its tables are 1"),
    ("paused", ["pause"], "Flight 1 is already paused"),
    ("running", ["final"], "Flight 1 is still running (45:00 left): `uno-showdown event end "
     "--db "),
    ("paused", ["final"], "Flight 1 is still running (45:00 left)"),
    ("time_up", ["start"], "Flight 1 is not over: Table 1 may still record the deal"),
    ("time_up", ["end"], "the time of Flight 1 is already up"),
    ("time_up", ["pause"], "the time of Flight 1 is already up"),
    ("time_up", ["final"], "Flight 1 is not over: Table 1 may still record the deal"),
    ("no_deals", ["final"], "the final needs at least 2 players who played in qualifying"),
    ("qualified", ["start"], "seat the finalists first: `uno-showdown event final --db "),
    ("over", ["start"], "the championship is over"),
    ("over", ["withdraw", "1"], "the championship is over, so nobody can withdraw"),
    ("running", ["void", "--table", "1", "--deal", "g9:9", "--why", "x"],
     "table 1 has no deal g9:9: `uno-showdown event deals --table 1 --db "),
    ("time_up", ["restore", "--table", "1", "--deal", "g1:1", "--why", "x"],
     "deal g1:1 of table 1 counts already: only a void or held deal can be restored"),
    ("over", ["void", "--table", "1", "--deal", "g1:1", "--why", "recount"],
     "the final is seated, so the qualifying results are closed: deal g1:1 of table 1"),
    ("running", ["cards", "--html", "cards.html", "--url", "192.168.1.20:8080"],
     "--url must be the page's address, e.g. http://192.168.1.20:8080/"),
]


def test_results_text_has_the_whole_final_and_csv_and_cards_are_written(
        db: str, clock: SimClock, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import csv

    make_state(db, clock, "over")
    status, out, _err = run(capsys, "event", "results", "--db", db, "--csv",
                            str(tmp_path / "results.csv"))
    assert status == 0
    final = out.split("Final:\n", 1)[1].split("\n\n", 1)[0].splitlines()
    assert len(final) == 1 + 5  # the heading and every finalist, 4th and 5th places too
    assert [row.split()[0] for row in final[1:]] == ["1", "2", "3", "4", "5"]
    rows = list(csv.DictReader((tmp_path / "results.csv").open(encoding="utf-8")))
    assert [r["stage"] for r in rows] == ["final"] * 5 + ["qualifying"] * len(PLAYERS)
    first = rows[0]
    assert first["rank"] == "1" and Fraction(first["exact"]) == Fraction(
        int(first["points"]), int(first["games"]))
    status, _out, err = run(capsys, "event", "standings", "--db", db, "--csv",
                            str(tmp_path / "standings.csv"))
    assert status == 0 and "Standings written to" in err
    assert (tmp_path / "standings.csv").read_text().startswith("stage,rank,number,name")
    status, _out, err = run(capsys, "event", "cards", "--db", db, "--html",
                            str(tmp_path / "cards.html"), "--url", "http://10.0.0.5:8080/")
    cards = (tmp_path / "cards.html").read_text()
    assert status == 0 and cards.count('class="card"') == 3  # two flights and the final
    assert cards.count("<svg") == 3 and "http://10.0.0.5:8080/" in cards
    assert "<script" not in cards


@pytest.mark.parametrize(("state", "argv", "words"), REFUSALS,
                         ids=[f"{s}:{' '.join(a)[:30]}" for s, a, _w in REFUSALS])
def test_a_refusal_is_one_line_exit_2_and_writes_nothing(
        state: str, argv: list[str], words: str | None, db: str, clock: SimClock,
        capsys: pytest.CaptureFixture[str]) -> None:
    make_state(db, clock, state)
    before = file_state(db)
    status, out, err = run(capsys, "event", *argv, "--db", db)
    if words is None:
        assert status == 0, err
        return
    assert (status, out) == (2, ""), err
    assert err.count("\n") == 1 and err.startswith("uno-showdown event: ")
    assert words in err and "Traceback" not in err
    assert file_state(db) == before


def test_a_bad_db_or_language_is_one_line(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    foreign = tmp_path / "other.db"
    conn = sqlite3.connect(foreign)
    conn.execute("CREATE TABLE notes (x)")
    conn.commit()
    conn.close()
    for argv, words in [(["--db", str(foreign)], "is not a games file"),
                        (["--db", str(tmp_path)], "is a folder, not a games file"),
                        (["--db", str(tmp_path / "g.db"), "--lang", "fr"],
                         "unknown language 'fr'")]:
        status, out, err = run(capsys, "event", "show", *argv)
        assert (status, out, err.count("\n")) == (2, "", 1) and words in err, err


@pytest.mark.parametrize("argv", [
    ["new", "Cup", "--tables", "0"], ["new", " ", "--tables", "2"], ["list"], ["show"],
    ["standings"], ["results"], ["final", "--json"], ["register", "Ann"], ["draw"],
    ["start"]])
def test_a_command_that_fails_leaves_no_games_file_behind(
        argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "sub" / "dir" / "typo.db"
    status, out, err = run(capsys, "event", *argv, "--db", str(db))
    assert (status, out, err.count("\n")) == (2, "", 1), err
    if argv[0] != "new":
        assert f"there is no games file at {db}" in err
    assert not (tmp_path / "sub").exists()


def test_an_event_takes_a_bounded_number_of_players(db: str, clock: SimClock,
                                                     capsys: pytest.CaptureFixture[str],
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    import championship.desk.operations

    make_state(db, clock, "registered")
    monkeypatch.setattr(championship.desk.operations, "MAX_PLAYERS", 10)
    before = file_state(db)
    status, _out, err = run(capsys, "event", "register", "--db", db, "Jon", "Kim")
    assert status == 2 and "an event takes at most 10 players" in err
    assert file_state(db) == before


@pytest.mark.parametrize("size", ["big", "100x100"])
def test_a_bad_screen_size_is_one_line(size: str, db: str, clock: SimClock,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    make_state(db, clock, "new")
    status, _out, err = run(capsys, "event", "screen", "--db", db, "--size", size)
    assert status == 2 and err.count("\n") == 1 and "WIDTHxHEIGHT" in err


def test_writing_the_sheet_where_it_cannot_be_written(db: str, clock: SimClock,
                                                      capsys: pytest.CaptureFixture[str],
                                                      tmp_path: Path) -> None:
    make_state(db, clock, "registered")
    status, _out, err = run(capsys, "event", "results", "--db", db, "--html", str(tmp_path))
    assert status == 2 and err.count("\n") == 1 and "cannot write" in err


def test_the_json_shapes_are_the_documented_ones(db: str, clock: SimClock,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    make_state(db, clock, "new")
    status, out, _err = run(capsys, "event", "register", "--db", db, *PLAYERS)
    assert status == 0 and out.splitlines()[0].split() == ["1", "Ann"]
    status, out, _err = run(capsys, "event", "draw", "--db", db, "--seed", "11", "--json")
    draw = json.loads(out)
    assert list(draw) == ["seed", "flights"] and draw["seed"] == 11
    for f in draw["flights"]:
        assert list(f) == ["flight", "minutes", "tables"]
        for t in f["tables"]:
            assert list(t) == ["table", "game", "players"]
            assert all(isinstance(n, int) for n in t["players"])
    status, out, _err = run(capsys, "event", "standings", "--db", db, "--json")
    lines = json.loads(out)
    assert [list(ln) for ln in lines] == [["rank", "number", "name", "points", "games",
                                           "result"]] * len(PLAYERS)
    assert all(ln["rank"] is None and ln["result"] is None for ln in lines)
    status, out, _err = run(capsys, "event", "results", "--db", db, "--json")
    results = json.loads(out)
    assert {"places", "luckiest"} <= set(results)
    assert results["places"] == [] and results["luckiest"] is None


def test_the_text_output_reads_well(db: str, clock: SimClock,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "event", "new", "UNO Cup", "--tables", "1", "--db", db)
    assert (status, out) == (0, "1\n")
    assert "When the time is up, the deal in progress is played to its end and counts." in err
    assert "Equal results: fewer points, more games, the draw's lot." in err
    run(capsys, "event", "register", "--db", db, *PLAYERS)
    status, out, _err = run(capsys, "event", "draw", "--db", db, "--seed", "5")
    assert out.splitlines()[0] == "Seats drawn with seed 5: 2 flights."
    assert out.splitlines()[1] == "Flight 1 (45 min):"
    status, out, _err = run(capsys, "event", "start", "--db", db)
    assert out.splitlines() == ["Flight 1 has started.",
                                out.splitlines()[1]] and "45:00 left" in out
    clock.advance(10)
    status, out, _err = run(capsys, "event", "pause", "--db", db)
    assert "Flight 1: paused with 35:00 left." in out
    status, out, _err = run(capsys, "event", "show", "--db", db)
    assert "Table 1: paused, 0 deals, game 1" in out
    status, out, _err = run(capsys, "event", "resume", "--db", db)
    assert "Flight 1 goes on." in out
    status, out, _err = run(capsys, "event", "end", "--db", db)
    assert out.splitlines() == ["Time is up for Flight 1.",
                                "  Table 1: finishing the deal in progress, 0 deals, game 1"]
    status, out, _err = run(capsys, "event", "done", "--db", db, "--table", "1")
    assert out == "Table 1 of Flight 1 is done.\n"
    clock.advance(3)
    status, out, _err = run(capsys, "event", "show", "--db", db)
    assert "Flight 1: time is up. Break: 12:00 left." in out
    status, out, _err = run(capsys, "event", "list", "--db", db)
    assert out.splitlines()[1].split()[:3] == ["1", "UNO", "Cup"]


def test_settings_change_until_the_start_and_a_changed_draw_must_be_redone(
        db: str, clock: SimClock, capsys: pytest.CaptureFixture[str]) -> None:
    make_state(db, clock, "drawn")
    status, out, err = run(capsys, "event", "set", "--db", db, "--tables", "2",
                           "--time-up", "stop")
    assert status == 0 and "draw them again" in err
    assert "play stops at once and the deal in progress does not count" in out
    status, _out, err = run(capsys, "event", "start", "--db", db)
    assert status == 2 and "the settings changed after the draw" in err
    assert "(--seed 3 uses the same seed, but with other players or settings the seats " \
        "come out differently)" in err
    status, out, _err = run(capsys, "event", "draw", "--db", db, "--seed", "3")
    assert status == 0 and "one flight" in out
    status, out, _err = run(capsys, "event", "start", "--db", db)
    assert status == 0 and "Qualifying has started." in out
    clock.advance(60)
    snap = Championship.open(db, clock=clock).snapshot()
    assert all(t.done for t in snap.tables)  # --time-up stop: no deal after the time
    assert snap.clock.break_left_us == 10 * MINUTE_US


def test_the_championship_keeps_its_own_schema_version(db: str, clock: SimClock,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    make_state(db, clock, "empty")
    conn = sqlite3.connect(db)
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    companion_version = conn.execute("SELECT version FROM schema_parts WHERE part = 'games'"
                                     ).fetchone()
    conn.close()
    assert not any(t.startswith("championship") for t in tables)  # nothing until an event
    make_state(db, clock, "new")
    conn = sqlite3.connect(db)
    assert conn.execute("SELECT version FROM schema_parts WHERE part = 'championship'"
                        ).fetchone() == (SCHEMA_VERSION,)
    assert conn.execute("SELECT version FROM schema_parts WHERE part = 'games'"
                        ).fetchone() == companion_version
    conn.execute("UPDATE schema_parts SET version = 99 WHERE part = 'championship'")
    conn.commit()
    conn.close()
    status, _out, err = run(capsys, "event", "show", "--db", db)
    assert status == 2 and "written by a newer uno-showdown (schema 99)" in err


def test_a_finalists_count_nobody_gave_follows_the_table_size(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "cup.db")

    def finalists() -> int:
        with Championship.open(db) as champ:
            return champ.snapshot().settings.finalists

    assert run(capsys, "event", "new", "Cup", "--tables", "2", "--db", db)[0] == 0
    for size, expected in ((5, 5), (7, 7), (3, 3)):
        status, _out, err = run(capsys, "event", "set", "--table-size", str(size), "--db", db)
        assert (status, finalists()) == (0, expected), err
    assert run(capsys, "event", "set", "--table-size", "7", "--finalists", "4", "--db", db
               )[0] == 0
    assert run(capsys, "event", "set", "--table-size", "6", "--db", db)[0] == 0
    assert finalists() == 4  # given: kept
    status, _out, err = run(capsys, "event", "set", "--table-size", "3", "--db", db)
    assert status == 2 and "--finalists (4) cannot be more than --table-size (3)" in err


def test_points_and_games_are_counted_in_each_language(
        db: str, clock: SimClock, capsys: pytest.CaptureFixture[str]) -> None:
    make_state(db, clock, "over")  # every finalist played one deal of the final
    _status, out, _err = run(capsys, "event", "results", "--db", db)
    first = out.splitlines()[0]
    assert " in 1 game, result " in first and "1 games" not in out
    _status, out, _err = run(capsys, "event", "results", "--db", db, "--lang", "ru")
    assert " за 1 игру, результат " in out.splitlines()[0]
    from championship.desk.sheet import results_sheet
    from showdown.contract.i18n import set_language

    try:
        with Championship.open(db, clock=clock, lang="uk") as champ:
            sheet = results_sheet(champ.snapshot())
    finally:
        set_language("en")
    assert "за 1 гру)" in sheet


def list_states(capsys: pytest.CaptureFixture[str], db: str) -> list[str]:
    """The last column of `game list`, game by game."""
    status, out, _err = run(capsys, "game", "list", "--db", db)
    assert status == 0
    return [line.split()[-1] for line in out.splitlines()[1:]]


def test_game_list_says_over_once_the_table_is_done_or_has_moved_on(
        capsys: pytest.CaptureFixture[str], db: str, clock: SimClock, tmp_path: Path) -> None:
    """Nobody reaches the target at a championship's table: its game ends with its time box
    (the deal in progress recorded after the time, or the stage called done) or when the
    table plays on in another game (a player withdrew). `game list` says so, as `game show`
    does, from what the file keeps."""
    make_state(db, clock, "running")  # game 1 is flight 1's, game 2 flight 2's (waiting)
    assert list_states(capsys, db) == ["playing", "playing"]
    champ = Championship.open(db, clock=clock)
    champ.withdraw(2)  # Bob, at flight 1's table: it plays on without him in game 3
    assert list_states(capsys, db) == ["over", "playing", "playing"]
    champ.end()  # time is up: the deal in progress may still be recorded
    assert list_states(capsys, db) == ["over", "playing", "playing"]
    play_deal(db, clock, 3)
    assert list_states(capsys, db) == ["over", "playing", "over"]

    other = str(tmp_path / "final.db")
    make_state(other, clock, "final_seated")  # both flights called done; the final waits
    assert list_states(capsys, other) == ["over", "over", "playing"]
