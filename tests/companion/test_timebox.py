"""Time boxes: a table that plays against a clock run by another program.

Whoever runs the clock writes the box to the games file; every way of recording (the app
behind the screen, `uno-showdown game round`) asks it inside its own transaction. So a
round is taken while the clock runs or stands, the one deal in progress when the time is up
is taken too, and then nothing more; a game that ends inside the box goes on in a new game
with the same seats, dealt by whoever went out.
"""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.app import CompanionApp
from companion.scoring import Rules
from companion.store.games import Store
from companion.store.games_schema import SCHEMA_VERSION
from companion.table.game import Game
from companion.table.timebox import Phase, State, TimeBox, TimeBoxError, clock_text
from showdown.contract.errors import CompanionError
from showdown.contract.record import replace
from uno_showdown.commands.cli import main

M = 60_000_000
T0 = 1_700_000_000_000_000


class Clock:
    def __init__(self) -> None:
        self.now_us = T0

    def __call__(self) -> int:
        return self.now_us


def test_the_phases_of_a_box() -> None:
    box = TimeBox("Table 2", left_us=45 * M)
    assert box.phase(T0) is Phase.WAITING and box.left(T0) == 45 * M
    box = box.opened(T0, 45 * M)
    assert box.phase(T0 + 44 * M) is Phase.OPEN and box.left(T0 + 44 * M) == M
    paused = box.paused(T0 + 10 * M)
    assert paused.phase(T0 + 500 * M) is Phase.PAUSED and paused.left(T0 + 500 * M) == 35 * M
    box = paused.resumed(T0 + 20 * M)
    assert box.ends_at_us == T0 + 55 * M
    assert box.phase(T0 + 55 * M) is Phase.LAST_DEAL and box.check_add(T0 + 55 * M) is True
    assert replace(box, late_rounds=1).phase(T0 + 55 * M) is Phase.DONE
    assert replace(box, grace_rounds=0).phase(T0 + 55 * M) is Phase.DONE
    assert box.ended(T0 + 30 * M).ends_at_us == T0 + 30 * M
    assert box.finished().phase(T0) is Phase.DONE
    with pytest.raises(TimeBoxError, match="Table 2: the clock has not started yet"):
        TimeBox("Table 2").check_add(T0)
    with pytest.raises(TimeBoxError, match="seated by the organiser"):
        box.check_players()
    with pytest.raises(TimeBoxError, match="results of this table were taken"):
        box.sealed().check_edit()


def test_the_clock_reads_as_people_read_clocks() -> None:
    assert [clock_text(us) for us in (0, 1, 59_000_001, 45 * M, 61 * M + 9_000_000, -5)] == [
        "0:00", "0:01", "1:00", "45:00", "1:01:09", "0:00"]


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def boxed(tmp_path: Path, clock: Clock) -> Iterator[tuple[CompanionApp, int]]:
    """A championship game for Ann, Bob and Cid in a box, its clock started now for 30 min."""
    db = tmp_path / "games.db"
    store = Store(db)
    game = Game.new("classic", Rules.make("championship", 100), ["Ann", "Bob", "Cid"])
    with store.transaction():
        game_id = store.games.create(game)
        box_id = store.boxes.create(TimeBox("Cup · Table 1").opened(T0, 30 * M))
        store.boxes.put_game(box_id, game_id)
    store.close()
    app = CompanionApp.open(db, game_id, clock=clock)
    yield app, box_id
    app.close()


def change_box(app: CompanionApp, box_id: int, change) -> None:  # type: ignore[no-untyped-def]
    """What the clock's owner does, from its own connection."""
    other = Store(app.store.path)
    with other.transaction():
        other.boxes.save(change(other.boxes.load(box_id).box))
    other.close()


def test_a_table_records_until_its_time_is_up_then_one_deal_then_nothing(
        boxed: tuple[CompanionApp, int], clock: Clock) -> None:
    app, box_id = boxed
    assert not app.record_round("Ann", points={"Bob": 5, "Cid": 7}).late
    change_box(app, box_id, lambda b: b.paused(clock()))
    clock.now_us += 60 * M  # standing clock: rounds may still be entered
    assert not app.record_round("Bob", points={"Ann": 1, "Cid": 2}).late
    change_box(app, box_id, lambda b: b.resumed(clock()))
    clock.now_us += 30 * M  # the time is up
    summary = app.record_round("Cid", points={"Ann": 3, "Bob": 4})
    assert summary.late and app.game is not None and len(app.game.rounds) == 3
    with pytest.raises(CompanionError, match="time is up and this table is done"):
        app.record_round("Ann", points={"Bob": 1, "Cid": 1})
    with pytest.raises(CompanionError, match="the rounds played in time stay"):
        app.undo()
        app.undo()
    assert app.redo()  # the late deal taken back can be put back once
    with pytest.raises(CompanionError, match="time is up and this table is done"):
        app.record_round("Ann", points={"Bob": 1, "Cid": 1})
    app.edit_round(2, "Bob", points={"Ann": 0, "Cid": 2})  # a correction is fine


def test_a_game_that_reaches_the_target_goes_on_in_a_new_one(
        boxed: tuple[CompanionApp, int], clock: Clock) -> None:
    app, _box_id = boxed
    first = app.game
    assert first is not None and first.id is not None
    summary = app.record_round("Bob", points={"Ann": 120, "Cid": 30})
    assert summary.game_over and summary.continued_in is not None
    game = app.game
    assert game is not None and game.id == summary.continued_in and not game.rounds
    assert game.names == ["Bob", "Cid", "Ann"] and game.dealer == "Bob"  # who went out deals
    boxed_now = app.time_box()
    assert boxed_now is not None and boxed_now.game_ids == (first.id, game.id)
    # the old game is closed to new rounds, with a pointer to the new one
    old = CompanionApp.open(app.store.path, first.id, clock=clock, follow=False)
    with pytest.raises(CompanionError, match=f"Cup · Table 1 now plays game {game.id}"):
        old.record_round("Ann", points={"Bob": 1, "Cid": 1})
    old.close()
    # a late deal that reaches the target starts nothing new: the table is done
    clock.now_us += 31 * M
    late = app.record_round("Ann", points={"Bob": 200, "Cid": 300})
    assert late.late and late.continued_in is None and app.game is not None
    assert app.game.id == game.id


def test_the_seats_of_a_box_are_fixed(boxed: tuple[CompanionApp, int], clock: Clock) -> None:
    app, _box = boxed
    with pytest.raises(CompanionError, match="seated by the organiser"):
        app.add_player("Dan")
    with pytest.raises(CompanionError, match="seated by the organiser"):
        app.rename_player("Ann", "Anna")
    with pytest.raises(CompanionError, match="plays the organiser's games until its time"):
        app.new_game("classic", "winner", ["Ann", "Bob"])
    clock.now_us += 31 * M  # time is up; the deal in progress not entered: still the box's
    with pytest.raises(CompanionError, match="plays the organiser's games"):
        app.new_game("classic", "winner", ["Ann", "Bob"])
    app.record_round("Ann", points={"Bob": 1, "Cid": 2})
    app.new_game("classic", "winner", ["Ann", "Bob"])  # done: the table is free again
    assert app.time_box() is None


def file_state(db: Path) -> str:
    conn = sqlite3.connect(db)
    dump = "\n".join(conn.iterdump())
    conn.close()
    return hashlib.sha256(dump.encode()).hexdigest()


def test_the_cli_is_refused_in_one_line_and_writes_nothing(
        boxed: tuple[CompanionApp, int], clock: Clock, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.store import wallclock

    app, box_id = boxed
    game = app.game
    assert game is not None
    db = str(app.store.path)
    change_box(app, box_id, lambda b: replace(b, state=State.WAITING,
                                              ends_at_us=None, left_us=30 * M))
    monkeypatch.setattr(wallclock, "now", clock)
    before = file_state(Path(db))
    argv = ["game", "round", "--db", db, "--game", str(game.id), "--winner", "Ann",
            "--points", "Bob: 4", "--points", "Cid: 5"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Cup · Table 1: the clock has not started yet" in err
    assert file_state(Path(db)) == before
    assert main(["game", "join", "--db", db, "--game", str(game.id), "Dan"]) == 2
    assert "seated by the organiser" in capsys.readouterr().err
    change_box(app, box_id, lambda b: b.opened(clock(), 30 * M))
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "Round 1 saved." in out
    assert main(["game", "show", "--db", db, "--game", str(game.id)]) == 0
    assert "Cup · Table 1: 30:00 left." in capsys.readouterr().out
    clock.now_us += 30 * M
    assert main(argv) == 0
    assert "that was the deal in progress when the time was up" in capsys.readouterr().out
    before = file_state(Path(db))
    assert main(argv) == 2
    assert "this table is done" in capsys.readouterr().err
    assert file_state(Path(db)) == before


def test_a_file_from_before_time_boxes_opens_with_its_games(tmp_path: Path) -> None:
    from companion.store.games_schema import MIGRATIONS

    db = tmp_path / "old.db"
    conn = sqlite3.connect(db)
    for script in MIGRATIONS[:3]:
        conn.executescript(script)
    conn.execute("PRAGMA user_version = 3")
    conn.execute("INSERT INTO games (edition, method, target, modifiers, created_at) "
                 "VALUES ('classic', 'winner', 500, '', 'x')")
    conn.execute("INSERT INTO players (game_id, name, seat) VALUES (1, 'Ann', 0), (1, 'Bob', 1)")
    conn.commit()
    conn.close()
    with Store(db) as store:
        assert store.schema_version() == SCHEMA_VERSION
        assert store.games.load(1).names == ["Ann", "Bob"] and store.boxes.of_game(1) is None


def test_the_screen_shows_the_box_and_follows_the_table(
        boxed: tuple[CompanionApp, int], clock: Clock) -> None:
    import pygame

    from companion.screen.screen import CompanionScreen

    pygame.font.init()
    app, box_id = boxed
    screen = CompanionScreen(app, (800, 480))
    surface = pygame.Surface((800, 480))
    screen.update(0)
    screen.draw(surface)
    assert screen.banner() == ("Cup · Table 1", "30:00", Phase.OPEN)
    assert screen.current.rect.y == 56 + 32  # the views make room for the banner
    clock.now_us += 1_000_000
    screen.update(16)
    assert screen.dirty  # the shown second changed
    screen.draw(surface)
    change_box(app, box_id, lambda b: b.paused(clock()))
    screen.update(1000)
    assert screen.banner() == ("Cup · Table 1", "Paused · 29:59", Phase.PAUSED)
    change_box(app, box_id, lambda b: b.finished())
    screen.update(2000)
    screen.draw(surface)
    _label, status, phase = screen.banner() or ("", "", None)
    assert phase is Phase.DONE and status == "Time is up · table done"
    enter = next(b for b in screen.buttons() if b.key == "enter_round")
    assert not enter.enabled
