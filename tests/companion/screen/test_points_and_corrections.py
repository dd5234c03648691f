"""Hands typed as points on the number pad, and past rounds corrected from the history."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from companion.app import CompanionApp
from companion.screen.views.round_entry import MAX_DIGITS, type_digit
from companion.store.games import Store
from tests.companion.screen.conftest import Driver


def saved(db: Path) -> list[tuple[str, dict[str, tuple[str, ...] | int]]]:
    """Each round as a fresh connection reads it: winner, and cards (codes) or counted points."""
    with Store(db) as store:
        game = store.games.load(store.games.latest_id())
        return [(r.winner, {n: (tuple(c.code for c in h.cards) if h.cards is not None
                                else h.counted) for n, h in r.hands.items()})
                for r in game.rounds]


def played_at(db: Path) -> list[str]:
    with Store(db) as store:
        return [r.played_at for r in store.games.load(store.games.latest_id()).rounds]


# -- points --


def test_a_hand_typed_on_the_number_pad_is_saved_as_points(driver: Driver, db: Path) -> None:
    driver.tap("enter_round")
    driver.tap("winner:Ann")
    driver.tap("card:r5")  # Bob's hand by cards
    driver.tap("player:Cid")
    driver.tap("points")
    assert not any(b.key.startswith("card:") for b in driver.screen.buttons())
    for key in ("pad:4", "pad:7", "pad:back", "pad:2"):
        driver.tap(key)
    chips = {b.key: b.sublabel for b in driver.screen.buttons() if b.key.startswith("player:")}
    assert chips == {"player:Bob": "5", "player:Cid": "42"}
    assert driver.view.round_total() == 47
    driver.tap("confirm")

    assert saved(db) == [("Ann", {"Ann": (), "Bob": ("r5",), "Cid": 42})]
    assert driver.view.name == "standings"
    assert {s.name: s.total for s in driver.app.standings()}["Ann"] == 47


def test_points_from_the_keyboard_digits(driver: Driver, db: Path) -> None:
    driver.key(pygame.K_RETURN)
    driver.key(pygame.K_2)  # Bob went out; Ann is first to count
    for key in (pygame.K_p, pygame.K_1, pygame.K_2, pygame.K_0, pygame.K_BACKSPACE,
                pygame.K_KP7):
        driver.key(key)
    driver.key(pygame.K_TAB)
    for key in (pygame.K_p, pygame.K_0, pygame.K_3, pygame.K_w):  # the w adds no wild here
        driver.key(key)
    driver.key(pygame.K_RETURN)
    assert saved(db) == [("Bob", {"Ann": 127, "Bob": (), "Cid": 3})]


def test_switching_back_to_cards_keeps_the_tapped_cards(driver: Driver, db: Path) -> None:
    driver.tap("enter_round")
    driver.tap("winner:Ann")
    driver.tap("card:gskip")
    driver.tap("points")
    driver.tap("pad:9")
    assert driver.view.hand_total("Bob") == 9
    driver.tap("points")
    assert driver.view.hand_total("Bob") == 20
    driver.tap("player:Cid")
    driver.tap("card:y1")
    driver.tap("confirm")
    assert saved(db) == [("Ann", {"Ann": (), "Bob": ("gskip",), "Cid": ("y1",)})]


def test_a_hand_on_points_with_nothing_typed_is_explained_and_not_saved(
        driver: Driver, db: Path) -> None:
    driver.tap("enter_round")
    driver.tap("winner:Ann")
    driver.tap("card:r5")
    driver.tap("player:Cid")
    driver.tap("points")
    driver.tap("confirm")
    assert "Cid" in driver.view.error
    assert driver.view.name == "round_entry"
    assert saved(db) == []


def test_the_number_pad_is_finger_sized_and_clear_empties_the_number(driver: Driver) -> None:
    driver.tap("enter_round")
    driver.tap("winner:Ann")
    driver.tap("points")
    pad = [b for b in driver.screen.buttons() if b.key.startswith("pad:")]
    assert sorted(b.key for b in pad) == sorted(
        [f"pad:{d}" for d in range(10)] + ["pad:back", "pad:clear"])
    assert all(min(b.rect.size) >= 48 for b in pad)
    driver.tap("pad:8")
    driver.tap("pad:clear")
    assert driver.view.hand_total("Bob") == 0 and not driver.enabled("take_back")


def test_typed_numbers_drop_leading_zeros_and_stop_at_four_digits() -> None:
    typed = ""
    for digit in (0, 0, 1, 2, 3, 4, 5):
        typed = type_digit(typed, digit)
    assert typed == "1234" and len(typed) == MAX_DIGITS
    assert type_digit("", 0) == "0" and type_digit("0", 7) == "7"


# -- corrections --


@pytest.fixture
def two_rounds(app: CompanionApp) -> CompanionApp:
    app.record_round("Ann", hands={"Bob": ["r5"]}, points={"Cid": 12})
    app.record_round("Bob", hands={"Ann": ["wild"], "Cid": ["g1"]})
    return app


def open_round(driver: Driver, number: int) -> None:
    driver.tap("tab:history")
    driver.tap_at(driver.view.row_rect(number).center)


def test_tapping_a_round_opens_it_as_entered(two_rounds: CompanionApp, db: Path) -> None:
    driver = Driver(two_rounds)
    open_round(driver, 1)
    view = driver.view
    assert view.name == "round_entry" and view.editing == 1
    assert view.winner == "Ann"
    assert [c.code for c in view.hands["Bob"]] == ["r5"]
    assert view.on_points("Cid") and view.typed["Cid"] == "12"
    assert view.round_total() == 17


def test_a_corrected_round_is_saved_in_place(two_rounds: CompanionApp, db: Path) -> None:
    driver = Driver(two_rounds)
    when = played_at(db)
    open_round(driver, 1)
    driver.tap("hand:0")  # Bob did not have the red 5 ...
    driver.tap("card:b9")  # ... but a blue 9
    driver.tap("player:Cid")
    driver.tap("pad:back")
    driver.tap("pad:5")  # Cid had 15, not 12
    driver.tap("confirm")

    assert saved(db) == [
        ("Ann", {"Ann": (), "Bob": ("b9",), "Cid": 15}),
        ("Bob", {"Ann": ("wild",), "Bob": (), "Cid": ("g1",)}),
    ]
    assert played_at(db) == when  # still the round it was, played when it was
    assert driver.view.name == "history"
    shown = {r.number: dict(r.points) for r in driver.view.rounds}
    assert shown[1]["Ann"] == 24 and shown[2]["Bob"] == 51


def test_a_correction_can_change_who_went_out(two_rounds: CompanionApp, db: Path) -> None:
    driver = Driver(two_rounds)
    open_round(driver, 2)
    driver.tap("change_winner")
    driver.tap("winner:Cid")  # Cid went out, Bob held the green 1
    driver.tap("player:Bob")
    driver.tap("card:g1")
    driver.tap("confirm")
    assert saved(db)[1] == ("Cid", {"Ann": ("wild",), "Bob": ("g1",), "Cid": ()})
    assert {s.name: s.total for s in Driver(two_rounds).app.standings()}["Cid"] == 51


def test_cancelling_a_correction_changes_nothing(two_rounds: CompanionApp, db: Path) -> None:
    driver = Driver(two_rounds)
    before = saved(db)
    open_round(driver, 1)
    driver.tap("hand:0")
    driver.tap("cancel")
    assert driver.view.name == "history"
    assert saved(db) == before
    open_round(driver, 2)
    driver.key(pygame.K_ESCAPE)
    assert driver.view.name == "history" and saved(db) == before
    driver.tap("tab:standings")
    driver.tap("enter_round")  # the next new round starts empty, not as the correction
    assert driver.view.editing is None and driver.view.winner is None


def test_a_correction_left_by_a_function_key_is_dropped(two_rounds: CompanionApp,
                                                       db: Path) -> None:
    driver = Driver(two_rounds)
    before = saved(db)
    open_round(driver, 1)
    driver.key(pygame.K_F1)
    assert driver.view.name == "standings"
    driver.tap("enter_round")
    assert driver.view.editing is None and driver.view.winner is None
    driver.tap("winner:Cid")
    assert driver.view.hands["Bob"] == []  # nothing of round 1 carried into the new round
    assert saved(db) == before


def test_an_impossible_correction_is_explained_and_not_saved(two_rounds: CompanionApp,
                                                            db: Path) -> None:
    driver = Driver(two_rounds)
    before = saved(db)
    open_round(driver, 2)
    driver.tap("player:Cid")
    driver.tap("hand:0")  # Cid empty-handed too: two players cannot both go out
    driver.tap("confirm")
    assert "Cid" in driver.view.error and driver.view.name == "round_entry"
    assert saved(db) == before


def test_dragging_the_history_does_not_open_a_round(app: CompanionApp) -> None:
    for i in range(12):
        app.record_round(("Ann", "Bob")[i % 2], hands={("Bob", "Ann")[i % 2]: ["r1"],
                                                        "Cid": ["b1"]})
    driver = Driver(app)
    driver.tap("tab:history")
    start = driver.view.row_rect(10).center
    end = (start[0], start[1] - 60)
    driver.screen.handle_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=start, button=1))
    driver.screen.handle_event(pygame.event.Event(pygame.MOUSEMOTION, pos=end, rel=(0, -60),
                                                  buttons=(1, 0, 0)))
    driver.screen.handle_event(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=end, button=1))
    driver.frame()
    assert driver.view.name == "history" and driver.view.scroll.offset == 60
    assert driver.view.body_rect().contains(driver.view.row_rect(8))
    driver.tap_at(driver.view.row_rect(8).center)  # after scrolling, a tap hits the right row
    assert driver.view.name == "round_entry" and driver.view.editing == 8
