"""What the commands typed at a Pi import before they answer: a Pi-class CPU (or the Pi
under emulation) pays for each module at every start.

`uno-showdown game list` as the guide has it (the games file found at its default place,
no `--db`) imports no platformdirs: on Linux the default place is platformdirs' own rule,
followed without its import, and still the same place. `--help` and `--version` import
neither typing nor pathlib; `game list` neither threading nor platformdirs. No game command
imports typing or threading; `game list` builds no deck, no scoring method, no time box
(where the file has none) and decodes no JSON, nor does `game show`. The interpreter is
started without site (`-S`) so what is counted is ours, not what a development install's
import hooks load.

The shortcuts those take, the decks' and the current schema's names written out, are held
equal here to what they stand for.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import platformdirs
import pytest

from companion.deck import EDITION_KEYS
from companion.deck.editions import EDITIONS
from companion.store import schema
from companion.store.games_file import APP_NAME, DB_NAME, default_db_path
from companion.store.games_schema import CURRENT_TABLES, PART, SCHEMA_VERSION
from companion.store.time_boxes import IN_PLAY_STATES
from companion.table.timebox import State

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("data_home", [None, "", "   ", "/srv/elsewhere"])
def test_the_default_games_file_is_where_platformdirs_puts_it(data_home: str | None,
                                                              monkeypatch) -> None:
    if data_home is None:
        monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    else:
        monkeypatch.setenv("XDG_DATA_HOME", data_home)
    expected = Path(platformdirs.user_data_dir(APP_NAME, appauthor=False)) / DB_NAME
    assert default_db_path() == str(expected)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the rule is Linux's")
def test_game_list_without_db_imports_no_platformdirs(tmp_path: Path) -> None:
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path), PYTHONPATH=str(ROOT))
    code = ("import sys\nfrom uno_showdown.commands.cli import main\n"
            "status = main(['game', 'list'])\n"
            "print(status, 'platformdirs' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, cwd=tmp_path, timeout=60, check=False)
    assert done.stdout.split()[-2:] == ["0", "False"], done.stdout + done.stderr
    assert (tmp_path / APP_NAME / DB_NAME).exists()  # it did open the default file


def imported_by(tmp_path: Path, *argv: str) -> set[str]:
    """The modules a fresh interpreter (no site) holds after `uno-showdown ARGV`."""
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path), PYTHONPATH=str(ROOT))
    code = ("import sys\nfrom uno_showdown.commands.cli import main\n"
            "try:\n    main(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
            "print('\\n'.join(sorted(sys.modules)), file=sys.stderr)")
    done = subprocess.run([sys.executable, "-S", "-c", code, *argv], capture_output=True,
                          text=True, env=env, cwd=tmp_path, timeout=60, check=False)
    return set(done.stderr.split())


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the rule is Linux's")
def test_help_version_and_game_list_leave_the_heavy_standard_modules_alone(
        tmp_path: Path) -> None:
    for argv in (("--help",), ("--version",)):
        listed = imported_by(tmp_path, *argv)
        assert "uno_showdown.commands.cli" in listed  # it ran
        assert not {"typing", "pathlib"} & listed, (argv, {"typing", "pathlib"} & listed)
    new = ("game", "new", "--edition", "showdown", "--method", "winner", "--players", "Ann,Bob")
    assert "companion.store.games" in imported_by(tmp_path, *new)
    listing = imported_by(tmp_path, "game", "list")
    assert "companion.store.game_list" in listing
    heavy = {"threading", "platformdirs", "pathlib"}
    assert not heavy & listing, heavy & listing


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the rule is Linux's")
def test_the_game_commands_leave_typing_and_what_they_do_not_use_alone(tmp_path: Path) -> None:
    """What a Pi pays for at each start of the commands typed at the table: no game command
    imports typing (annotations only, `TYPE_CHECKING`) or pathlib (the games file's path is
    a string); `game list` no more than the games
    file's own code: no deck, card, scoring method, time box or JSON decoder."""
    db = str(tmp_path / "games.db")
    new = ("game", "new", "--db", db, "--edition", "showdown", "--method", "winner",
           "--players", "Ann,Bob,Cid")
    assert "companion.store.games" in imported_by(tmp_path, *new)
    listing = imported_by(tmp_path, "game", "list", "--db", db)
    assert "companion.store.game_list" in listing  # it ran
    building = {"typing", "json", "contextlib", "companion.deck.editions", "companion.deck.cards",
                "companion.scoring.base", "companion.scoring.options",
                "companion.table.timebox", "companion.store.time_boxes"}
    assert not building & listing, building & listing
    for argv in (("game", "show", "--db", db),
                 ("game", "round", "--db", db, "--winner", "Ann", "--hand", "Bob: r1",
                  "--hand", "Cid: r1")):
        listed = imported_by(tmp_path, *argv)
        assert "companion.app" in listed, argv  # it ran
        # pathlib brings urllib.parse, ipaddress and fnmatch: a tenth of the start on a Pi
        # importlib's package: the command's module is loaded by `__import__`
        assert not {"typing", "threading", "pathlib", "importlib"} & listed, argv
        # a game played without a clock loads no time box's model
        assert "companion.table.timebox" not in listed, argv
        # the tally is rows (`companion.store.tally_rows`), the transactions are classes
        assert not {"json", "contextlib"} & listed, argv
        if argv[1] == "show":
            # a game without duels: no duel statistics
            assert "companion.store.duel_stats" not in listed


def test_what_the_start_path_reads_written_out_is_what_it_stands_for() -> None:
    """The editions' keys `game list` checks without building the decks, the tables and
    columns a current games file is checked against without running the schema's steps, and
    the states of a box in play asked for without loading the boxes' model."""
    assert tuple(EDITIONS) == EDITION_KEYS
    assert dict(CURRENT_TABLES) == schema.tables_at(PART, SCHEMA_VERSION)
    assert (State.OPEN.value, State.PAUSED.value) == IN_PLAY_STATES
