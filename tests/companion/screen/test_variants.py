"""The scoring variants by touch: the list of methods, house rules on the new-game view (a lone
0, H2O), a finishing order tapped in, the card the winner went out on, and seven-round UNO's
deal schedule."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from companion.app import CompanionApp
from companion.deck.cards import parse_card
from companion.scoring import METHODS
from companion.store.games import Store
from showdown.contract.i18n import set_language
from tests.companion.screen.conftest import Driver


def new_game(driver: Driver, method: str) -> None:
    driver.tap("tab:new_game")
    driver.tap("method")
    driver.tap(f"method:{method}")


def test_the_list_of_methods_says_how_each_scores(driver: Driver) -> None:
    driver.tap("tab:new_game")
    driver.tap("method")
    assert driver.view.choosing and driver.view.full_screen
    chooser = [b.key for b in driver.screen.buttons() if b.key.startswith("method:")]
    assert chooser == [f"method:{key}" for key in METHODS]
    assert METHODS["last"].summary == ("play goes on after the first is out: first out wins, "
                                       "the last player loses")
    driver.key(pygame.K_ESCAPE)  # leaves the method as it was
    assert not driver.view.choosing and driver.view.method.key == "winner"
    new_game(driver, "seven")
    assert driver.view.method.key == "seven" and driver.view.target == 7
    keys = {b.key for b in driver.screen.buttons()}
    assert "target:+" not in keys and not any(k.startswith("option:") for k in keys)


def test_a_lone_zero_is_chosen_on_the_new_game_view(driver: Driver) -> None:
    new_game(driver, "own")
    driver.tap("option:lone_zero_50")
    driver.tap("start")
    game = driver.app.game
    assert game is not None and game.rules.lone_zero_50 and game.rules.method.key == "own"
    driver.tap("enter_round")
    driver.tap("winner:Ann")
    driver.tap("card:r0")
    assert driver.view.hand_total("Bob") == 50
    driver.tap("card:r7")
    assert driver.view.hand_total("Bob") == 7


def test_h2o_brings_its_deck_and_the_card_gone_out_on_takes_points_off(driver: Driver,
                                                                       db: Path) -> None:
    new_game(driver, "own")
    driver.tap("option:h2o")
    assert driver.view.edition == "h2o" and driver.view.options == {"h2o"}
    driver.tap("start")
    driver.tap("enter_round")
    driver.tap("winner:Ann")
    assert driver.rect("out_on") and driver.view.out_on is None
    driver.tap("out_on")
    assert driver.view.out_on == parse_card("wild+1")
    driver.key(pygame.K_o)  # the same by key
    assert driver.view.out_on == parse_card("wild+2")
    assert driver.view.remaining(parse_card("wild+2")) == 3  # the card is on the table
    driver.tap("card:b4")
    driver.tap("player:Cid")
    driver.tap("card:wild+1")
    driver.tap("confirm")
    with Store(db) as store:
        rnd = store.games.load(store.games.latest_id()).rounds[0]
    assert rnd.out_on == parse_card("wild+2")
    assert {s.name: s.total for s in driver.app.standings()} == {"Ann": -40, "Bob": 4,
                                                                 "Cid": 50}
    driver.tap("tab:history")
    driver.frame()
    assert driver.view.rounds[0].out_on == "wild+2"


def test_what_is_chosen_stays_when_the_game_changes_elsewhere(driver: Driver) -> None:
    new_game(driver, "own")
    driver.tap("option:lone_zero_50")
    driver.app.record_round("Ann", hands={"Bob": ["r1"], "Cid": ["r2"]})  # e.g. the CLI
    driver.now_ms += 1000
    driver.frame()
    assert driver.view.method.key == "own" and driver.view.options == {"lone_zero_50"}
    driver.tap("tab:standings")
    driver.tap("tab:new_game")  # arriving again offers the game being played
    assert driver.view.method.key == "winner" and driver.view.options == set()


def test_a_deck_without_the_h2o_cards_drops_the_option(driver: Driver) -> None:
    new_game(driver, "own")
    driver.tap("option:h2o")
    driver.tap("edition:classic")
    assert driver.view.options == set()
    driver.tap("option:h2o")
    new_game(driver, "winner")  # winner collects takes no H2O
    assert driver.view.options == set()


def test_a_finishing_order_is_tapped_in_and_the_last_player_placed_by_itself(
        app: CompanionApp, db: Path) -> None:
    app.new_game("classic", "last", ["Ann", "Bob", "Cid", "Dan"])
    driver = Driver(app)
    driver.tap("enter_round")
    assert driver.view.name == "round_entry"
    driver.tap("place:Cid")
    driver.tap("place:Ann")
    assert not driver.enabled("confirm")
    driver.tap("place:Dan")
    notes = {b.key: b.sublabel for b in driver.screen.buttons() if b.key.startswith("place:")}
    assert notes == {"place:Cid": "place 1", "place:Ann": "place 2", "place:Dan": "place 3",
                     "place:Bob": "last"}
    driver.tap("place:Ann")  # taken back out, with everyone after her
    assert driver.view.order == ["Cid"]
    driver.key(pygame.K_4)  # Dan
    driver.key(pygame.K_1)  # Ann
    driver.key(pygame.K_BACKSPACE)
    driver.key(pygame.K_1)
    driver.key(pygame.K_RETURN)
    with Store(db) as store:
        rnd = store.games.load(store.games.latest_id()).rounds[0]
    assert rnd.order == ("Cid", "Dan", "Ann", "Bob")
    assert driver.view.name == "standings"
    first = driver.app.standings()[0]
    assert (first.name, first.wins, first.losses) == ("Cid", 1, 0)
    driver.tap("tab:history")
    assert dict(driver.view.rounds[0].cells) == {"Ann": "3", "Bob": "4", "Cid": "1", "Dan": "2"}


def test_a_finishing_order_is_corrected_from_the_history(app: CompanionApp) -> None:
    app.new_game("classic", "last", ["Ann", "Bob", "Cid"])
    app.record_round(None, order=["Ann", "Bob"])
    driver = Driver(app)
    driver.tap("tab:history")
    driver.view.edit(1)
    assert driver.view.name == "round_entry" and driver.view.order == ["Ann", "Bob", "Cid"]
    driver.tap("place:Bob")
    driver.tap("place:Cid")
    driver.tap("confirm")
    assert app.game is not None and app.game.rounds[0].order == ("Ann", "Cid", "Bob")
    assert app.game.scores[0].loser == "Bob"


def test_seven_rounds_shows_each_players_next_hand(app: CompanionApp) -> None:
    app.new_game("classic", "seven", ["Ann", "Bob", "Cid"])
    app.record_round("Bob")
    driver = Driver(app)
    driver.tap("enter_round")
    notes = {b.key: b.sublabel for b in driver.screen.buttons() if b.key.startswith("winner:")}
    assert notes == {"winner:Ann": "0/7 · hand of 7 cards · 1",
                     "winner:Bob": "1/7 · hand of 6 cards · 2",
                     "winner:Cid": "0/7 · hand of 7 cards · 3"}
    assert not driver.enabled("confirm")
    driver.tap("winner:Bob")
    assert driver.view.name == "round_entry" and driver.view.winner == "Bob"
    driver.tap("confirm")
    assert app.game is not None and [r.winner for r in app.game.rounds] == ["Bob", "Bob"]
    shown = [driver.screen.views["standings"].rows[0].total]
    assert shown == [2]


def test_the_championship_seats_at_most_seven_on_the_new_game_view(driver: Driver) -> None:
    driver.tap("tab:new_game")
    for _ in range(8):
        driver.tap("players:+")
    assert len(driver.view.names) == 10
    driver.tap("method")
    driver.tap("method:championship")
    assert len(driver.view.names) == 7 and not driver.enabled("players:+")


def test_the_teams_deck_brings_the_teams_method(driver: Driver) -> None:
    driver.tap("tab:new_game")
    driver.tap("edition:teams")
    assert driver.view.method.key == "teams" and len(driver.view.names) == 4


@pytest.mark.parametrize("lang", ["ru", "uk", "hy"])
def test_every_variant_view_draws_in_every_language(db: Path, lang: str) -> None:
    set_language(lang)
    app = CompanionApp.open(db, lang=lang)
    try:
        driver = Driver(app)
        new_game(driver, "own")
        driver.tap("option:h2o")
        driver.tap("method")
        driver.frame()
        assert not driver.screen.dirty  # the list of methods drew
        driver.tap("method:own")
        driver.tap("start")
        driver.tap("enter_round")
        driver.tap(f"winner:{driver.view.players()[0]}")
        driver.tap("out_on")
        driver.frame()
        app.new_game("classic", "last", ["A", "B", "C"])
        driver.screen.go("round_entry")
        driver.tap("place:B")
        driver.frame()
        app.new_game("classic", "seven", ["A", "B", "C"])
        driver.screen.go("standings")
        driver.frame()
        driver.screen.go("round_entry")
        driver.frame()
        assert not driver.screen.dirty
    finally:
        app.close()
