"""Two writers on one games file (the screen with its game in memory, and the CLI or a second
screen): a change made from a stale copy is refused and the copy reloaded, so a round saved
by one writer is never deleted or overwritten by the other."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path

import pygame
import pytest

from companion.app import CompanionApp
from companion.store.games import Store
from showdown.contract.errors import CompanionError
from showdown.contract.i18n import set_language
from tests.companion.screen.conftest import Driver
from uno_showdown.commands.cli import main

CHANGED = "changed elsewhere and has been reloaded"


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "games.db"


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out = capsys.readouterr()
    return status, out.out, out.err


def on_disk(db: Path) -> list[tuple[str, dict[str, str]]]:
    """The live rounds as a fresh connection reads them: winner and hands."""
    with Store(db) as store:
        game = store.games.load(store.games.latest_id())
        return [(r.winner, {n: h.text for n, h in r.hands.items()}) for r in game.rounds]


def dump(db: Path) -> str:
    conn = sqlite3.connect(db)
    try:
        return "\n".join(conn.iterdump())
    finally:
        conn.close()


@pytest.fixture
def two(db: Path) -> Iterator[tuple[CompanionApp, CompanionApp]]:
    """Two apps holding the same game of three players, with two rounds played."""
    first = CompanionApp.open(db, lang="en")
    first.new_game("classic", "winner", ["Ann", "Bob", "Cid"])
    first.record_round("Ann", points={"Bob": 10, "Cid": 20})
    first.record_round("Bob", points={"Ann": 5, "Cid": 7})
    second = CompanionApp.open(db, lang="en")
    yield first, second
    first.close()
    second.close()


def test_a_round_the_cli_saved_survives_the_screens_next_round(capsys, db):
    """The reviewer's case: the screen's next round used to delete the CLI's round."""
    assert cli(capsys, "game", "new", "--db", str(db), "--edition", "classic", "--method",
               "winner", "--players", "Ann,Bob")[0] == 0
    screen = CompanionApp.open(db, lang="en")
    try:
        status, out, _ = cli(capsys, "game", "round", "--db", str(db), "--winner", "Bob",
                             "--points", "Ann: 30")
        assert status == 0 and out.startswith("Round 1 saved.")
        with pytest.raises(CompanionError, match=CHANGED):
            screen.record_round("Ann", points={"Bob": 12})
        assert on_disk(db) == [("Bob", {"Ann": "30", "Bob": "-"})]
        assert [r.winner for r in screen.game.rounds] == ["Bob"]  # the screen reloaded it
        assert {s.name: s.total for s in screen.standings()} == {"Bob": 30, "Ann": 0}
        assert screen.record_round("Ann", points={"Bob": 12}).number == 2  # entered again
        assert [w for w, _ in on_disk(db)] == ["Bob", "Ann"]
    finally:
        screen.close()


STALE_CHANGES: dict[str, Callable[[CompanionApp], object]] = {
    "record": lambda app: app.record_round("Cid", points={"Ann": 1, "Bob": 2}),
    "undo": lambda app: app.undo(),
    "edit": lambda app: app.edit_round(1, "Cid", points={"Ann": 3, "Bob": 4}),
    "rename": lambda app: app.rename_player("Ann", "Anna"),
    "join": lambda app: app.add_player("Dan"),
}


@pytest.mark.parametrize("change", STALE_CHANGES, ids=list(STALE_CHANGES))
@pytest.mark.parametrize("elsewhere", ["record", "undo", "edit"])
def test_a_change_from_a_stale_copy_writes_nothing_and_reloads(two, db, change, elsewhere):
    first, second = two
    STALE_CHANGES[elsewhere](first)  # first moves the game on; second still has the old one
    before = dump(db)
    with pytest.raises(CompanionError, match=CHANGED):
        STALE_CHANGES[change](second)
    assert dump(db) == before  # what first saved is all there, untouched
    assert second.game == first.game and second.game.undone == first.game.undone
    STALE_CHANGES[change](second)  # from the reloaded game the change goes through
    with Store(db) as store:
        assert store.games.load(second.game.id) == second.game


def test_an_undone_round_is_not_brought_back_by_a_stale_edit_or_redo(two, db):
    first, second = two
    assert first.undo()  # round 2 taken back on one screen
    with pytest.raises(CompanionError, match=CHANGED):
        second.edit_round(2, "Cid", points={"Ann": 1, "Bob": 1})
    assert [w for w, _ in on_disk(db)] == ["Ann"]
    third = CompanionApp.open(db, lang="en")
    try:
        assert first.redo()
        with pytest.raises(CompanionError, match=CHANGED):
            third.redo()  # it still sees round 2 undone
        assert [w for w, _ in on_disk(db)] == ["Ann", "Bob"]
        assert third.game.rounds == first.game.rounds and not third.game.undone
    finally:
        third.close()


def test_writers_taking_turns_keep_every_round_in_order(two, db):
    first, second = two
    first.record_round("Cid", points={"Ann": 1, "Bob": 1})
    for app, winner in ((second, "Ann"), (first, "Bob"), (second, "Cid")):
        with pytest.raises(CompanionError, match=CHANGED):
            app.record_round(winner, points={n: 3 for n in ("Ann", "Bob", "Cid") if n != winner})
        app.record_round(winner, points={n: 3 for n in ("Ann", "Bob", "Cid") if n != winner})
    assert [w for w, _ in on_disk(db)] == ["Ann", "Bob", "Cid", "Ann", "Bob", "Cid"]


def test_changes_from_the_cli_are_kept_and_a_stale_app_catches_up(capsys, two, db):
    first, second = two
    assert cli(capsys, "game", "undo", "--db", str(db))[0] == 0
    assert cli(capsys, "game", "edit", "--db", str(db), "1", "--winner", "Cid",
               "--points", "Ann: 8", "--points", "Bob: 9")[0] == 0
    with pytest.raises(CompanionError, match=CHANGED):
        first.undo()  # it still believes two rounds are played, as before the CLI's undo
    assert first.game.rounds[0].winner == "Cid" and len(first.game.rounds) == 1
    assert first.redo() and [w for w, _ in on_disk(db)] == ["Cid", "Bob"]
    assert second.game.rounds[0].winner == "Ann"  # untouched until it changes something


# -- on the screen --


@pytest.fixture
def screen_app(db: Path) -> Iterator[CompanionApp]:
    pygame.font.init()
    set_language("en")
    app = CompanionApp.open(db, lang="en")
    app.new_game("classic", "winner", ["Ann", "Bob"])
    yield app
    app.close()


def test_the_screen_shows_the_change_and_keeps_what_was_tapped(capsys, screen_app, db):
    driver = Driver(screen_app)
    driver.tap("enter_round")
    driver.tap("winner:Ann")
    driver.tap("card:r5")  # Bob's hand
    assert cli(capsys, "game", "round", "--db", str(db), "--winner", "Bob",
               "--points", "Ann: 30")[0] == 0
    driver.tap("confirm")
    assert CHANGED in driver.view.error and driver.view.name == "round_entry"
    assert on_disk(db) == [("Bob", {"Ann": "30", "Bob": "-"})]
    driver.frame()  # the screen notices the reloaded game and keeps the round being entered
    assert [c.code for c in driver.view.hands["Bob"]] == ["r5"]
    driver.tap("confirm")  # as it was tapped: now round 2
    assert on_disk(db) == [("Bob", {"Ann": "30", "Bob": "-"}), ("Ann", {"Ann": "-", "Bob": "r5"})]


def test_undo_on_a_stale_screen_says_so_instead_of_failing(capsys, screen_app, db):
    screen_app.record_round("Ann", points={"Bob": 4})
    driver = Driver(screen_app)
    assert cli(capsys, "game", "round", "--db", str(db), "--winner", "Bob",
               "--points", "Ann: 30")[0] == 0
    assert driver.key(pygame.K_z, pygame.KMOD_CTRL)
    assert [w for w, _ in on_disk(db)] == ["Ann", "Bob"]  # nothing undone
    assert len(screen_app.game.rounds) == 2  # the screen shows both rounds now
