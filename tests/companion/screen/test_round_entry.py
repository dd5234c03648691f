"""Entering a round by tapping cards: running totals, deck limits, errors, and what gets saved."""

from __future__ import annotations

from pathlib import Path

import pygame

from companion.store.games import Store
from tests.companion.screen.conftest import Driver


def saved_rounds(db: Path) -> list[tuple[str, dict[str, str]]]:
    """What a fresh connection reads back: the round is on disk, not only in memory."""
    with Store(db) as store:
        game = store.games.load(store.games.latest_id())
        return [(r.winner, {n: h.text for n, h in r.hands.items()}) for r in game.rounds]


def test_a_round_entered_by_taps_is_saved_with_its_total(driver: Driver, db: Path) -> None:
    driver.tap("enter_round")
    assert driver.view.name == "round_entry"
    driver.tap("winner:Ann")
    for card in ("card:r5", "card:gskip", "card:wild+4"):
        driver.tap(card)
    assert driver.view.hand_total("Bob") == 5 + 20 + 50
    driver.tap("player:Cid")
    driver.tap("card:b9")
    driver.tap("card:showdown")
    assert driver.view.hand_total("Cid") == 49
    assert driver.view.round_total() == 124
    driver.tap("confirm")

    assert saved_rounds(db) == [
        ("Ann", {"Ann": "-", "Bob": "r5 gskip wild+4", "Cid": "b9 showdown"})
    ]
    assert driver.view.name == "standings"
    totals = {s.name: s.total for s in driver.app.standings()}
    assert totals == {"Ann": 124, "Bob": 0, "Cid": 0}


def test_the_player_chip_shows_each_running_total(driver: Driver) -> None:
    driver.tap("enter_round")
    driver.tap("winner:Bob")
    driver.tap("card:y+2")
    driver.tap("card:y7")
    chips = {b.key: b.sublabel for b in driver.screen.buttons() if b.key.startswith("player:")}
    assert chips == {"player:Ann": "27", "player:Cid": "0"}


def test_a_card_the_deck_has_run_out_of_cannot_be_tapped_again(driver: Driver) -> None:
    driver.tap("enter_round")
    driver.tap("winner:Ann")
    driver.tap("card:r0")  # the deck holds one red 0
    assert not driver.enabled("card:r0")
    driver.tap("card:r0")
    driver.tap("player:Cid")
    driver.tap("card:r0")
    codes = {name: [c.code for c in hand] for name, hand in driver.view.hands.items()}
    assert codes == {"Ann": [], "Bob": ["r0"], "Cid": []}


def test_tapping_a_card_in_the_hand_takes_it_back(driver: Driver) -> None:
    driver.tap("enter_round")
    driver.tap("winner:Ann")
    driver.tap("card:r5")
    driver.tap("card:wild")
    driver.tap("hand:0")
    assert [c.code for c in driver.view.hands["Bob"]] == ["wild"]
    driver.tap("take_back")
    assert driver.view.hands["Bob"] == []


def test_an_impossible_round_is_explained_and_not_saved(driver: Driver, db: Path) -> None:
    driver.tap("enter_round")
    driver.tap("winner:Ann")
    driver.tap("card:r5")  # Bob has cards, Cid has none: two players cannot both go out
    driver.tap("confirm")
    assert "Cid" in driver.view.error
    assert driver.view.name == "round_entry"
    assert saved_rounds(db) == []


def test_cancel_leaves_the_game_untouched(driver: Driver, db: Path) -> None:
    driver.tap("enter_round")
    driver.tap("winner:Ann")
    driver.tap("card:r5")
    driver.tap("cancel")
    assert driver.view.name == "standings"
    assert saved_rounds(db) == []


def test_a_round_entered_from_the_keyboard(driver: Driver, db: Path) -> None:
    driver.key(pygame.K_RETURN)  # standings: Enter opens round entry
    driver.key(pygame.K_3)  # Cid went out
    for key in (pygame.K_g, pygame.K_7, pygame.K_s, pygame.K_w):  # Ann: g7 gskip wild
        driver.key(key)
    driver.key(pygame.K_TAB)
    driver.key(pygame.K_y)
    driver.key(pygame.K_2)
    driver.key(pygame.K_d)
    driver.key(pygame.K_BACKSPACE)  # Bob: y2 (the +2 taken back)
    driver.key(pygame.K_RETURN)
    assert saved_rounds(db) == [("Cid", {"Ann": "g7 gskip wild", "Bob": "y2", "Cid": "-"})]
    assert {s.name: s.total for s in driver.app.standings()}["Cid"] == 79
