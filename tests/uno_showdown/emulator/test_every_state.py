"""The emulator's window draws in every state of a duel, with and without a game, at every size.

A whole evening is played on a hand-moved clock: idle, players chosen, the timer pressed with
nothing loaded, a duel loaded, counting down, GO, a win with the cards in flight, an early
press, a tie, a timeout, an abort, the sound muted. After each step the window must have
drawn: the unit, the duel bar and the companion panel each look drawn, the bar's buttons
sit inside the bar without overlapping, and its status line says something. The same runs
without a score keeper, with an empty games file, with a game, and with a finished game,
at the default 1280x720, at 800x480 and on a full-HD screen; the window `run` opens for a
real unit (companion and bar, no emulated unit) is checked the same way.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pygame
import pytest

from companion.app import CompanionApp
from companion.touch import theme
from hardware.fake import FakeUnit
from showdown.duel.engine import DuelConfig, Outcome
from showdown.service.loop import ShowdownService
from tests.uno_showdown.emulator.conftest import COUNTDOWN_US, Table, make_table
from uno_showdown.window.window import TableWindow, open_display

SIZES = ((1280, 720), (800, 480), (1920, 1080))


def no_app(tmp_path: Path) -> CompanionApp | None:
    return None


def empty_file(tmp_path: Path) -> CompanionApp | None:
    return CompanionApp.open(tmp_path / "games.db", lang="en")


def a_game(tmp_path: Path) -> CompanionApp | None:
    app = CompanionApp.open(tmp_path / "games.db", lang="en")
    app.new_game("showdown", "winner", ["Alexandra-Marie", "Bob", "Konstantinopolsky"])
    app.record_round("Bob", hands={"Alexandra-Marie": ["r5"], "Konstantinopolsky": ["wild"]})
    return app


def game_over(tmp_path: Path) -> CompanionApp | None:
    app = CompanionApp.open(tmp_path / "games.db", lang="en")
    app.new_game("classic", "winner", ["Ann", "Bob"], target=50)
    app.record_round("Bob", hands={"Ann": ["wild+4"]})
    return app


APPS: dict[str, Callable[[Path], CompanionApp | None]] = {
    "no score keeper": no_app,
    "empty games file": empty_file,
    "a game": a_game,
    "game over": game_over,
}


def colours(surface: pygame.Surface, area: pygame.Rect) -> int:
    return len({surface.get_at((x, y))[:3] for x in range(area.x, area.right, 5)
                for y in range(area.y, area.bottom, 5)})


def problems(window: TableWindow, where: str) -> list[str]:
    """What looks broken in the window's last frame."""
    surface = pygame.display.get_surface()
    assert surface is not None
    found = []
    if window.unit is not None and colours(surface, window.unit_rect) < 6:
        found.append(f"{where}: the unit looks empty")
    if window.companion is not None and colours(surface, window.companion_rect) < 3:
        found.append(f"{where}: the companion panel looks empty")
    if colours(surface, window.bar_rect) < 3:
        found.append(f"{where}: the duel bar looks empty")
    buttons = window.bar.buttons(window.labels)
    for i, b in enumerate(buttons):
        if not window.bar_rect.contains(b.rect):
            found.append(f"{where}: bar button {b.key} {b.rect} is outside the bar")
        found += [f"{where}: bar buttons {b.key} and {o.key} overlap"
                  for o in buttons[i + 1:] if b.rect.colliderect(o.rect)]
    if not window.chooser.status:
        found.append(f"{where}: the bar says nothing")
    return found


def play_an_evening(table: Table, where: str) -> list[str]:
    """Every state of the unit, one after the other; the problems seen on the way."""
    seen: list[str] = []

    def step(name: str, advance_us: int = 20_000) -> None:
        table.run_for(advance_us, step_us=50_000)  # coarse turns: the draws are what counts
        seen.extend(problems(table.window, f"{where} / {name}"))

    step("idle")
    table.key(pygame.K_F6)
    table.key(pygame.K_F7)
    step("players chosen")
    table.key(pygame.K_SPACE)
    step("timer pressed with nothing loaded")
    assert "Nothing loaded" in table.window.chooser.status
    assert status_fits(table.window)
    table.key(pygame.K_2)
    table.key(pygame.K_F10)
    step("loaded")
    table.key(pygame.K_SPACE)
    step("counting down", 1_000_000)
    step("go", COUNTDOWN_US)
    table.key(pygame.K_l)
    step("a win, cards in flight", 150_000)
    assert table.verdicts()[-1].result.outcome is Outcome.FASTER
    assert table.unit.state.launching_at(table.clock.now)
    step("cards landed", 3_000_000)
    table.key(pygame.K_SPACE)
    step("timer pressed after the verdict")
    assert "Nothing loaded" in table.window.chooser.status and status_fits(table.window)
    table.key(pygame.K_F10)
    table.key(pygame.K_SPACE)
    table.run_for(500_000, step_us=50_000)
    table.key(pygame.K_a)
    step("early press", 200_000)
    assert table.verdicts()[-1].result.outcome is Outcome.EARLY_PRESS
    table.key(pygame.K_F10)
    table.key(pygame.K_SPACE)
    table.run_for(COUNTDOWN_US + 100_000, step_us=50_000)
    table.key(pygame.K_a)
    table.key(pygame.K_l)  # one batch: one stamp, a tie
    step("tie", 100_000)
    assert table.verdicts()[-1].result.outcome is Outcome.TIE
    table.key(pygame.K_ESCAPE)
    step("tie aborted")
    table.key(pygame.K_F10)
    table.key(pygame.K_SPACE)
    step("timeout", COUNTDOWN_US + 4_000_000)
    assert table.verdicts()[-1].result.outcome is Outcome.TIMEOUT
    table.key(pygame.K_F9)
    step("muted")
    return seen


@pytest.mark.parametrize("state", list(APPS))
def test_the_emulator_draws_every_state_of_a_duel(tmp_path: Path, state: str) -> None:
    found: list[str] = []
    for size in SIZES:
        app = APPS[state](tmp_path)
        config = DuelConfig(countdown_min_us=COUNTDOWN_US, countdown_max_us=COUNTDOWN_US)
        table = make_table(config, size=size, app=app)
        try:
            found += play_an_evening(table, f"{state} / {size}")
        finally:
            table.window.close()
            pygame.display.quit()
            if app is not None:
                app.close()
    assert found == []


def status_fits(window: TableWindow) -> bool:
    """The bar's status line is drawn whole (on one line or two), not cut short with "…"."""
    with theme.watching_cuts() as cut:
        window.bar.draw(pygame.Surface(pygame.display.get_surface().get_size()), window.labels)
    return not [words for words, _width in cut if words in window.chooser.status]


def test_f6_without_players_says_why_nothing_changes(tmp_path: Path) -> None:
    for app, expected in ((None, "No score keeper"), (empty_file(tmp_path), "Start a game")):
        table = make_table(app=app)  # 800x480: the narrowest bar
        try:
            table.key(pygame.K_F6)
            table.turn()
            assert expected in table.window.chooser.status and status_fits(table.window)
        finally:
            table.window.close()
            pygame.display.quit()
            if app is not None:
                app.close()


@pytest.mark.parametrize("state", ["empty games file", "a game"])
def test_the_window_for_a_real_unit_draws(tmp_path: Path, state: str) -> None:
    app = APPS[state](tmp_path)
    found: list[str] = []
    try:
        for size in ((800, 480), (1280, 720)):
            open_display(size, False, "test")
            service = ShowdownService(FakeUnit(), DuelConfig())
            window = TableWindow(service, app)
            try:
                window.tick()
                window.render(window.clock_us())
                found += problems(window, f"{state} / {size} / idle")
                window.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_SPACE, mod=0,
                                                 unicode=" "), window.clock_us())
                window.render(window.clock_us() + 20_000)
                assert "Nothing loaded" in window.chooser.status
                found += problems(window, f"{state} / {size} / timer with nothing loaded")
            finally:
                window.close()
                service.close()
                pygame.display.quit()
    finally:
        if app is not None:
            app.close()
    assert found == []
