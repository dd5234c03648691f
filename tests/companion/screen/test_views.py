"""Moving around the screen, undo and redo, game over, the leader's marks, and redrawing."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from companion.app import CompanionApp
from companion.screen.views.chart import nice_step, plot
from companion.touch import theme
from tests.companion.screen.conftest import Driver


def play(app: CompanionApp, winner: str, **hands: list[str]) -> None:
    app.record_round(winner, hands=hands)


def test_tabs_and_function_keys_switch_views(driver: Driver) -> None:
    for name in ("history", "chart", "duels", "new_game", "standings"):
        driver.tap(f"tab:{name}")
        assert driver.view.name == name
    for key, name in ((pygame.K_F2, "history"), (pygame.K_F3, "chart"), (pygame.K_F4, "duels"),
                      (pygame.K_F1, "standings")):
        driver.key(key)
        assert driver.view.name == name


def test_a_finger_sliding_off_a_button_does_not_press_it(driver: Driver) -> None:
    start = driver.rect("tab:history").center
    driver.screen.handle_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=start, button=1))
    driver.screen.handle_event(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(400, 300), button=1))
    assert driver.view.name == "standings"


def test_undo_and_redo_by_button_and_keys(driver: Driver) -> None:
    play(driver.app, "Ann", Bob=["r5"], Cid=["b2"])
    play(driver.app, "Bob", Ann=["wild"], Cid=["g1"])
    driver.frame()
    driver.tap("undo")
    assert len(driver.app.game.rounds) == 1
    driver.key(pygame.K_z, pygame.KMOD_CTRL)
    assert len(driver.app.game.rounds) == 0
    driver.tap("redo")
    driver.key(pygame.K_y, pygame.KMOD_CTRL)
    assert [r.winner for r in driver.app.game.rounds] == ["Ann", "Bob"]
    driver.tap("tab:history")
    driver.tap("undo")
    assert [r.winner for r in driver.app.game.rounds] == ["Ann"]
    assert [r.number for r in driver.view.rounds] == [1]


def test_history_lists_rounds_newest_first_and_scrolls(driver: Driver) -> None:
    for i in range(15):
        play(driver.app, ("Ann", "Bob")[i % 2], **({"Bob": ["r1"]} if i % 2 == 0 else
                                                   {"Ann": ["r1"]}), Cid=["b1"])
    driver.tap("tab:history")
    assert [r.number for r in driver.view.rounds[:2]] == [15, 14]
    assert not driver.enabled("up")
    driver.tap("down")
    assert driver.view.scroll.offset > 0
    driver.screen.handle_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(300, 400),
                                                  button=1))
    driver.screen.handle_event(pygame.event.Event(pygame.MOUSEMOTION, pos=(300, 470),
                                                  rel=(0, 70), buttons=(1, 0, 0)))
    driver.screen.handle_event(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(300, 470),
                                                  button=1))
    assert driver.view.name == "history"


def test_reaching_the_target_shows_game_over_with_the_winner(db: Path) -> None:
    app = CompanionApp.open(db, lang="en")
    app.new_game("classic", "winner", ["Ann", "Bob"], target=50)
    driver = Driver(app)
    driver.tap("enter_round")
    driver.tap("winner:Bob")
    driver.tap("card:wild+4")
    driver.tap("confirm")
    assert driver.view.name == "game_over"
    assert app.game.verdict.winners == ("Bob",)
    assert not any(b.key == "enter_round" for b in driver.screen.buttons())
    driver.tap("undo")  # a wrongly entered last round can still be taken back
    assert driver.view.name == "standings"
    assert driver.enabled("enter_round")
    driver.tap("redo")  # and put back, which ends the game again
    assert driver.view.name == "game_over"
    app.close()


def row_has_accent_bar(driver: Driver, rect: pygame.Rect) -> bool:
    return driver.surface.get_at((rect.x + 3, rect.centery))[:3] == theme.ACCENT


def test_the_leader_and_the_dealer_are_marked(driver: Driver) -> None:
    play(driver.app, "Cid", Ann=["r5"], Bob=["b9"])
    driver.screen.invalidate()
    driver.frame()
    view = driver.view
    rows = dict(zip([s.name for s in view.rows], view.row_rects(), strict=True))
    assert view.rows[0].name == "Cid" and view.rows[0].is_leader
    assert row_has_accent_bar(driver, rows["Cid"])
    assert not row_has_accent_bar(driver, rows["Ann"])
    dealer = next(s.name for s in view.rows if s.is_dealer)
    dealer_mark = (rows[dealer].x + 56 + 30 + 12, rows[dealer].y + rows[dealer].height // 2 - 3)
    assert driver.surface.get_at(dealer_mark)[:3] == theme.DEALER
    others = [n for n in rows if n != dealer]
    for name in others:
        r = rows[name]
        assert driver.surface.get_at((r.x + 56 + 30 + 12, r.y + r.height // 2 - 3))[:3] \
            != theme.DEALER


def test_no_leader_is_marked_before_the_first_round(driver: Driver) -> None:
    view = driver.view
    assert not any(row_has_accent_bar(driver, r) for r in view.row_rects())


def test_the_screen_redraws_only_when_something_changed(driver: Driver) -> None:
    assert not driver.screen.dirty
    driver.now_ms += 1000
    driver.screen.update(driver.now_ms)
    assert not driver.screen.dirty
    play(driver.app, "Ann", Bob=["r5"], Cid=["b2"])  # e.g. from the command line
    driver.now_ms += 1000
    driver.screen.update(driver.now_ms)
    assert driver.screen.dirty


@pytest.mark.parametrize("size", [(800, 480), (1280, 800), (1024, 600)])
def test_every_view_fits_and_has_finger_sized_targets(app: CompanionApp,
                                                      size: tuple[int, int]) -> None:
    play(app, "Ann", Bob=["r5"], Cid=["b2"])
    driver = Driver(app, (800, 480))
    driver.screen.resize(size)
    driver.surface = pygame.Surface(size)
    bounds = pygame.Rect((0, 0), size)
    for name in ("standings", "round_entry", "history", "chart", "duels", "game_over",
                 "new_game"):
        driver.screen.go(name)
        if name == "round_entry":
            driver.tap("winner:Ann")
            driver.tap("card:r5")  # a card in the hand strip is a target too
        driver.frame()
        for button in driver.screen.buttons():
            assert bounds.contains(button.rect), (name, button.key)
            assert min(button.rect.size) >= 44, (name, button.key, button.rect)


def test_chart_geometry() -> None:
    assert [nice_step(s) for s in (0, 7, 40, 500, 1234)] == [1, 2, 10, 100, 500]
    area = pygame.Rect(100, 50, 400, 300)
    p = plot({"Ann": [80, 80, 200], "Bob": [0, 117, 117]}, area, target=500)
    assert p.lines["Ann"][0] == (100, 350)  # everyone starts at 0 before round 1
    assert p.lines["Ann"][-1][0] == 500  # the last round is at the right edge
    assert p.target_y == 50  # the target is the top of the scale
    ys = [y for _x, y in p.lines["Bob"]]
    assert ys[1] == 350 and ys[2] < ys[1]  # higher scores are drawn higher
    assert p.y_ticks[0] == (0, 350)


def test_a_round_entered_from_the_command_line_shows_up_on_the_screen(
    driver: Driver, db: Path
) -> None:
    from uno_showdown.commands.cli import main

    assert main(["game", "round", "--db", str(db), "--winner", "Bob",
                 "--hand", "Ann: r5 gskip", "--hand", "Cid: wild"]) == 0
    driver.now_ms += 300  # the screen looks at the file a few times a second
    driver.frame()
    standings = {s.name: s.total for s in driver.view.rows}
    assert standings["Bob"] == 75
    driver.tap("enter_round")  # and the next round builds on it instead of overwriting it
    driver.tap("winner:Ann")
    driver.tap("card:b9")
    driver.tap("next")
    driver.tap("card:r1")
    driver.tap("confirm")
    again = CompanionApp.open(db, lang="en")
    assert [r.winner for r in again.game.rounds] == ["Bob", "Ann"]
    again.close()


def test_a_duel_recorded_by_another_program_shows_up_on_the_screen(
    driver: Driver, db: Path
) -> None:
    """`run --headless` records duels in its own process; the screen still shows them."""
    from showdown.contract.events import DuelResult, Outcome, ReactionsTimed, Side, VerdictGiven

    table = CompanionApp.open(db, lang="en")
    players = {Side.LEFT: "Ann", Side.RIGHT: "Bob"}
    result = DuelResult(Outcome.FASTER, Side.LEFT, Side.RIGHT, None, (),
                        {Side.LEFT: 180_000, Side.RIGHT: None})
    table.on_service_event(VerdictGiven(1, result, Side.LEFT, Side.RIGHT, 2, players))
    table.on_service_event(ReactionsTimed(1, {Side.LEFT: 180_000, Side.RIGHT: 240_000}, players))
    table.close()
    driver.now_ms += 300
    driver.frame()
    last = driver.app.last_duel()
    assert last is not None and last.winner == "Ann"
    assert driver.app.duel_stats()["Bob"].best_ms == 240
