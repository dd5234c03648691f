"""Every program that writes a game of an event moves the event's kept standings.

The companion imports nothing of the championship: the standings move through the watcher
the championship registers with the games file (`companion.store.game_watchers`), when its
store is imported and when the composition (`uno_showdown`) is. Each writer here is a fresh
interpreter, as a table's programs start, that loaded nothing of the standings' sums: after
its deal the sums the file keeps must equal a count of every deal. Without the
watcher they do not (the last test), so a program that wrote a game without it would fail
here.
"""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from championship.core.settings import make
from championship.desk.operations import Championship
from championship.store import standings_sums
from companion.app import CompanionApp
from companion.store import game_watchers

ROOT = Path(__file__).resolve().parents[2]
SUMS = "championship.store.standings_sums"

#: `uno-showdown game round` typed at the table: the composition, nothing of the championship
TERMINAL = f"""
import sys
from uno_showdown.commands.cli import main
assert {SUMS!r} not in sys.modules
status = main(sys.argv[1:])
assert {SUMS!r} in sys.modules  # imported by the watcher, to move the sums
sys.exit(status)
"""

#: a program of the championship's (a table's agent) that writes through the score keeper
CHAMPIONSHIP = f"""
import sys
import championship.store.table_file
from companion.app import CompanionApp
assert "uno_showdown" not in sys.modules
db, game_id, winner, *others = sys.argv[1:]
with CompanionApp.open(db, int(game_id)) as app:
    app.record_round(winner, points={{name: 7 for name in others}})
assert {SUMS!r} in sys.modules
"""


def _event(db: str) -> tuple[int, list[str]]:
    """A started event with one table; its game and players."""
    with Championship.open(db, lang="en") as champ:
        champ.new_event("Cup", make(tables=1, table_size=3, qualifying_minutes=600))
        champ.register(["Ann", "Bob", "Cid"])
        champ.draw(seed=1)
        champ.start()
        game_id = champ.snapshot().tables[0].game_id
        return game_id, list(champ.store.games.load(game_id).names)


def _sums(db: str) -> tuple[bool, int, int | None]:
    """Whether the kept sums equal a count of every deal; how many deals; their version."""
    with Championship.open(db, lang="en") as champ:
        same, deals = champ.check_sums()
        with champ.store.reading() as conn:
            version = conn.execute("SELECT sums_version FROM championship_events"
                                   ).fetchone()[0]
        return same, deals, version


def test_every_program_that_writes_an_events_game_moves_its_sums(tmp_path: Path) -> None:
    db = str(tmp_path / "cup.db")
    game_id, (winner, *others) = _event(db)
    same, deals, version = _sums(db)
    assert (same, deals) == (True, 0) and version is not None
    writers = [
        ("terminal", [TERMINAL, "game", "round", "--db", db, "--game", str(game_id),
                      "--winner", winner, *(a for n in others for a in ("--points", f"{n}: 12"))]),
        ("championship", [CHAMPIONSHIP, db, str(game_id), winner, *others]),
    ]
    for label, argv in writers:
        done = subprocess.run([sys.executable, "-c", *argv], cwd=ROOT, capture_output=True,
                              text=True, timeout=60)
        assert done.returncode == 0, (label, done.stderr)
        same, now_deals, now_version = _sums(db)
        assert (same, now_deals) == (True, deals + 1), label
        assert now_version is not None and now_version > version, label  # read afresh
        deals, version = now_deals, now_version


@pytest.mark.parametrize("modules", [("uno_showdown",), ("championship.store",),
                                     ("uno_showdown", "championship.store.table_file")])
def test_the_composition_and_the_championships_store_register_one_watcher(
        modules: tuple[str, ...]) -> None:
    """...on the sums' table, under one name: once the championship's store is loaded, its
    own watcher is the one called."""
    code = (f"import {', '.join(modules)}\nfrom companion.store import game_watchers\n"
            "print(*(f'{t} {f.__module__}' for t, f in game_watchers.watchers()))")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=60, check=True)
    home = "uno_showdown" if modules == ("uno_showdown",) else SUMS
    assert done.stdout.split() == [standings_sums.SUMS_TABLE, home]


def test_every_console_script_starts_in_the_composition() -> None:
    """...so each imports `uno_showdown` first, which registers the watcher."""
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts and all(s.startswith("uno_showdown.") for s in scripts.values())


def test_without_the_watcher_a_deal_leaves_the_sums_behind(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The check the tests above rely on sees a game written without the sums moving."""
    db = str(tmp_path / "cup.db")
    game_id, (winner, *others) = _event(db)
    monkeypatch.setattr(game_watchers, "_WATCHERS", {})
    with CompanionApp.open(db, game_id) as app:
        app.record_round(winner, points={name: 7 for name in others})
    same, deals, _version = _sums(db)
    assert (same, deals) == (False, 1)
