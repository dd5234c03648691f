"""Starting a game by touch (with the on-screen keyboard or a real one), and the duels on screen."""

from __future__ import annotations

from pathlib import Path

import pygame

from companion.app import CompanionApp
from companion.screen.views.facts import duel_lines
from showdown.contract.events import DuelResult, Outcome, Side, VerdictGiven
from tests.companion.screen.conftest import Driver


def test_a_new_game_by_touch_alone(db: Path) -> None:
    app = CompanionApp.open(db, lang="en")
    driver = Driver(app)
    driver.tap("new_game")  # the empty standings offer it
    assert driver.view.name == "new_game"
    driver.tap("edition:classic")
    driver.tap("method")  # the list of methods, each with a line on how it scores
    driver.tap("method:own")
    driver.tap("target:-")
    driver.tap("players:+")
    driver.tap("name:0")
    assert driver.view.full_screen  # the keyboard takes the whole screen
    for key in ("kb:A", "kb:N", "kb:N"):
        driver.tap(key)
    driver.tap("kb:done")
    driver.tap("start")
    game = app.game
    assert game is not None and game.edition_key == "classic"
    assert game.rules.method.key == "own" and game.rules.target == 150
    assert game.names == ["Ann", "Player 2", "Player 3", "Player 4", "Player 5"]
    assert driver.view.name == "standings"
    app.close()


def test_names_can_be_typed_on_a_real_keyboard_and_known_names_picked(app: CompanionApp,
                                                                       db: Path) -> None:
    driver = Driver(app)
    driver.tap("tab:new_game")
    assert driver.view.names == ["Ann", "Bob", "Cid"]  # a rematch by default
    driver.tap("players:+")
    driver.tap("name:3")
    driver.type_text("Dörte")
    driver.key(pygame.K_BACKSPACE)
    driver.type_text("e")
    driver.key(pygame.K_RETURN)
    driver.tap("name:0")
    driver.key(pygame.K_ESCAPE)  # leaves the name as it was
    driver.key(pygame.K_RETURN)
    assert app.game.names == ["Ann", "Bob", "Cid", "Dörte"]

    driver.tap("tab:new_game")
    driver.tap("players:-")
    driver.tap("name:2")
    # Dörte left the table, so she is offered as a quick pick (Ann and Bob still sit there)
    assert [b.key for b in driver.screen.buttons() if b.key.startswith("pick:")] == [
        "pick:Dörte"]
    driver.tap("pick:Dörte")
    assert driver.view.names == ["Ann", "Bob", "Dörte"]


def test_an_impossible_table_is_explained(app: CompanionApp) -> None:
    driver = Driver(app)
    driver.tap("tab:new_game")
    driver.tap("name:1")
    driver.type_text("Ann")
    driver.key(pygame.K_RETURN)
    driver.tap("start")
    assert "Ann" in driver.view.error
    assert driver.view.name == "new_game"


def test_teams_need_pairs(app: CompanionApp) -> None:
    driver = Driver(app)
    driver.tap("tab:new_game")
    driver.tap("method")
    driver.tap("method:teams")
    assert len(driver.view.names) == 4
    driver.tap("players:+")
    assert len(driver.view.names) == 6


def verdict(winner: Side, reactions: dict[Side, int], outcome: Outcome = Outcome.FASTER
            ) -> VerdictGiven:
    result = DuelResult(outcome, winner, winner.other, winner.other, (), reactions)
    return VerdictGiven(1, result, Side.LEFT, Side.RIGHT, 2, {Side.LEFT: "Ann", Side.RIGHT: "Bob"})


def test_a_duel_from_the_unit_appears_with_best_and_median_reactions(driver: Driver) -> None:
    driver.tap("tab:duels")
    assert driver.view.last is None
    driver.app.on_service_event(verdict(Side.LEFT, {Side.LEFT: 180_000, Side.RIGHT: 240_000}))
    driver.app.on_service_event(verdict(Side.RIGHT, {Side.LEFT: 300_000, Side.RIGHT: 210_000}))
    driver.app.on_service_event(verdict(Side.LEFT, {Side.LEFT: 200_000, Side.RIGHT: 260_000}))
    assert driver.app.flush_duels(5.0)  # written by the recorder's own thread
    driver.now_ms += 1000
    driver.screen.update(driver.now_ms)
    assert driver.screen.dirty  # the screen noticed on its own
    driver.frame()
    stats = {s.name: (s.best_ms, s.median_ms) for s in driver.view.stats}
    assert stats["Ann"] == (180, 200) and stats["Bob"] == (210, 240)
    assert driver.view.stats[0].name == "Ann"  # fastest first
    lines = [text for text, _color in duel_lines(driver.view.last)]
    assert lines[:3] == ["Ann vs Bob", "Ann won", "Bob takes 2"]
    assert "Ann: 200 ms" in lines


def test_a_contested_duel_says_so_on_the_duels_view(driver: Driver) -> None:
    from showdown.contract.events import VerdictContested

    driver.tap("tab:duels")
    driver.app.on_service_event(verdict(Side.LEFT, {Side.LEFT: 180_000, Side.RIGHT: 240_000}))
    assert "Contested" not in driver.view.labels()  # no such column while none is
    driver.app.on_service_event(VerdictContested(
        1, Side.RIGHT, 170_000, 260_000, Outcome.FASTER, Outcome.FASTER, Side.RIGHT,
        {Side.LEFT: "Ann", Side.RIGHT: "Bob"}))
    assert driver.app.flush_duels(5.0)
    driver.now_ms += 1000
    driver.screen.update(driver.now_ms)
    driver.frame()
    assert driver.view.labels()[-1] == "Contested"
    assert {s.name: s.contested for s in driver.view.stats} == {"Ann": 1, "Bob": 1, "Cid": 0}
    lines = [text for text, _color in duel_lines(driver.view.last)]
    assert lines[-2:] == ["Contested", "a press came too late"]
