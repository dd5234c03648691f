"""The window around the unit: mouse and touch, the duel bar, idling, the companion, the CLI."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import pygame
import pytest

from hardware.fake import FakeUnit
from showdown.contract.events import Outcome, Side
from showdown.duel.engine import DuelConfig
from showdown.service.loop import ShowdownService
from tests.uno_showdown.emulator.conftest import COUNTDOWN_US, Table, make_table
from uno_showdown.window import unit_view as view
from uno_showdown.window.duel_bar import DuelChooser
from uno_showdown.window.window import IDLE_WAIT_MS, KeyMap, TableWindow, open_display


def bar_button(table: Table, key: str) -> tuple[int, int]:
    for button in table.window.bar.buttons(table.window.labels):
        if button.key == key:
            return button.rect.center
    raise AssertionError(f"no {key} button in the bar")


def test_a_whole_duel_with_the_mouse_alone(table: Table) -> None:
    layout = table.window.unit_layout
    assert layout is not None
    table.click(bar_button(table, "cards:3"))
    table.click(bar_button(table, "load"))
    table.turn(20_000)
    assert table.unit.state.cards == 3
    table.click(layout.timer[0])
    table.turn(20_000)
    go_at = table.clock.now + COUNTDOWN_US
    table.run_for(go_at - table.clock.now + 250_000)
    table.click(layout.paddles[Side.LEFT].center, up=False)
    table.turn()
    assert table.pixel((layout.paddles[Side.LEFT].x + 8, layout.paddles[Side.LEFT].centery)) \
        == view.PADDLE_HELD
    table.run_for(100_000)
    (verdict,) = table.verdicts()
    assert verdict.result.outcome is Outcome.FASTER and verdict.result.winner is Side.LEFT
    assert verdict.cards == 3
    assert verdict.result.reaction_us[Side.LEFT] == 250_000


def test_two_fingers_on_two_paddles(table: Table) -> None:
    layout = table.window.unit_layout
    assert layout is not None
    w, h = table.surface.get_size()
    table.key(pygame.K_RETURN)
    table.turn(20_000)
    table.key(pygame.K_SPACE)
    table.turn(20_000)
    table.run_for(COUNTDOWN_US // 3)
    x, y = layout.paddles[Side.RIGHT].center
    table.post(pygame.FINGERDOWN, touch_id=1, finger_id=7, x=x / w, y=y / h, dx=0, dy=0,
               pressure=1.0)
    table.turn(5_000)
    assert Side.RIGHT in table.unit.state.held
    table.run_for(100_000)
    (verdict,) = table.verdicts()
    assert verdict.result.outcome is Outcome.EARLY_PRESS and verdict.result.loser is Side.RIGHT
    table.post(pygame.FINGERUP, touch_id=1, finger_id=7, x=x / w, y=y / h, dx=0, dy=0,
               pressure=0.0)
    table.turn(20_000)
    assert not table.unit.state.held


def test_an_idle_window_draws_nothing_and_sleeps(table: Table) -> None:
    table.run_for(100_000)
    frames = table.window.frames
    table.run_for(2_000_000, step_us=100_000)
    assert table.window.frames == frames
    assert table.window.wait_ms(table.clock.now) == IDLE_WAIT_MS


def test_the_loop_wakes_for_go_on_time(table: Table) -> None:
    table.key(pygame.K_RETURN)
    table.turn(20_000)
    table.key(pygame.K_SPACE)
    table.turn(20_000)
    go_at = table.clock.now + COUNTDOWN_US
    table.run_for(COUNTDOWN_US - 3_000, step_us=16_000)
    assert go_at - table.clock.now == 3_000
    assert table.window.wait_ms(table.clock.now) == 3  # not the next 60 Hz frame: go itself


def test_abort_with_escape_clears_the_duel(table: Table) -> None:
    table.key(pygame.K_RETURN)
    table.turn(20_000)
    assert table.window.chooser.busy
    table.key(pygame.K_ESCAPE)
    table.turn(20_000)
    (verdict,) = table.verdicts()
    assert verdict.result.outcome is Outcome.ABORTED
    assert not table.window.chooser.busy
    assert "cancelled" in table.window.chooser.status


def test_chooser_seats_two_different_players() -> None:
    chooser = DuelChooser()
    assert chooser.players() == {}
    assert chooser.name(Side.LEFT) == "Left"
    chooser.set_names(["Ann", "Bob", "Cy"])
    assert chooser.players() == {Side.LEFT: "Ann", Side.RIGHT: "Bob"}
    chooser.next_player(Side.LEFT)  # Bob sits right, so Ann's seat goes to Cy
    assert chooser.players() == {Side.LEFT: "Cy", Side.RIGHT: "Bob"}
    chooser.next_player(Side.RIGHT)
    assert chooser.players() == {Side.LEFT: "Cy", Side.RIGHT: "Ann"}
    chooser.set_names(["Ann", "Dee"])  # Cy left the game
    assert chooser.players() == {Side.LEFT: "Dee", Side.RIGHT: "Ann"}
    chooser.next_player(Side.LEFT)
    assert chooser.players() == {Side.LEFT: "Ann", Side.RIGHT: "Dee"}
    for n in (1, 2, 3, 1):
        assert chooser.cards == n
        chooser.next_cards()


def test_keys_are_configurable() -> None:
    keys = KeyMap.parse("z, m ,RETURN")
    assert (keys.left, keys.right, keys.timer) == (pygame.K_z, pygame.K_m, pygame.K_RETURN)
    assert keys.labels()[Side.RIGHT] == "M"
    for bad in ("A,L", "A,A,SPACE", "A,L,NOSUCHKEY"):
        with pytest.raises(ValueError, match="--keys"):
            KeyMap.parse(bad)


def test_verdicts_are_recorded_to_the_current_game(tmp_path: Path) -> None:
    from companion.app import CompanionApp

    app = CompanionApp.open(db_path=tmp_path / "scores.db")
    app.new_game("classic", "winner", ["Ann", "Bob", "Cy"])
    table = make_table(size=(1280, 720), app=app)
    table.service.add_listener(app.on_service_event)
    try:
        assert table.window.companion_rect.w > 0
        panel = table.surface.subsurface(table.window.companion_rect)
        before = pygame.image.tobytes(panel, "RGB")
        table.key(pygame.K_F7)  # Bob -> Cy at the right paddle
        table.key(pygame.K_F10)
        table.turn(20_000)
        table.key(pygame.K_SPACE)
        table.turn(20_000)
        table.run_for(COUNTDOWN_US + 200_000, step_us=16_000)
        table.key(pygame.K_l)
        table.turn()
        table.run_for(100_000)
        (verdict,) = table.verdicts()
        assert dict(verdict.players) == {Side.LEFT: "Ann", Side.RIGHT: "Cy"}
        assert not table.service.flush_listeners(5.0) and app.flush_duels(5.0)
        (row,) = app.duels()
        assert (row.winner, row.loser, row.outcome) == ("Cy", "Ann", "faster")
        assert "Cy wins" in table.window.chooser.status
        # The companion panel (right-hand side) shows the new duel within its poll time.
        table.run_for(600_000, step_us=50_000)
        assert pygame.image.tobytes(panel, "RGB") != before
        assert table.pixel((table.window.companion_rect.x + 5, 300)) != view.BACKGROUND
    finally:
        table.window.close()
        pygame.display.quit()
        app.close()


def test_a_game_started_on_the_companion_seats_its_players(tmp_path: Path) -> None:
    from companion.app import CompanionApp

    app = CompanionApp.open(db_path=tmp_path / "scores.db")
    table = make_table(size=(1280, 720), app=app)
    try:
        assert table.window.chooser.players() == {}
        app.new_game("classic", "winner", ["Dee", "Eve"])
        table.run_for(600_000, step_us=50_000)  # the companion notices within its poll time
        assert table.window.chooser.players() == {Side.LEFT: "Dee", Side.RIGHT: "Eve"}
    finally:
        table.window.close()
        pygame.display.quit()
        app.close()


def test_the_window_fits_a_screen_smaller_than_asked_for(monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    """`make run` (1280x720 by default) on a Pi's 800x480 touch display: a window that fits,
    not one whose tabs lie off the screen; a screen large enough gets the size asked for."""
    monkeypatch.setattr(pygame.display, "get_desktop_sizes", lambda: [(800, 480)])
    try:
        assert open_display((1280, 720), False, "test").get_size() == (800, 480)
        assert open_display((640, 400), False, "test").get_size() == (640, 400)
    finally:
        pygame.display.quit()


def test_the_table_window_runs_a_real_units_service_on_its_own_thread() -> None:
    open_display((800, 480), False, "test")
    unit = FakeUnit()
    service = ShowdownService(unit, DuelConfig())
    window = TableWindow(service, None)
    worker = threading.Thread(target=service.run, daemon=True)
    worker.start()
    try:
        assert window.unit_layout is None and window.bar_rect.bottom == 480
        for button in window.bar.buttons(window.labels):
            if button.key == "load":
                pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=button.rect.center,
                                                     button=1, touch=False))
        for _ in range(100):  # each turn blocks until the service's event wakes it
            window.turn(100)
            if window.chooser.busy:
                break
        assert window.chooser.busy and "loaded" in window.chooser.status
        assert "show_loaded" in unit.names()
    finally:
        service.stop()
        worker.join(timeout=5)
        window.close()
        pygame.display.quit()
    assert not worker.is_alive()


def run_cli(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "uno_showdown", *args], capture_output=True, text=True,
        env=env, timeout=60, cwd=Path(__file__).resolve().parents[3],
    )


@pytest.mark.parametrize("driver", ["dummy", "x11"])
def test_without_a_display_one_sentence_says_how_to_run_it(driver: str, tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env.update(SDL_VIDEODRIVER=driver, SDL_AUDIODRIVER="dummy", HOME=str(tmp_path),
               XDG_DATA_HOME=str(tmp_path))
    done = run_cli("emulator", "--db", str(tmp_path / "s.db"), env=env)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert lines[-1].startswith("uno-showdown emulator: no display is available")
    assert "xvfb-run" in lines[-1] and "Traceback" not in done.stderr


def test_bad_options_are_one_line_errors(tmp_path: Path) -> None:
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", HOME=str(tmp_path))
    done = run_cli("emulator", "--size", "big", env=env)
    assert done.returncode == 2 and "--size must look like 1280x720" in done.stderr
    done = run_cli("emulator", "--keys", "A", env=env)
    assert done.returncode == 2 and "--keys needs three key names" in done.stderr
