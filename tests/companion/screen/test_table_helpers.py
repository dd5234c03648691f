"""The table's helpers by touch: the Table view, the Rules view, the new game's house rules and
first dealer pages, and the showdown on a round's last card. Every one opens in every state
(no game, each deck, after a Reverse, a proposal, each page) in every language and size."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from companion.app import CompanionApp
from companion.screen.views.facts import round_winner
from companion.table.turns import Direction
from companion.touch import theme
from showdown.contract.events import DuelResult, Outcome, Side, VerdictGiven
from showdown.contract.i18n import set_language
from tests.companion.screen.conftest import Driver


def open_game(db: Path, edition: str, method: str = "winner", **kwargs) -> CompanionApp:
    app = CompanionApp.open(db, lang="en")
    app.new_game(edition, method, ["Ann", "Bob", "Cid", "Dan"], **kwargs)
    return app


def verdict(app: CompanionApp, winner: str, loser: str) -> None:
    result = DuelResult(Outcome.FASTER, Side.LEFT, Side.RIGHT, None, (),
                        {Side.LEFT: 200_000, Side.RIGHT: 300_000})
    app.on_service_event(VerdictGiven(7, result, Side.LEFT, Side.RIGHT, 2,
                                      {Side.LEFT: winner, Side.RIGHT: loser}))


def test_one_tap_on_a_showdown_row_proposes_the_next_player_in_turn(db: Path) -> None:
    app = open_game(db, "showdown")
    driver = Driver(app)
    driver.tap("tab:table")
    assert driver.view.name == "table" and driver.view.page == "showdown"
    driver.tap("showdown:Bob:2")
    proposal = app.proposed_duel()
    assert (proposal.challenger, proposal.opponent, proposal.cards) == ("Bob", "Cid", 2)
    assert next(b for b in driver.screen.buttons() if b.key == "showdown:Bob:2").selected
    driver.key(pygame.K_r)  # a Reverse, by key
    assert app.game.direction is Direction.COUNTERCLOCKWISE
    driver.tap("showdown:Bob:1")
    assert app.proposed_duel().opponent == "Ann"
    driver.tap("reverse")  # and by touch
    assert app.game.direction is Direction.CLOCKWISE
    app.close()


def test_a_wild_showdown_picks_any_opponent_and_one_to_three_cards(db: Path) -> None:
    app = open_game(db, "showdown")
    driver = Driver(app)
    driver.tap("tab:table")
    driver.tap("wild:Ann")
    keys = {b.key for b in driver.screen.buttons()}
    assert "wild:Ann:Ann:1" not in keys and "wild:Ann:Cid:3" in keys
    assert "wild:Ann:Cid:4" not in keys  # 1-3 cards only
    driver.tap("wild:Ann:Cid:3")
    proposal = app.proposed_duel()
    assert (proposal.challenger, proposal.opponent, proposal.cards, proposal.wild) == (
        "Ann", "Cid", 3, True)
    assert driver.view.wild_by is None
    driver.tap("wild:Dan")
    driver.key(pygame.K_ESCAPE)
    assert driver.view.wild_by is None and driver.view.name == "table"
    app.close()


def test_ctrl_r_reverses_anywhere_and_says_so_off_the_table_view(db: Path) -> None:
    app = open_game(db, "classic")
    driver = Driver(app)
    driver.key(pygame.K_r, pygame.KMOD_CTRL)
    assert app.game.direction is Direction.COUNTERCLOCKWISE
    assert "counter-clockwise" in driver.screen._notice
    app.close()


def test_the_item_box_names_whom_each_item_hits(db: Path) -> None:
    app = open_game(db, "mario-kart")
    driver = Driver(app)
    driver.tap("tab:table")
    assert driver.view.page == "items"
    driver.tap("colour:yellow")  # nobody chosen yet: the view asks for them first
    assert driver.view.effect is None and "Wild Item Box" in driver.view.error
    driver.tap("item_by:Cid")
    driver.tap("colour:yellow")
    assert driver.view.effect.draws == (("Bob", 2),)
    driver.tap("reverse")
    assert driver.view.effect is None  # whom it hits changed: tap the colour again
    driver.tap("colour:yellow")
    assert driver.view.effect.draws == (("Dan", 2),)
    driver.tap("colour:blue")
    assert driver.view.effect.plays_again and len(driver.view.effect.draws) == 3
    app.close()


def test_after_a_wild_draw_four_the_banana_peel_hits_whoever_laid_it(db: Path) -> None:
    """Seed 004: "the person who went directly before the Item Box player". Ann lays a Wild
    Draw Four, Bob draws and misses the turn, Cid plays the Wild Item Box: Ann played
    directly before Cid, and the table says so by tapping her in the row of players."""
    app = open_game(db, "mario-kart")
    driver = Driver(app)
    driver.tap("tab:table")
    driver.tap("item_by:Cid")
    before = [b for b in driver.screen.buttons() if b.key.startswith("item_before:")]
    assert [b.key for b in before] == [f"item_before:{n}" for n in app.game.seating.players]
    assert [b.key for b in before if b.selected] == ["item_before:Bob"]  # the seat before
    driver.tap("colour:yellow")
    assert driver.view.effect.draws == (("Bob", 2),)  # nobody said otherwise
    driver.tap("item_before:Ann")  # she laid the Wild Draw Four, Bob missed the turn
    assert driver.view.effect.draws == (("Ann", 2),)  # worked out again at once
    assert [b.key for b in driver.screen.buttons()
            if b.key.startswith("item_before:") and b.selected] == ["item_before:Ann"]
    driver.tap("item_by:Dan")  # another Item Box: the seat before again, until told
    driver.tap("colour:yellow")
    assert driver.view.effect.draws == (("Cid", 2),)
    app.close()


def test_the_first_card_page_applies_the_decks_rule(db: Path) -> None:
    app = open_game(db, "mario-kart")
    driver = Driver(app)
    driver.tap("tab:table")
    driver.tap("page:first_card")
    faces = [b.key for b in driver.screen.buttons() if b.key.startswith("first:")]
    assert "first:itembox" in faces and "first:wild" not in faces  # the deck's own cards
    driver.tap("first:rev")
    assert driver.view.opening.starter == "Ann"
    assert app.game.direction is Direction.COUNTERCLOCKWISE
    app.close()


def test_the_rules_view_shows_the_sheet_and_scrolls(db: Path) -> None:
    app = open_game(db, "showdown", house_rules=["stacking"])
    driver = Driver(app)
    driver.tap("tab:rules")
    texts = [line[0] for line in driver.view.lines]
    assert texts[0] == "Scoring" and "UNO Showdown: its own rules" in texts
    assert "Stacking · seed 001, Special rules" in texts
    assert "Showdown cards · seed 002, Showdowns" in texts  # every rule says whose word it is
    # a long title wraps, its lines following on
    assert "The first card · our inference: seed 002 only says to turn the top card over; " \
        "the table plays the first card as the classic rules (001) do" in " ".join(texts)
    assert "Not in force" in texts
    assert not any(t.startswith("Draw Two") for t in texts)  # stacking replaces it
    assert not driver.enabled("up")
    driver.tap("down")
    assert driver.view.scroll.offset > 0
    driver.key(pygame.K_PAGEUP)
    assert driver.view.scroll.offset == 0
    app.close()


def test_the_championship_sheet_is_its_regulation(db: Path) -> None:
    app = open_game(db, "classic", "championship")
    driver = Driver(app)
    driver.tap("tab:rules")
    texts = [line[0] for line in driver.view.lines]
    assert "The championship's regulation" in texts
    assert "2.4.8 Nothing else · seed 000, 2.4.8" in texts
    assert "House rules in force" not in texts
    app.close()


def test_a_new_game_takes_house_rules_and_a_first_dealer_by_the_draw(db: Path) -> None:
    app = CompanionApp.open(db, lang="en")
    driver = Driver(app)
    driver.tap("new_game")
    driver.tap("edition:classic")
    driver.tap("house_rules")
    driver.tap("house:double_play")  # brings jump-in with it
    driver.tap("house:silent_twos")
    driver.tap("house:silent_wilds")  # the two cannot go together
    assert driver.view.house_rules.chosen == {"double_play", "jump_in", "silent_wilds"}
    driver.key(pygame.K_ESCAPE)
    assert driver.view.page is None
    driver.tap("first_dealer")
    for rank in (7, 9, 2, 9):  # Player 1..4 draw in turn: 2 and 4 tie on 9
        driver.tap(f"rank:{rank}")
    assert driver.view.dealer.dealer is None
    assert "tied on 9" in driver.view.dealer.status(driver.view.names)
    driver.key(pygame.K_3)  # Player 2 redraws 3
    driver.tap("rank:5")  # Player 4 redraws 5
    assert driver.view.dealer.dealer == "Player 4"
    driver.tap("rank:back")  # a slip: taken back, the tie is open again
    assert driver.view.dealer.dealer is None
    driver.tap("rank:8")
    driver.tap("dealer:done")
    assert next(b for b in driver.screen.buttons()
                if b.key == "first_dealer").label == "Player 4 deals first"
    driver.tap("start")
    game = app.game
    assert game.house_rules == {"double_play", "jump_in", "silent_wilds"}
    assert game.first_dealer == "Player 4" and game.dealer == "Player 4"
    app.close()


def test_the_first_dealer_by_hand_and_a_changed_table_forgets_it(db: Path) -> None:
    app = CompanionApp.open(db, lang="en")
    driver = Driver(app)
    driver.tap("new_game")
    driver.tap("first_dealer")
    driver.tap("dealer:hand")
    driver.tap("dealer:Player 3")
    assert driver.view.dealer.dealer == "Player 3"
    driver.tap("dealer:done")
    driver.tap("players:-")
    driver.tap("players:-")  # Player 3 has left the table: the first seat deals again
    assert driver.view.dealer.dealer is None
    app.close()


def test_the_championship_offers_no_house_rules(db: Path) -> None:
    app = CompanionApp.open(db, lang="en")
    driver = Driver(app)
    driver.tap("new_game")
    driver.tap("edition:classic")
    driver.tap("house_rules")
    driver.tap("house:done")
    driver.tap("method")
    driver.tap("method:championship")
    driver.tap("house_rules")
    assert not [b for b in driver.screen.buttons() if b.key.startswith("house:")
                and b.key != "house:done"]
    app.close()


def test_a_lost_duel_on_the_last_card_records_no_round(db: Path) -> None:
    app = open_game(db, "showdown")
    verdict(app, "Bob", "Ann")
    driver = Driver(app)
    driver.tap("enter_round")
    driver.tap("winner:Ann")
    driver.tap("showdown")
    button = next(b for b in driver.screen.buttons() if b.key == "showdown")
    assert button.sublabel == "lost vs Bob"
    confirm = next(b for b in driver.screen.buttons() if b.key == "confirm")
    assert confirm.label == "Play goes on"
    driver.tap("confirm")
    assert app.game.rounds == () and driver.view.name == "standings"
    verdict(app, "Ann", "Cid")  # play went on, and Ann's next showdown card won
    driver.tap("enter_round")
    driver.tap("winner:Ann")
    driver.key(pygame.K_o)
    assert next(b for b in driver.screen.buttons() if b.key == "showdown").sublabel == \
        "won vs Cid"
    for name, card in (("Bob", "r5"), ("Cid", "g5"), ("Dan", "b5")):
        driver.tap(f"player:{name}")
        driver.tap(f"card:{card}")
    driver.tap("confirm")
    assert app.game.rounds[0].showdown_out
    assert round_winner(app.history()[0]) == "Ann · Showdown"  # the history says so
    app.close()


def test_without_a_recorded_duel_a_tap_says_won_or_lost(db: Path) -> None:
    app = open_game(db, "showdown", "seven")
    driver = Driver(app)
    driver.tap("enter_round")
    driver.tap("winner:Dan")
    driver.tap("showdown")
    assert next(b for b in driver.screen.buttons() if b.key == "showdown").sublabel == "won"
    driver.tap("showdown")
    assert next(b for b in driver.screen.buttons() if b.key == "showdown").sublabel == "lost"
    driver.tap("showdown")
    assert not driver.view.showdown
    driver.tap("showdown")
    driver.tap("confirm")
    assert app.game.rounds[0].showdown_out and app.game.rounds[0].winner == "Dan"
    app.close()


STATES = ("none", "showdown", "showdown-reversed-proposed", "mario-kart", "teams",
          "championship")


def game_in(db: Path, state: str) -> CompanionApp:
    app = CompanionApp.open(db, lang="en")
    if state == "none":
        return app
    edition = {"showdown-reversed-proposed": "showdown", "championship": "classic"}.get(
        state, state)
    method = {"teams": "teams", "championship": "championship"}.get(state, "winner")
    app.new_game(edition, method, ["Ann+Cid", "Bob+Dan"] if method == "teams"
                 else ["Anna", "Bob", "Carla", "Dmitri", "Eve", "Fyodor", "Gayane", "Hov"][
                     :7 if method == "championship" else 8],
                 house_rules=["jump_in"] if method != "championship" else [])
    if state == "showdown-reversed-proposed":
        app.reverse()
        app.propose_showdown("Eve", 3)
    return app


def pages(driver: Driver) -> list[str]:
    return [b.key for b in driver.screen.buttons() if b.key.startswith("page:")] or [""]


#: Every language on the Pi's touch display; the longest language (Armenian) in the
#: emulator's side panel, and a big window.
LOOKS = [("en", (800, 480)), ("ru", (800, 480)), ("uk", (800, 480)), ("hy", (800, 480)),
         ("hy", (704, 720)), ("en", (1280, 800))]


@pytest.mark.parametrize(("lang", "size"), LOOKS, ids=[f"{lang}-{w}x{h}"
                                                       for lang, (w, h) in LOOKS])
@pytest.mark.parametrize("state", STATES)
def test_every_helper_view_draws_in_every_state(tmp_path: Path, lang: str,
                                                size: tuple[int, int], state: str) -> None:
    """Each page of the Table view, the Rules view and the new game's pages: drawn without
    error, something on screen, every button inside the screen and finger-sized."""
    set_language(lang)
    app = game_in(tmp_path / "g.db", state)
    driver = Driver(app, size)
    bounds = pygame.Rect((0, 0), size)
    seen = []

    def check(name: str) -> None:
        driver.frame()
        driver.screen.draw(driver.surface)
        assert driver.surface.get_bounding_rect().width > 0
        assert pygame.transform.average_color(driver.surface)[:3] != theme.BACKGROUND
        for button in driver.screen.buttons():
            assert bounds.contains(button.rect), (name, button.key)
            assert min(button.rect.size) >= 44, (name, button.key, button.rect)
        seen.append(name)

    driver.screen.go("table")
    for page in pages(driver):
        if page:
            driver.tap(page)
        check(f"table {page}")
        if page == "page:showdown":
            driver.tap(next(b.key for b in driver.screen.buttons()
                            if b.key.startswith("wild:")))
            check("wild showdown")
            driver.key(pygame.K_ESCAPE)
        if page == "page:items":
            driver.tap("item_by:Bob")
            for colour in ("red", "yellow", "green", "blue", "wild"):
                driver.tap(f"colour:{colour}")
                check(f"item {colour}")
        if page == "page:first_card":
            for key in [b.key for b in driver.screen.buttons() if b.key.startswith("first:")]:
                driver.tap(key)
                check(key)
    driver.screen.go("rules")
    check("rules")
    if driver.enabled("down") if app.game else False:
        driver.tap("down")
        check("rules scrolled")
    driver.screen.go("new_game")
    driver.tap("house_rules")
    check("house rules")
    for key in [b.key for b in driver.screen.buttons()
                if b.key.startswith("house:") and b.key != "house:done"][:3]:
        driver.tap(key)
    check("house rules chosen")
    driver.tap("house:done")
    driver.tap("first_dealer")
    check("dealer draw")
    for rank in (9, 9, 9, 9, 9, 9, 9, 9):
        driver.tap(f"rank:{rank}") if driver.enabled(f"rank:{rank}") else None
    check("dealer tie")
    driver.tap("dealer:hand")
    check("dealer by hand")
    assert len(seen) >= 6
    app.close()


@pytest.mark.parametrize("lang", ["en", "ru", "uk", "hy"])
def test_the_direction_box_keeps_the_round_and_a_whole_direction(db: Path, lang: str) -> None:
    """At 800x480 the top box says the round and the direction on one line each, in every
    language: the direction is never cut and never pushes the round out."""
    from companion.screen.views.table import DIRECTION_SHORT
    from companion.touch.i18n import _

    set_language(lang)
    try:
        driver = Driver(open_game(db, "classic"))  # 800x480
        driver.screen.go("table")
        driver.frame()
        width = driver.screen.current.direction_w() - 56
        for direction in Direction:
            words = _(DIRECTION_SHORT[direction])
            drawn, size = theme.fit(words, 15, width, bold=True)
            assert drawn == words and size >= theme.MIN_TEXT_PX, (lang, words)
    finally:
        set_language("en")


def test_round_entry_asks_the_next_player_for_what_a_last_plus_two_made_them_draw(
        db: Path) -> None:
    """Seed 004: a last Draw Two or Wild Draw Four still makes the next player draw, and
    those cards count: the round entry asks for them in that player's hand."""
    app = open_game(db, "mario-kart")
    driver = Driver(app)
    driver.tap("enter_round")
    driver.tap("winner:Ann")
    view = driver.view
    assert view.current == "Bob" and view.draws_for_last_card("Bob")
    assert not view.draws_for_last_card("Cid")
    driver.screen.draw(driver.surface)  # the hint is drawn in every size
    for code in ("r5", "wild+4", "y9"):  # Bob's card, and the two a last Draw Two gave him
        driver.tap(f"card:{code}")
    assert view.hand_total("Bob") == 64
    app.close()
    classic = open_game(db.with_name("classic.db"), "classic")
    driver = Driver(classic)
    driver.tap("enter_round")
    driver.tap("winner:Ann")
    assert not driver.view.draws_for_last_card("Bob")
    classic.close()


def test_blank_cards_are_on_the_card_grid_only_under_their_house_rule(db: Path) -> None:
    app = open_game(db, "classic")
    driver = Driver(app)
    driver.tap("enter_round")
    driver.tap("winner:Ann")
    assert "card:blank" not in {b.key for b in driver.screen.buttons()}
    app.close()
    ruled = open_game(db.with_name("blank.db"), "classic", house_rules=["blank_plus_ten"])
    driver = Driver(ruled)
    driver.tap("enter_round")
    driver.tap("winner:Ann")
    driver.tap("card:blank")
    assert driver.view.hand_total("Bob") == 50
    ruled.close()
