"""A games file that is not ours, damaged, read-only or on a full disk: one line, never a
traceback, and a foreign file left exactly as it was. And the table's screen outlives any
error from reading the file: it says so in one line and tries again at its next poll."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from companion.app import CompanionApp
from companion.store.errors import StoreError
from companion.store.games import Store
from tests.abuse.helpers import cli, refused


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "games.db"
    with CompanionApp.open(path, lang="en") as app:
        app.new_game("classic", "winner", ["Ann", "Bob"])
        app.record_round("Ann", points={"Bob": 12})
    return path


def sql(path: Path, *statements: str) -> None:
    conn = sqlite3.connect(path)
    try:
        for statement in statements:
            conn.execute(statement)
        conn.commit()
    finally:
        conn.close()


@pytest.mark.parametrize(("damage", "why"), [
    (("DROP TABLE duels",), "its table duels is missing"),
    (("ALTER TABLE rounds RENAME TO rounds_old",), "its table rounds is missing"),
    (("DELETE FROM players WHERE name = 'Bob'",), "game 1 in"),
    (("UPDATE hands SET cards = 'zz9', counted = NULL",), "is damaged"),
    (("UPDATE games SET method = 'chess'",), "is damaged"),
])
def test_a_damaged_games_file_is_one_line(capsys: pytest.CaptureFixture[str], db: Path,
                                          damage: tuple[str, ...], why: str) -> None:
    sql(db, "PRAGMA foreign_keys = OFF", *damage)
    for argv in (["game", "show"], ["game", "export"], ["game", "round", "--winner", "Ann",
                                                          "--points", "Bob: 1"]):
        refused(cli(capsys, *argv, "--db", str(db), "--lang", "en"), why)


def test_one_damaged_game_does_not_hide_the_others(capsys: pytest.CaptureFixture[str],
                                                   db: Path) -> None:
    """`game list` reads no game whole: it lists a damaged game from what the file keeps of
    it, and `game show` names the damage; a game whose end the file does not keep (an older
    uno-showdown wrote it last) is read whole, and marked `damaged`."""
    with CompanionApp.open(db, lang="en") as app:
        app.new_game("classic", "lazy", ["Cid", "Dan"])
    sql(db, "UPDATE hands SET cards = 'zz9', counted = NULL WHERE round_id IN "
            "(SELECT id FROM rounds WHERE game_id = 1)")
    status, out, _ = cli(capsys, "game", "list", "--db", str(db), "--lang", "en")
    assert status == 0 and "playing" in out.splitlines()[1] and "playing" in out.splitlines()[2]
    refused(cli(capsys, "game", "show", "--game", "1", "--db", str(db), "--lang", "en"),
            "game 1 in", "is damaged")
    # as an older uno-showdown leaves it: the game moved on, no end kept at its revision
    sql(db, "UPDATE games SET revision = revision + 1 WHERE id = 1")
    status, out, _ = cli(capsys, "game", "list", "--db", str(db), "--lang", "en")
    assert status == 0 and "damaged" in out.splitlines()[1] and "playing" in out.splitlines()[2]


def test_a_corrupt_file_is_one_line(capsys: pytest.CaptureFixture[str], db: Path) -> None:
    data = bytearray(db.read_bytes())
    data[100:4000] = os.urandom(3900)  # the first page's b-tree, past the header
    db.write_bytes(bytes(data))
    refused(cli(capsys, "game", "show", "--db", str(db)), "malformed")


def test_a_foreign_file_claiming_our_schema_version_is_refused_untouched(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    for version in (1, 3):
        other = tmp_path / f"other{version}.db"
        sql(other, "CREATE TABLE games (x)", f"PRAGMA user_version = {version}")
        before = other.read_bytes()
        refused(cli(capsys, "game", "list", "--db", str(other)), "not a games file",
                "table games")
        assert other.read_bytes() == before  # no migration ran on it


def test_a_folder_or_a_device_is_not_a_games_file(capsys: pytest.CaptureFixture[str],
                                                  tmp_path: Path) -> None:
    folder = cli(capsys, "game", "list", "--db", str(tmp_path))
    refused(folder, "is a folder")
    assert folder[2].count("--db") == 1, folder  # the advice once, not twice
    refused(cli(capsys, "game", "list", "--db", "/dev/null"), "not a games file")
    refused(cli(capsys, "game", "list", "--db", "/dev/full"), "free some disk space")
    too_long = cli(capsys, "game", "list", "--db", str(tmp_path / ("x" * 300)))
    refused(too_long, "cannot open the games file")
    assert "too long" in too_long[2], too_long  # the reason, not advice about permissions
    refused(cli(capsys, "game", "list", "--db", str(tmp_path / ("x" * 300) / "g.db")),
            "too long")
    refused(cli(capsys, "game", "list", "--db", ""), "is a folder")  # `--db "$UNSET"`


def _without_dac_override(prefix: list[str]) -> bool:
    """Whether a program started behind `prefix` really lacks both capabilities (bits 1, 2)."""
    done = subprocess.run([*prefix, "cat", "/proc/self/status"], capture_output=True,
                          text=True, timeout=30)
    effective = [ln.split()[1] for ln in done.stdout.splitlines() if ln.startswith("CapEff:")]
    return done.returncode == 0 and bool(effective) and int(effective[0], 16) & 0b110 == 0


@pytest.mark.skipif(not hasattr(os, "geteuid"), reason="file modes are POSIX")
def test_a_read_only_folder_is_called_read_only(db: Path) -> None:
    """Root (as in CI) is not bound by a folder's mode, so there the command runs as root
    without the capabilities that override file modes (CAP_DAC_OVERRIDE, _READ_SEARCH):
    still able to read the checkout, wherever it was cloned, but bound by the modes."""
    prefix: list[str] = []
    if os.geteuid() == 0:
        dropped = "-dac_override,-dac_read_search"
        prefix = ["setpriv", f"--bounding-set={dropped}", f"--inh-caps={dropped}",
                  "--ambient-caps=-all", "--"]
        if shutil.which("setpriv") is None or not _without_dac_override(prefix):
            pytest.skip("as root this needs setpriv (util-linux) allowed to drop capabilities")
    scratch = Path(tempfile.mkdtemp(prefix="uno-showdown-read-only-"))
    scratch.chmod(0o755)
    folder = scratch / "locked"
    folder.mkdir()
    locked = folder / "games.db"
    locked.write_bytes(db.read_bytes())
    locked.chmod(0o444)
    folder.chmod(0o555)
    tmp_path = scratch
    try:
        for target in (locked, folder / "new.db"):
            done = subprocess.run(
                [*prefix, sys.executable, "-m", "uno_showdown", "game", "show", "--db",
                 str(target)],
                capture_output=True, text=True, timeout=60, cwd=tmp_path,
                env={**os.environ, "HOME": str(tmp_path)})
            assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
            assert "for writing" in done.stderr and "writable" in done.stderr
            assert "Traceback" not in done.stderr
    finally:
        folder.chmod(0o755)
        shutil.rmtree(scratch)


def test_the_screen_outlives_any_error_from_a_refresh(db: Path, monkeypatch) -> None:
    from tests.companion.screen.conftest import Driver

    with CompanionApp.open(db, lang="en") as app:
        driver = Driver(app)
        shown = app.game
        sql(db, "ALTER TABLE duels RENAME TO gone")  # another program breaks the file
        driver.now_ms += 1000
        driver.frame()
        assert "cannot read the games file" in driver.screen._notice
        assert "\n" not in driver.screen._notice and app.game is shown  # still on screen
        sql(db, "ALTER TABLE gone RENAME TO duels")  # the file comes back
        with Store(db) as other:
            other.duels.add(1, 1, "Ann", "Bob", 2, "faster", "Ann", "Bob", 1, 2, "now")
        driver.now_ms += 1000
        driver.frame()
        assert app.last_duel() is not None  # read again, and caught up

        calls = []

        def broken(game_id: int, since: int) -> object:
            calls.append(game_id)
            raise RuntimeError("the disk went away")

        monkeypatch.setattr(app.store.duels, "changes", broken)
        app._seen_version = None
        for _ in range(3):
            driver.now_ms += 1000
            driver.frame()
        assert len(calls) == 3  # tried again at every poll
        assert driver.screen._notice == "The games file could not be read (RuntimeError); " \
                                        "trying again"


def test_a_refresh_that_failed_is_tried_again(db: Path, monkeypatch) -> None:
    """A failed read must not count as seen: the next poll reads again, and catches up,
    even when nothing was committed in between."""
    with CompanionApp.open(db, lang="en") as app, Store(db) as other:
        other.duels.add(1, 1, "Ann", "Bob", 2, "faster", "Ann", "Bob", 1, 2, "now")
        app.refresh()  # the duels as they are now, read whole once
        other.duels.add(1, 1, "Ann", "Bob", 1, "timeout", None, None, None, None, "later")
        real = app.store.duels.changes
        failures = iter([RuntimeError("the disk went away")])

        def changes_once_broken(game_id: int, since: int) -> object:
            for failure in failures:
                raise failure
            return real(game_id, since)

        monkeypatch.setattr(app.store.duels, "changes", changes_once_broken)
        with pytest.raises(RuntimeError):
            app.refresh()
        assert app.refresh() is True and app.last_duel().outcome == "timeout"


def test_store_reads_are_one_snapshot(db: Path) -> None:
    """What `games.load` reads comes from one transaction, closed again afterwards."""
    with Store(db) as store:
        with store.reading() as conn:
            first = store.games.load(1)
            sql(db, "DELETE FROM rounds")  # another program commits in between
            again = store.games.load(1)
            assert conn.in_transaction
        assert first == again and len(again.rounds) == 1
        assert not store.conn.in_transaction
        assert len(store.games.load(1).rounds) == 0
        with pytest.raises(StoreError, match="no game 7"):
            store.games.load(7)
        assert not store.conn.in_transaction


def test_a_long_notice_is_wrapped_to_the_screen_not_cut() -> None:
    import pygame

    from companion.screen.screen import NOTICE_PX, notice_lines
    from companion.touch import theme

    pygame.font.init()
    message = ("cannot read the games file /home/table/.local/share/uno-showdown/games.sqlite3 "
               "(database disk image is malformed): check the file, or choose another with --db")
    for width in (736, 376):  # the Pi's screen, the emulator's companion panel
        lines = notice_lines(message, width)
        assert 1 < len(lines) <= 3
        assert all(theme.font(NOTICE_PX, True).size(line)[0] <= width for line in lines)
        if len(lines) < 3 or not lines[-1].endswith("…"):
            assert " ".join(lines) == message  # every word is there to read
