"""The README's first game, in its five steps, played in the emulator as a newcomer would.

Start a game on the empty score keeper, load a duel, play it, enter a round, see the
standings: every step by the taps and keys the README names, on a hand-moved clock.
"""

from __future__ import annotations

from pathlib import Path

import pygame

from companion.app import CompanionApp
from showdown.contract.events import Side
from showdown.duel.engine import Outcome
from tests.uno_showdown.emulator.conftest import COUNTDOWN_US, Table, make_table


def tap(table: Table, key: str) -> None:
    """Tap a button of the companion panel, where it is drawn in the window."""
    screen = table.window.companion
    rect = next(b.rect for b in screen.buttons() if b.key == key)
    offset = table.window.companion_rect.topleft
    table.click((rect.centerx + offset[0], rect.centery + offset[1]))
    table.turn(20_000)


def test_the_five_steps_of_the_readme(tmp_path: Path) -> None:
    app = CompanionApp.open(tmp_path / "games.db", lang="en")
    table = make_table(size=(1280, 720), app=app)
    table.service.add_listener(app.on_service_event)
    try:
        screen = table.window.companion
        # 1. Start a game: the empty score keeper offers New game, then Start game.
        assert screen.current.name == "standings" and app.game is None
        tap(table, "new_game")
        assert screen.current.name == "new_game"
        tap(table, "start")
        assert app.game is not None
        assert [s.total for s in app.standings()] == [0, 0, 0, 0]
        assert screen.current.name == "standings"
        table.run_for(300_000, step_us=50_000)  # the bar hears of the players
        # 2. Load a duel: F7 seats the next player at the right paddle, 2 cards, F10.
        table.key(pygame.K_F7)
        table.key(pygame.K_2)
        table.key(pygame.K_F10)
        table.turn(20_000)
        assert table.window.chooser.busy
        assert table.window.chooser.players() == {Side.LEFT: "Player 1",
                                                  Side.RIGHT: "Player 3"}
        # 3. Play it: Space starts the countdown, A is the left paddle, after GO.
        table.key(pygame.K_SPACE)
        table.turn(20_000)
        table.run_for(COUNTDOWN_US + 150_000, step_us=16_000)
        table.key(pygame.K_a)
        table.turn()
        table.run_for(400_000, step_us=50_000)
        [verdict] = table.verdicts()
        assert (verdict.result.outcome, verdict.result.winner) == (Outcome.FASTER, Side.LEFT)
        assert not table.service.flush_listeners(5.0) and app.flush_duels(5.0)
        [duel] = app.duels()
        assert (duel.winner, duel.loser, duel.cards) == ("Player 1", "Player 3", 2)
        # 4. Enter a round: who went out, the cards left in each other hand, Confirm.
        table.run_for(3_000_000, step_us=100_000)  # the cards land; the panel has the keys
        tap(table, "enter_round")
        assert screen.current.name == "round_entry"
        tap(table, "winner:Player 2")
        for card in ("r5", "g5", "b5"):  # Player 1's, 3's and 4's hands, one card each
            tap(table, f"colour:{card[0]}")  # the narrow panel shows a colour at a time
            tap(table, f"card:{card}")
            tap(table, "next")
        tap(table, "confirm")
        assert len(app.game.rounds) == 1
        assert screen.current.name == "standings"
        # 5. See the standings: Player 2 leads with the three hands' 15 points.
        table.key(pygame.K_F1)
        table.turn(20_000)
        leader = screen.current.rows[0]
        assert (leader.name, leader.total, leader.is_leader) == ("Player 2", 15, True)
        table.key(pygame.K_F4)
        table.turn(20_000)
        assert screen.current.name == "duels"
        assert screen.current.stats[0].name == "Player 1"  # the only reaction time so far
    finally:
        table.window.close()
        pygame.display.quit()
        app.close()
