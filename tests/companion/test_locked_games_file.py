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
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from companion.app import CompanionApp
from hardware.fake import FakeUnit
from showdown.cli import main
from showdown.duel import DuelConfig
from showdown.duel_log import DuelLog
from showdown.events import Side, VerdictGiven
from showdown.service import ShowdownService
from tests.companion.test_duels import Heard, duel

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
    app._recorder.busy_timeout_s = 0.05  # each try gives up quickly: it is tried again
    with locked(tmp_path / "games.db"):
        started = time.monotonic()
        duel(service, unit, heard, {L: "Ann", R: "Bob"}, 180, 240)
        assert time.monotonic() - started < 2.0  # the loop never waited on the file
        assert [type(e) for e in heard if isinstance(e, VerdictGiven)] == [VerdictGiven]
        assert not app.flush_duels(1.0)  # still pending: the file is locked
        assert app._recorder.failures >= 1
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
