"""A games file locked by another program: the table goes on, and no duel is lost.

The recorder writes on its own thread and connection and tries again until the file can
be written; at shutdown it names what is still pending in one line; and
`uno-showdown game duels --recover-from LOG` takes those duels back from the duel log,
once each however often it is run.
"""

from __future__ import annotations

import logging
import random
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

from companion.app import CompanionApp
from companion.store.duels import DuelRecorder
from companion.store.recover import iter_lines, read_log
from hardware.fake import FakeUnit
from showdown.contract.events import DuelResult, Outcome, Side, VerdictGiven
from showdown.duel.engine import DuelConfig
from showdown.service.duel_log import DuelLog
from showdown.service.loop import ShowdownService
from tests.companion.test_duels import Heard, duel
from uno_showdown.commands.cli import main

L, R = Side.LEFT, Side.RIGHT


@contextmanager
def locked(db: Path) -> Iterator[None]:
    """Another program holds the games file's write lock (and a read lock: nothing goes in)."""
    other = sqlite3.connect(db, isolation_level=None, timeout=0)
    other.execute("BEGIN EXCLUSIVE")
    try:
        yield
    finally:
        other.execute("ROLLBACK")
        other.close()


def table(tmp_path: Path) -> tuple[CompanionApp, FakeUnit, ShowdownService, Heard, Path]:
    app = CompanionApp.open(tmp_path / "games.db", lang="en")
    app.new_game("classic", "winner", ["Ann", "Bob", "Cid"])
    unit = FakeUnit()
    log = tmp_path / "duels.jsonl"
    service = ShowdownService(unit, DuelConfig(), rng=random.Random(4),
                              duel_log=DuelLog(log), listeners=(app.on_service_event,))
    return app, unit, service, Heard(service), log


def test_a_locked_file_delays_nothing_and_the_duel_is_recorded_once_it_is_free(tmp_path):
    app, unit, service, heard, _log = table(tmp_path)
    app._duel_recorder().busy_timeout_s = 0.05  # each try gives up quickly: it is tried again
    with locked(tmp_path / "games.db"):
        started = time.monotonic()
        duel(service, unit, heard, {L: "Ann", R: "Bob"}, 180, 240)
        assert time.monotonic() - started < 2.0  # the loop never waited on the file
        assert [type(e) for e in heard if isinstance(e, VerdictGiven)] == [VerdictGiven]
        assert not app.flush_duels(1.0)  # still pending: the file is locked
        assert app._duel_recorder().failures >= 1
        assert app.pending_duels() == ["duel 1 (Ann vs Bob)"]
        assert app.refresh() is False or app.duels() == []  # the screen is not held up
    assert app.flush_duels(10.0)  # tried again once the lock is gone
    app.refresh()
    (row,) = app.duels()
    assert (row.challenger, row.opponent, row.winner) == ("Ann", "Bob", "Ann")
    assert row.reaction_us == {"Ann": 180_000, "Bob": 240_000}
    service.close()
    app.close()


def test_what_is_pending_at_shutdown_is_named_and_taken_back_from_the_log(
        tmp_path, caplog, capsys):
    app, unit, service, heard, log = table(tmp_path)
    db = tmp_path / "games.db"
    with locked(db):
        duel(service, unit, heard, {L: "Ann", R: "Bob"}, 180, 240)
        duel(service, unit, heard, {L: "Cid", R: "Ann"}, 300, 200)
        service.close()
        with caplog.at_level(logging.WARNING):
            app.close(flush_timeout_s=0.2)
    lines = [r.getMessage() for r in caplog.records if "not recorded" in r.getMessage()]
    assert len(lines) == 1
    assert "2 duel(s) not recorded" in lines[0] and "duel 1 (Ann vs Bob)" in lines[0]
    assert "--recover-from" in lines[0]

    argv = ["game", "duels", "--db", str(db), "--recover-from", str(log)]
    assert main(argv) == 0
    assert "2 duel(s) taken back" in capsys.readouterr().out
    assert main(argv) == 0  # again: nothing twice
    assert "0 duel(s) taken back" in capsys.readouterr().out
    with CompanionApp.open(db) as reopened:
        duels = reopened.duels()
        assert [(d.challenger, d.opponent, d.winner) for d in duels] == [
            ("Ann", "Bob", "Ann"), ("Cid", "Ann", "Ann")]
        assert duels[1].reaction_us == {"Cid": 300_000, "Ann": 200_000}  # both times
    assert main(["game", "duels", "--db", str(db)]) == 0
    listing = capsys.readouterr().out
    assert "Ann - Bob" in listing and "Cid - Ann" in listing


def test_recovery_leaves_out_other_games_players_and_says_so(tmp_path, capsys):
    app, unit, service, heard, log = table(tmp_path)
    duel(service, unit, heard, {L: "Ann", R: "Bob"}, 180, 240)
    service.close()
    app.close()
    db = tmp_path / "games.db"
    assert main(["game", "new", "--db", str(db), "--edition", "classic", "--method",
                 "winner", "--players", "Zoe,Yan"]) == 0
    capsys.readouterr()
    assert main(["game", "duels", "--db", str(db), "--recover-from", str(log)]) == 0
    out, err = capsys.readouterr()
    assert "0 duel(s) taken back" in out
    assert "1 duel(s) of players not in this game were left out" in err


def test_a_missing_log_is_one_line(tmp_path, capsys):
    CompanionApp.open(tmp_path / "g.db").close()
    status = main(["game", "duels", "--db", str(tmp_path / "g.db"), "--recover-from",
                   str(tmp_path / "nope.jsonl")])
    assert status == 2
    err = capsys.readouterr().err
    assert "cannot read" in err and "Traceback" not in err


# --- which duels a recovery takes, and where it files them --------------------------

#: 2024-05-01 20:00:00 UTC, in microseconds, and an hour.
EVENING_US, HOUR_US = 1_714_593_600_000_000, 3_600_000_000


def _at(us: int) -> str:
    return datetime.fromtimestamp(us / 1_000_000, UTC).isoformat(timespec="seconds")


def logged_duels(log: Path, times_us: list[int], players: dict[Side, str]) -> None:
    """One duel per time, each won by the left player, its verdict stamped at that time."""
    stamp = iter(times_us)
    unit = FakeUnit()
    service = ShowdownService(unit, DuelConfig(), rng=random.Random(4),
                              duel_log=DuelLog(log, wall_clock=lambda: _at(next(stamp))))
    heard = Heard(service)
    for _ in times_us:
        duel(service, unit, heard, players, 180, 240)
    service.close()


def test_recovery_takes_only_the_games_own_duels_after_the_round_each_was_played_in(
        tmp_path, capsys):
    """A log holds every session's duels: one from a year before the game began and one
    after it ended are left out (and counted); the game's own are filed after the rounds
    played before each, not after the round now in play."""
    log, db = tmp_path / "duels.jsonl", tmp_path / "games.db"
    now = [EVENING_US]
    with CompanionApp.open(db, lang="en", clock=lambda: now[0]) as app:
        app.new_game("classic", "winner", ["Ann", "Bob"])
        for minutes in (10, 20, 30):
            now[0] = EVENING_US + minutes * 60_000_000
            app.record_round("Ann", points={"Bob": 10})
    m = 60_000_000
    logged_duels(log, [EVENING_US - 365 * 24 * HOUR_US,  # last year, another game
                       EVENING_US + 5 * m, EVENING_US + 25 * m, EVENING_US + 40 * m,
                       EVENING_US + 30 * m],  # the same second as round 3: before it
                 {L: "Ann", R: "Bob"})
    with CompanionApp.open(db, lang="en", clock=lambda: EVENING_US + HOUR_US) as app:
        done = app.recover_duels(read_log(iter_lines(str(log))))
        assert (done.taken, done.outside) == (4, 1)
        assert [d.after_round for d in app.duels()] == [0, 2, 3, 2]
        again = app.recover_duels(read_log(iter_lines(str(log))))
        assert (again.taken, again.already, again.outside) == (0, 4, 1)


def test_a_finished_game_takes_no_duel_played_after_its_last_round(tmp_path, capsys):
    log, db = tmp_path / "duels.jsonl", tmp_path / "games.db"
    now = [EVENING_US]
    with CompanionApp.open(db, lang="en", clock=lambda: now[0]) as app:
        game_id = app.new_game("classic", "winner", ["Ann", "Bob"], target=1)  # one round
        now[0] += 10 * 60_000_000
        app.record_round("Ann", points={"Bob": 10})
        assert app.game is not None and app.game.verdict.over
    logged_duels(log, [EVENING_US + 5 * 60_000_000, EVENING_US + 20 * 60_000_000],
                 {L: "Ann", R: "Bob"})
    status = main(["game", "duels", "--db", str(db), "--game", str(game_id),
                   "--recover-from", str(log)])
    out, err = capsys.readouterr()
    assert status == 0 and "1 duel(s) taken back" in out
    assert err.strip() == ("1 duel(s) in the log were not played during this game (before it "
                           "began or after it ended) and were left out.")


def test_past_its_limit_the_recorder_drops_new_verdicts_and_names_every_one(tmp_path, caplog):
    """Weeks of verdicts waiting for a file locked all along: the queue stays bounded, the
    drop is said once, and closing names the dropped duels with the ones still waiting."""
    db = tmp_path / "games.db"
    with CompanionApp.open(db, lang="en") as app:
        game_id = app.new_game("classic", "winner", ["Ann", "Bob"])
    recorder = DuelRecorder(db, lambda: (game_id, 0), busy_timeout_s=0.05, limit=2)
    result = DuelResult(Outcome.FASTER, L, R, None, (), {L: 180_000, R: 240_000},
                        decided_at_us=1)
    players = {L: "Ann", R: "Bob"}
    with locked(db):
        recorder(VerdictGiven(1, result, L, R, 1, players))
        deadline = time.monotonic() + 10
        while recorder.failures == 0 and time.monotonic() < deadline:  # duel 1 is in hand
            threading.Event().wait(0.01)
        assert recorder.failures >= 1
        for duel_id in (2, 3, 4):
            recorder(VerdictGiven(duel_id, result, L, R, 1, players))
        left = recorder.close(0.1)
    assert sorted(left) == [f"duel {n} (Ann vs Bob)" for n in (1, 2, 3, 4)]
    drops = [r for r in caplog.records if "has not taken a duel for 2 duels" in r.getMessage()]
    assert len(drops) == 1 and drops[0].levelno == logging.ERROR
