"""The emulator's duel bar takes the duel the companion's Table view proposes, with the rules'
pairing: a showdown card's player against the next player in the direction of play."""

from __future__ import annotations

from pathlib import Path

import pygame

from companion.app import CompanionApp
from showdown.contract.events import Side
from tests.uno_showdown.emulator.conftest import COUNTDOWN_US, make_table


def tap_companion(table, key: str) -> None:
    """Tap a button of the companion screen inside the window, as a finger would."""
    window = table.window
    rect = next(b.rect for b in window.companion.buttons() if b.key == key)
    table.click((rect.centerx + window.companion_rect.x, rect.centery + window.companion_rect.y))
    table.turn(16_000)


def test_a_showdown_card_tapped_on_the_table_view_seats_the_duel_in_the_bar(
        tmp_path: Path) -> None:
    app = CompanionApp.open(db_path=tmp_path / "scores.db", lang="en")
    app.new_game("showdown", "winner", ["Ann", "Bob", "Cy", "Dee"])
    table = make_table(size=(1280, 720), app=app)
    table.service.add_listener(app.on_service_event)
    try:
        tap_companion(table, "tab:table")
        tap_companion(table, "reverse")  # a Reverse was played: Cy's next is Bob
        tap_companion(table, "showdown:Cy:3")
        chooser = table.window.chooser
        assert chooser.players() == {Side.LEFT: "Cy", Side.RIGHT: "Bob"}
        assert chooser.cards == 3 and "Showdown card: Cy vs Bob, 3 cards" in chooser.status
        table.key(pygame.K_F10)  # load it, start it, Bob is faster
        table.turn(20_000)
        table.key(pygame.K_SPACE)
        table.turn(20_000)
        table.run_for(COUNTDOWN_US + 200_000, step_us=16_000)
        table.key(pygame.K_l)
        table.turn()
        table.run_for(100_000)
        (verdict,) = table.verdicts()
        assert dict(verdict.players) == {Side.LEFT: "Cy", Side.RIGHT: "Bob"}
        assert verdict.cards == 3
        # the verdict reaches the recorder through the service's listener queue first
        assert not table.service.flush_listeners(5.0) and app.flush_duels(5.0)
        (row,) = app.duels()
        assert (row.challenger, row.opponent, row.winner) == ("Cy", "Bob", "Bob")
        tap_companion(table, "wild:Dee")  # a Wild Showdown: any opponent, 1-3 cards
        tap_companion(table, "wild:Dee:Ann:1")
        assert chooser.players() == {Side.LEFT: "Dee", Side.RIGHT: "Ann"}
        assert chooser.cards == 1 and chooser.status.startswith("Wild Showdown: Dee vs Ann")
    finally:
        table.window.close()
        pygame.display.quit()
        app.close()


def test_the_duel_bar_finds_its_players_by_the_one_name_rule() -> None:
    """F6/F7 and a change of players keep a player at their paddle when the seating writes
    the name another way (case, spaces, an accent composed or not), as the rules find it."""
    from companion.table.pairing import Pairing, keep_seated, seat_next

    seated = ["Ann", "Bob", "Åsa", "Dee"]
    typed = Pairing("dee", "A\u030asa")  # lower case; the accent decomposed
    assert keep_seated(seated, typed) == Pairing("Dee", "Åsa")
    assert seat_next(seated, typed, Side.LEFT) == Pairing("Ann", "Åsa")  # round the table
    assert seat_next(seated, typed, Side.RIGHT) == Pairing("Dee", "Ann")  # Dee is skipped
    assert seat_next(seated, Pairing("Bob", "DEE"), Side.LEFT) == Pairing("Åsa", "Dee")
    assert keep_seated(seated, Pairing("Zed", "åsa")) == Pairing("Ann", "Åsa")
    assert keep_seated(["Ann"], typed).named is False
